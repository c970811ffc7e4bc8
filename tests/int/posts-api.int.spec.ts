import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '../../domain/permissions/roles.ts';
import { parsePosition, START } from '../../infrastructure/event-store/event-store.port.ts';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.ts';

type Thread = {
  id: number;
  message: string;
  anonymous: boolean;
  author: { id: number; name: string } | null;
  mine: boolean;
  deleted: boolean;
  edited: boolean;
  team: boolean;
  hidden: boolean;
  answered: boolean;
  replies: Thread[];
};

describe('posts API: comments and questions on a course', () => {
  let p: TestPlatform;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};
  let courseId: number;
  let closedCourseId: number;

  const call = async (who: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => {
    const response = await p.app.inject({ method, url, headers: { authorization: `JWT ${tokens[who]}` }, ...(payload ? { payload } : {}) });
    const position = response.headers['x-event-position'];
    if (typeof position === 'string') await p.platform.runner.waitFor(['courses', 'posts', 'users', 'organisation'], parsePosition(position) as never, 10_000);
    return response;
  };
  const posts = async (who: string, id = courseId) => ((await call(who, 'GET', `/api/post?courseId=${id}`)).json() as { items: Thread[] }).items;
  const course = async (title: string, postsEnabled: boolean, unitId: number) => {
    const created = await call('admin', 'POST', '/api/courses', {
      type: 3,
      title,
      description: 'Izobraževanje s komentarji udeležencev.',
      cover: '/c.svg',
      creditPoints: 1,
      postsEnabled,
      audience: { unitIds: [unitId] },
    });
    const id = (created.json() as { id: number }).id;
    await call('admin', 'POST', `/api/courses/${id}/blocks`, { block: { kind: 'article', name: 'Besedilo', html: '<p>Vsebina</p>' } });
    await call('admin', 'POST', `/api/courses/${id}/publish`);
    return id;
  };

  beforeAll(async () => {
    p = await startTestPlatform();
    ids.admin = await p.createUser('skrbnik', [{ roleId: ROLE.admin, unitId: 0, companyId: null }]);
    tokens.admin = (await p.login('skrbnik')).token;
    const company = (await call('admin', 'POST', '/api/companies', { name: 'Lekarne', address: 'Cesta 1' })).json() as { id: number };
    const unitA = ((await call('admin', 'POST', '/api/units', { name: 'A', companyId: company.id })).json() as { id: number }).id;
    const unitB = ((await call('admin', 'POST', '/api/units', { name: 'B', companyId: company.id })).json() as { id: number }).id;
    for (const [name, roleId, unitId] of [
      ['ana', ROLE.participant, unitA],
      ['bor', ROLE.participant, unitA],
      ['cene', ROLE.participant, unitB],
      ['klara', ROLE.client, unitA],
      ['kris', ROLE.client, unitB],
    ] as const) {
      ids[name] = await p.createUser(name, [{ roleId, unitId, companyId: company.id }]);
      tokens[name] = (await p.login(name)).token;
    }
    ids.unitA = unitA;
    ids.company = company.id;
    courseId = await course('Interakcije zdravil', true, unitA);
    closedCourseId = await course('Brez komentarjev', false, unitA);
  });

  afterAll(async () => p.close());

  it('lets a participant ask anonymously: other participants never see who asked, the author sees it is theirs', async () => {
    const bad = await call('ana', 'POST', '/api/post', { courseId, message: '   ' });
    expect(bad.json()).toEqual({ errors: [{ code: '400', field: 'message', message: 'Vnos je obvezen' }] });
    expect((await call('ana', 'POST', '/api/post', { courseId, message: 'x'.repeat(5001) })).statusCode).toBe(400);
    const asked = await call('ana', 'POST', '/api/post', { courseId, message: '  Ali velja tudi za atorvastatin? ', anonymous: true });
    expect(asked.statusCode).toBe(201);
    ids.question = (asked.json() as { id: number }).id;

    const [seenByBor] = await posts('bor');
    expect(seenByBor).toMatchObject({ message: 'Ali velja tudi za atorvastatin?', anonymous: true, author: null, mine: false });
    const raw = (await call('bor', 'GET', `/api/post?courseId=${courseId}`)).body;
    expect(raw).not.toContain('Test ana');
    expect(raw).not.toMatch(/author_?id/i);
    expect((await posts('ana'))[0]).toMatchObject({ author: { id: ids.ana, name: 'Test ana' }, mine: true });
    // System post readers (admins) moderate, so they see the author.
    expect((await posts('admin'))[0]?.author).toEqual({ id: ids.ana, name: 'Test ana' });
  });

  it('takes replies to a post, never to a reply, and lists them under it', async () => {
    const reply = await call('bor', 'POST', '/api/post', { courseId, message: 'Da, v manjši meri.', parentId: ids.question });
    expect(reply.statusCode).toBe(201);
    ids.reply = (reply.json() as { id: number }).id;
    expect((await call('ana', 'POST', '/api/post', { courseId, message: 'Hvala', parentId: ids.reply })).statusCode).toBe(400);
    expect((await call('ana', 'POST', '/api/post', { courseId: closedCourseId, message: 'Hvala', parentId: ids.question })).statusCode).toBe(422);
    const [thread] = await posts('ana');
    expect(thread?.replies).toEqual([expect.objectContaining({ id: ids.reply, message: 'Da, v manjši meri.', author: { id: ids.bor, name: 'Test bor' } })]);
  });

  it('lets authors edit and delete their own posts, and nobody else without moderation rights', async () => {
    expect((await call('bor', 'PUT', `/api/post/${ids.question}`, { message: 'Tuje' })).json()).toEqual({
      errors: [{ code: '403', message: 'Nimate pravic za to dejanje.', field: null }],
    });
    expect((await call('bor', 'DELETE', `/api/post/${ids.question}`)).statusCode).toBe(403);
    expect((await call('ana', 'PUT', `/api/post/${ids.question}`, { message: 'Ali velja tudi za atorvastatin in rosuvastatin?' })).statusCode).toBe(200);
    expect((await posts('bor'))[0]).toMatchObject({ message: 'Ali velja tudi za atorvastatin in rosuvastatin?', edited: true });
    // A client moderates posts of members of their unit (1036), not of other units: to a client of
    // unit B the course (for unit A) and its posts do not exist.
    expect((await call('kris', 'PUT', `/api/post/${ids.reply}`, { message: 'Popravek' })).statusCode).toBe(404);
    expect((await call('klara', 'PUT', `/api/post/${ids.reply}`, { message: 'Da, v manjši meri (popravek moderatorja).' })).statusCode).toBe(200);
    // Deleting the question keeps its reply readable under a placeholder without text or author.
    expect((await call('ana', 'DELETE', `/api/post/${ids.question}`)).statusCode).toBe(200);
    const [thread] = await posts('bor');
    expect(thread).toMatchObject({ id: ids.question, deleted: true, message: '', author: null, mine: false });
    expect(thread?.replies.map((r) => r.message)).toEqual(['Da, v manjši meri (popravek moderatorja).']);
    expect((await call('ana', 'PUT', `/api/post/${ids.question}`, { message: 'Spet' })).statusCode).toBe(404);
    expect((await call('admin', 'DELETE', `/api/post/${ids.reply}`)).statusCode).toBe(200);
    expect(await posts('bor')).toEqual([]);
  });

  it('answers 404 for a course the caller may not see, and takes no posts where comments are off', async () => {
    expect((await call('cene', 'GET', `/api/post?courseId=${courseId}`)).statusCode).toBe(404);
    // A course named in the body that the caller may not read is refused by its field (decision 0047).
    expect((await call('cene', 'POST', '/api/post', { courseId, message: 'Živjo' })).json()).toEqual({
      errors: [{ code: '400', message: `Izbrano izobraževanje ne obstaja ali ni na voljo (št. ${courseId}).`, field: 'courseId' }],
    });
    expect((await call('ana', 'POST', '/api/post', { courseId: closedCourseId, message: 'Živjo' })).json()).toEqual({
      errors: [{ code: '422', message: 'Komentarji pri tem izobraževanju niso omogočeni.', field: null }],
    });
    expect(await posts('ana', closedCourseId)).toEqual([]);
    expect((await call('ana', 'GET', '/api/post?courseId=abc')).statusCode).toBe(400);
    // Of all the refused writes in this suite none was recorded: only the two accepted posts exist.
    const all = await p.store.readAll(START, 10_000);
    expect(all.events.filter((e) => e.type === 'PostCreated')).toHaveLength(2);
  });

  it('lets the course team hide a post: gone for participants, its author too, marked for moderators, back when shown again', async () => {
    const question = (await (await call('ana', 'POST', '/api/post', { courseId, message: 'Kako dolgo velja recept?' })).json()) as { id: number };
    const rude = (await (await call('bor', 'POST', '/api/post', { courseId, message: 'Neprimeren komentar.' })).json()) as { id: number };
    const thread = (who: string) => posts(who).then((items) => items.find((t) => t.id === rude.id));

    const hid = await call('admin', 'PUT', `/api/post/${rude.id}/hidden`, { hidden: true });
    expect(hid.statusCode).toBe(200);
    expect(hid.headers['x-event-position']).toBeTypeOf('string');
    expect(await thread('ana')).toBeUndefined();
    expect(await thread('bor')).toBeUndefined();
    expect((await posts('ana')).map((t) => t.id)).toContain(question.id);
    expect(await thread('admin')).toMatchObject({ hidden: true, message: 'Neprimeren komentar.', author: { id: ids.bor } });
    // A client of the course's company moderates there, so they see it too (marked).
    expect(await thread('klara')).toMatchObject({ hidden: true });
    // Hidden from its author: no edit, no reply to it.
    expect((await call('bor', 'PUT', `/api/post/${rude.id}`, { message: 'Popravek' })).statusCode).toBe(404);
    expect((await call('ana', 'POST', '/api/post', { courseId, message: 'Res?', parentId: rude.id })).statusCode).toBe(404);
    // Hiding again changes nothing; showing brings it back for everyone.
    expect((await call('admin', 'PUT', `/api/post/${rude.id}/hidden`, { hidden: true })).statusCode).toBe(200);
    expect((await call('klara', 'PUT', `/api/post/${rude.id}/hidden`, { hidden: false })).statusCode).toBe(200);
    expect(await thread('bor')).toMatchObject({ hidden: false, message: 'Neprimeren komentar.' });
    const events = (await p.store.readStream(`post-${rude.id}`)).events.map((e) => ({ type: e.type, data: e.data }));
    expect(events.slice(1)).toEqual([
      { type: 'PostHidden', data: { hiddenBy: ids.admin } },
      { type: 'PostShown', data: { shownBy: ids.klara } },
    ]);
    // Hidden again, then deleted by a moderator after all.
    expect((await call('admin', 'PUT', `/api/post/${rude.id}/hidden`, { hidden: true })).statusCode).toBe(200);
    expect((await call('admin', 'DELETE', `/api/post/${rude.id}`)).statusCode).toBe(200);
    expect(await thread('admin')).toBeUndefined();
    expect((await call('admin', 'PUT', `/api/post/${rude.id}/hidden`, { hidden: false })).statusCode).toBe(404);
    ids.openQuestion = question.id;
  });

  it("replies as the course team and marks the question answered; participants see the team's signed answer", async () => {
    const question = ids.openQuestion as number;
    const bad = await call('admin', 'POST', `/api/post/${question}/team-replies`, { message: ' ' });
    expect(bad.json()).toEqual({ errors: [{ code: '400', field: 'message', message: 'Vnos je obvezen' }] });
    const answer = await call('admin', 'POST', `/api/post/${question}/team-replies`, { message: 'Recept velja 30 dni.' });
    expect(answer.statusCode).toBe(201);
    const answerId = (answer.json() as { id: number }).id;
    expect((await call('admin', 'PUT', `/api/post/${question}/answered`, { answered: true })).statusCode).toBe(200);
    const seen = (await posts('bor')).find((t) => t.id === question);
    expect(seen).toMatchObject({ answered: true, hidden: false, team: false });
    expect(seen?.replies).toEqual([
      expect.objectContaining({ id: answerId, message: 'Recept velja 30 dni.', team: true, anonymous: false, author: { id: ids.admin, name: 'Test skrbnik' } }),
    ]);
    // Only questions are answered, and the team answers posts, not replies.
    expect((await call('admin', 'PUT', `/api/post/${answerId}/answered`, { answered: true })).json()).toEqual({
      errors: [{ code: '400', message: 'Kot odgovorjeno lahko označite le vprašanje, ne odgovora.', field: null }],
    });
    expect((await call('admin', 'POST', `/api/post/${answerId}/team-replies`, { message: 'Še to.' })).statusCode).toBe(400);
    expect((await call('admin', 'PUT', `/api/post/999999/answered`, { answered: true })).statusCode).toBe(404);
    // A client answers for the team in their company's course; marking it unanswered is recorded once.
    expect((await call('klara', 'POST', `/api/post/${question}/team-replies`, { message: 'Pri nas tudi.' })).statusCode).toBe(201);
    expect((await call('klara', 'PUT', `/api/post/${question}/answered`, { answered: false })).statusCode).toBe(200);
    expect((await call('klara', 'PUT', `/api/post/${question}/answered`, { answered: false })).statusCode).toBe(200);
    const types = (await p.store.readStream(`post-${question}`)).events.map((e) => e.type);
    expect(types).toEqual(['PostCreated', 'PostMarkedAnswered', 'PostMarkedUnanswered']);
  });

  it('refuses the team actions to participants (403) and hides posts of other companies from their clients (404)', async () => {
    const question = ids.openQuestion as number;
    expect((await call('ana', 'POST', `/api/post/${question}/team-replies`, { message: 'Jaz vem.' })).statusCode).toBe(403);
    expect((await call('ana', 'PUT', `/api/post/${question}/hidden`, { hidden: true })).statusCode).toBe(403);
    expect((await call('ana', 'PUT', `/api/post/${question}/answered`, { answered: true })).statusCode).toBe(403);
    const other = (await call('admin', 'POST', '/api/companies', { name: 'Druge lekarne', address: 'Pot 2' })).json() as { id: number };
    const unit = ((await call('admin', 'POST', '/api/units', { name: 'C', companyId: other.id })).json() as { id: number }).id;
    await p.createUser('zora', [{ roleId: ROLE.client, unitId: unit, companyId: other.id }]);
    tokens.zora = (await p.login('zora')).token;
    const refused = await call('zora', 'PUT', `/api/post/${question}/hidden`, { hidden: true });
    expect(refused.json()).toEqual({ errors: [{ code: '404', message: 'Vir ne obstaja.', field: null }] });
    expect((await call('zora', 'PUT', `/api/post/${question}/answered`, { answered: true })).statusCode).toBe(404);
    expect((await call('zora', 'POST', `/api/post/${question}/team-replies`, { message: 'Tuje.' })).statusCode).toBe(404);
    expect((await call('zora', 'PUT', '/api/post/999999/hidden', { hidden: true })).statusCode).toBe(404);
    expect((await posts('ana')).find((t) => t.id === question)?.hidden).toBe(false);
    // A member of zora's unit too is not enough: their post on the other company's course stays
    // out of zora's reach (she could otherwise moderate it after adding its author to her unit).
    await p.createUser('vid', [
      { roleId: ROLE.participant, unitId: ids.unitA as number, companyId: ids.company as number },
      { roleId: ROLE.participant, unitId: unit, companyId: other.id },
    ]);
    tokens.vid = (await p.login('vid')).token;
    const written = (await call('vid', 'POST', '/api/post', { courseId, message: 'Moje vprašanje.' })).json() as { id: number };
    expect((await call('zora', 'PUT', `/api/post/${written.id}`, { message: 'Prepisano.' })).statusCode).toBe(404);
    expect((await call('zora', 'DELETE', `/api/post/${written.id}`)).statusCode).toBe(404);
    expect((await posts('ana')).find((t) => t.id === written.id)).toMatchObject({ message: 'Moje vprašanje.', edited: false });
  });
});
