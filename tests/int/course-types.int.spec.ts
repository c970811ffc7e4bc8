import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { courseRule } from '../../domain/courses/course.rules.ts';
import {
  CERTIFIED_NO_CERTIFICATE,
  CERTIFIED_NO_POINTS,
  INFORMATIVE_CERTIFICATE,
  INFORMATIVE_POINTS,
  INFORMATIVE_POINTS_BLOCK,
  RX_LABEL,
  RX_NO_PROFESSIONS,
  RX_PUBLIC,
  rxProfessionRefused,
} from '../../domain/courses/course-types.rules.ts';
import { ROLE } from '../../domain/permissions/roles.ts';
import { parsePosition } from '../../infrastructure/event-store/event-store.port.ts';
import { pdfText } from '../support/pdf-text.ts';
import { startSmtpSink } from '../support/smtp-sink.ts';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.ts';

/**
 * Issue 36 item 1 over the API (decision 0062): every rule of the course types at save and at publish,
 * and an RX course (type 1) that never reaches a profession which may not prescribe or supply
 * medicines: not in the list, not by id (page, blocks, records, steps), not in a notification by mail,
 * not through a news item linking it, not on the partner sites' public list; a profession that loses
 * its flag, or a person who changes profession, loses the course at once, enrolled or not.
 */
describe('course types with meaning', () => {
  let p: TestPlatform;
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};

  const call = async (who: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => {
    const response = await p.app.inject({ method, url, headers: { authorization: `JWT ${tokens[who]}` }, ...(payload ? { payload } : {}) });
    const position = response.headers['x-event-position'];
    if (typeof position === 'string') await p.settleAll(parsePosition(position));
    return response;
  };
  const base = { title: 'Tečaj', description: 'Izobraževanje za preizkus pravil vrst izobraževanj.', cover: '/c.svg', creditPoints: 1 };
  const create = (body: object) => call('admin', 'POST', '/api/courses', { ...base, ...body });
  const idOf = (response: { json: () => unknown }) => (response.json() as { id: number }).id;
  const article = (courseId: number) =>
    call('admin', 'POST', `/api/courses/${courseId}/blocks`, { block: { kind: 'article', name: 'Besedilo', html: '<p>Vsebina</p>' } });
  const refusal = (response: { statusCode: number; json: () => unknown }) => ({
    status: response.statusCode,
    ...((response.json() as { errors: { field: string | null; message: string }[] }).errors[0] ?? {}),
  });
  const audience = (...professionIds: (number | undefined)[]) => ({ byProfession: true, professionIds });
  const profession = (name: string, mayPrescribe: boolean) => ({ name, needsLicenceNumber: false, mayPrescribe });
  const listed = async (who: string) => ((await call(who, 'GET', '/api/user-courses')).json() as { items: { id: number }[] }).items.map((c) => c.id);

  beforeAll(async () => {
    smtp = await startSmtpSink();
    p = await startTestPlatform({ SMTP_URL: smtp.url, PUBLIC_URL: 'https://medilearn.test' }, { jobs: true });
    await p.createUser('skrbnik', [{ roleId: ROLE.admin, unitId: 0, companyId: null }]);
    tokens.admin = (await p.login('skrbnik')).token;
    const company = idOf(await call('admin', 'POST', '/api/companies', { name: 'Lekarne', address: 'Cesta 1' }));
    const unit = idOf(await call('admin', 'POST', '/api/units', { name: 'A', companyId: company }));
    ids.doctor = idOf(await call('admin', 'POST', '/api/professions', profession('Zdravnik', true)));
    ids.pharmacist = idOf(await call('admin', 'POST', '/api/professions', profession('Magister farmacije', true)));
    ids.nurse = idOf(await call('admin', 'POST', '/api/professions', profession('Medicinska sestra', false)));
    for (const [username, professionId] of [
      ['zdravnik', ids.doctor],
      ['farmacevt', ids.pharmacist],
      ['sestra', ids.nurse],
    ] as const) {
      await p.createUser(username, [{ roleId: ROLE.participant, unitId: unit, companyId: company }]);
      tokens[username] = (await p.login(username)).token;
      const me = await call(username, 'PUT', '/api/users/me', { firstName: 'Test', lastName: username, phone: '041 000 000', professionId });
      expect(me.statusCode, me.body).toBe(200);
    }
  }, 120_000);

  afterAll(async () => {
    await p?.close();
    await smtp?.close();
  });

  it('lists the flag with the professions and lets the admin change it', async () => {
    const professions = (await call('admin', 'GET', '/api/professions?search=a')).json() as { items: { id: number; mayPrescribe: boolean }[] };
    expect(professions.items.find((x) => x.id === ids.nurse)?.mayPrescribe).toBe(false);
    expect(professions.items.find((x) => x.id === ids.doctor)?.mayPrescribe).toBe(true);
    expect((await call('sestra', 'PUT', `/api/professions/${ids.nurse}`, profession('Medicinska sestra', true))).statusCode).toBe(403);
  });

  it('type 1 (RX): never public, only prescribing professions, professions named before publishing', async () => {
    expect(refusal(await create({ type: 1, public: true }))).toEqual({ status: 422, code: '422', field: 'public', message: RX_PUBLIC });
    expect(refusal(await create({ type: 1, audience: audience(ids.doctor, ids.nurse) }))).toEqual({
      status: 422,
      code: '422',
      field: 'audience.professionIds',
      message: rxProfessionRefused('Medicinska sestra'),
    });
    // A draft may name its audience later; it is published only once it does.
    const draft = idOf(await create({ type: 1, title: 'Osnutek Rx' }));
    expect((await article(draft)).statusCode).toBe(201);
    expect(refusal(await call('admin', 'POST', `/api/courses/${draft}/publish`))).toMatchObject({
      status: 422,
      field: 'audience.professionIds',
      message: RX_NO_PROFESSIONS,
    });

    const created = await create({ type: 1, title: 'Antikoagulanti Rx', audience: audience(ids.doctor, ids.pharmacist) });
    expect(created.statusCode, created.body).toBe(201);
    ids.rx = idOf(created);
    expect((await article(ids.rx)).statusCode).toBe(201);
    expect((await call('admin', 'POST', `/api/courses/${ids.rx}/publish`)).statusCode).toBe(200);
    // Saving it public, or for nurses, is refused also once it is published.
    const fields = ((await call('admin', 'GET', `/api/courses/${ids.rx}`)).json() as { fields: Record<string, unknown> }).fields;
    expect(refusal(await call('admin', 'PUT', `/api/courses/${ids.rx}`, { ...fields, public: true, audience: { byProfession: false } }))).toMatchObject({
      field: 'public',
    });
    expect(refusal(await call('admin', 'PUT', `/api/courses/${ids.rx}`, { ...fields, audience: audience(ids.nurse) }))).toMatchObject({
      field: 'audience.professionIds',
    });
    // A copy is saved like any course.
    expect((await call('admin', 'POST', `/api/courses/${ids.rx}/duplicate`)).statusCode).toBe(201);
  });

  it('type 4 (certified): credit points and a certificate before publishing; a type change of a published course re-runs the rules', async () => {
    const noPoints = idOf(await create({ type: 4, creditPoints: 0 }));
    await article(noPoints);
    expect(refusal(await call('admin', 'POST', `/api/courses/${noPoints}/publish`))).toEqual({
      status: 422,
      code: '422',
      field: 'creditPoints',
      message: CERTIFIED_NO_POINTS,
    });
    const noCertificate = idOf(await create({ type: 4, certificateEnabled: false }));
    await article(noCertificate);
    expect(refusal(await call('admin', 'POST', `/api/courses/${noCertificate}/publish`))).toMatchObject({
      field: 'certificateEnabled',
      message: CERTIFIED_NO_CERTIFICATE,
    });

    const professional = idOf(await create({ type: 3, creditPoints: 0, public: true }));
    await article(professional);
    expect((await call('admin', 'POST', `/api/courses/${professional}/publish`)).statusCode).toBe(200);
    const fields = ((await call('admin', 'GET', `/api/courses/${professional}`)).json() as { fields: Record<string, unknown> }).fields;
    expect(refusal(await call('admin', 'PUT', `/api/courses/${professional}`, { ...fields, type: 4 }))).toMatchObject({ field: 'creditPoints' });
    expect(refusal(await call('admin', 'PUT', `/api/courses/${professional}`, { ...fields, type: 1 }))).toMatchObject({ field: 'public' });
    expect((await call('admin', 'PUT', `/api/courses/${professional}`, { ...fields, type: 4, creditPoints: 2 })).statusCode).toBe(200);
  });

  it('type 5 (informative): no credit points, no certificate, no points block, and no quiz needed', async () => {
    expect(refusal(await create({ type: 5, certificateEnabled: false }))).toEqual({
      status: 422,
      code: '422',
      field: 'creditPoints',
      message: INFORMATIVE_POINTS,
    });
    expect(refusal(await create({ type: 5, creditPoints: 0 }))).toMatchObject({ field: 'certificateEnabled', message: INFORMATIVE_CERTIFICATE });
    const informative = idOf(await create({ type: 5, title: 'Informativno', creditPoints: 0, certificateEnabled: false, public: true }));
    expect(refusal(await call('admin', 'POST', `/api/courses/${informative}/blocks`, { block: { kind: 'points', name: 'Točke', points: 1 } }))).toEqual({
      status: 422,
      code: '422',
      field: 'kind',
      message: INFORMATIVE_POINTS_BLOCK,
    });
    await article(informative);
    expect((await call('admin', 'POST', `/api/courses/${informative}/publish`)).statusCode).toBe(200);
    // Lacking a quiz is no gap for publishing it.
    const list = (await call('admin', 'GET', '/api/courses?search=Informativno')).json() as { items: { id: number; gaps: string[] }[] };
    expect(list.items.find((c) => c.id === informative)?.gaps).not.toContain('quiz');
    expect(list.items.find((c) => c.id === informative)?.gaps).toContain('video');
  });

  it('types 2 (OTC) and 3 (professional): the general rules only, public allowed', async () => {
    for (const type of [2, 3]) {
      const id = idOf(await create({ type, public: true, creditPoints: 0, certificateEnabled: false }));
      await article(id);
      expect((await call('admin', 'POST', `/api/courses/${id}/publish`)).statusCode).toBe(200);
    }
  });

  it('keeps an RX course from a non-prescribing profession in the list, by id, in news and on the public list', async () => {
    expect(await listed('zdravnik')).toContain(ids.rx);
    expect(await listed('sestra')).not.toContain(ids.rx);
    expect((await call('zdravnik', 'GET', `/api/user-courses/${ids.rx}`)).statusCode).toBe(200);
    for (const url of [`/api/user-courses/${ids.rx}`, `/api/block?course_id=${ids.rx}`, `/api/record?course_id=${ids.rx}`]) {
      expect((await call('sestra', 'GET', url)).statusCode, url).toBe(404);
    }
    expect((await call('sestra', 'POST', `/api/user-courses/${ids.rx}/start`)).statusCode).toBe(404);
    // The participants tab's live count of an RX audience counts only whom it reaches.
    const count = async (type?: number) =>
      (
        (
          await call('admin', 'POST', '/api/courses/audience-count', { public: false, audience: audience(ids.doctor, ids.nurse), ...(type ? { type } : {}) })
        ).json() as {
          count: number;
        }
      ).count;
    expect(await count()).toBe(2);
    expect(await count(1)).toBe(1);

    // A news item for everyone that links the course reaches only who may receive the course.
    const now = Date.now();
    const news = await call('admin', 'POST', '/api/news', {
      title: 'Novo izobraževanje o antikoagulantih',
      htmlContent: `<p>Preberite <a href="/izobrazevanja/${ids.rx}">novo izobraževanje</a>.</p>`,
      actionUrl: `/izobrazevanja/${ids.rx}`,
      actionButtonText: 'Odpri',
      active: true,
      dateFrom: new Date(now - 60_000).toISOString(),
      dateTo: new Date(now + 86_400_000).toISOString(),
    });
    expect(news.statusCode, news.body).toBe(201);
    expect((await call('sestra', 'GET', '/api/news/user?location=1')).statusCode).toBe(204);
    expect((await call('zdravnik', 'GET', '/api/news/user?location=1')).json()).toMatchObject({ id: idOf(news) });
    expect((await call('sestra', 'PUT', `/api/news/${idOf(news)}/user/stats`, { action: 1 })).statusCode).toBe(404);

    // An RX course made public before the rule existed (written as the platform wrote it then) reaches nobody, and no partner site.
    const legacy = 990_001;
    const fields = courseRule.parse({ ...base, type: 1, title: 'Staro javno Rx', public: true });
    const appended = await p.store.append(
      `course-${legacy}`,
      [
        {
          eventId: randomUUID(),
          type: 'CourseCreated',
          data: { courseId: legacy, fields },
          metadata: {},
        },
        {
          eventId: randomUUID(),
          type: 'CourseBlockAdded',
          data: { blockId: 990_001, position: 0, block: { kind: 'article', name: 'A', html: '<p>x</p>' } },
          metadata: {},
        },
        { eventId: randomUUID(), type: 'CoursePublished', data: {}, metadata: {} },
      ],
      { expectedRevision: 'no_stream' },
    );
    await p.settleAll(appended.position);
    for (const who of ['zdravnik', 'sestra']) {
      expect(await listed(who)).not.toContain(legacy);
      expect((await call(who, 'GET', `/api/user-courses/${legacy}`)).statusCode).toBe(404);
    }
    const publicList = (await p.app.inject({ method: 'GET', url: '/api/public-courses' })).json() as { items: { id: number }[] };
    expect(publicList.items.map((c) => c.id)).not.toContain(legacy);
    // It can still be taken down.
    expect((await call('admin', 'POST', `/api/courses/${legacy}/unpublish`)).statusCode).toBe(200);
  });

  it('mails a notification of an RX course only to prescribing professions', async () => {
    const sent = await call('admin', 'POST', `/api/courses/${ids.rx}/notifications`, { subject: 'Rx obvestilo', message: 'Nova poglavja.' });
    expect(sent.statusCode, sent.body).toBe(202);
    await smtp.waitFor('zdravnik@test.si', /Rx obvestilo/);
    await smtp.waitFor('farmacevt@test.si', /Rx obvestilo/);
    // The mail jobs are done once both arrived; give a stray third one a moment to show.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(
      smtp.received
        .filter((m) => m.subject === 'Rx obvestilo')
        .map((m) => m.to)
        .sort(),
    ).toEqual(['farmacevt@test.si', 'zdravnik@test.si']);
  });

  it('puts the RX label on the certificate', async () => {
    const blocks = (await call('zdravnik', 'GET', `/api/block?course_id=${ids.rx}`)).json() as { items: { id: number }[] };
    expect((await call('zdravnik', 'POST', `/api/user-courses/${ids.rx}/start`)).statusCode).toBe(200);
    expect((await call('zdravnik', 'POST', `/api/user-courses/${ids.rx}/blocks/${blocks.items[0]?.id}/open`)).json()).toMatchObject({ completed: true });
    const pdf = await call('zdravnik', 'GET', `/api/user-courses/${ids.rx}/certificate`);
    expect(pdf.statusCode).toBe(200);
    expect((await pdfText(pdf.rawPayload)).replace(/\s+/g, ' ')).toContain(RX_LABEL);
  });

  it('takes the course away when the profession loses its flag or the person changes profession, enrolled or not, and gives it back', async () => {
    expect((await call('farmacevt', 'POST', `/api/user-courses/${ids.rx}/start`)).statusCode).toBe(200);
    ids.rx2 = idOf(await create({ type: 1, title: 'Druga Rx', audience: audience(ids.doctor, ids.pharmacist) }));
    await article(ids.rx2);
    expect((await call('admin', 'POST', `/api/courses/${ids.rx2}/publish`)).statusCode).toBe(200);
    const unflag = await call('admin', 'PUT', `/api/professions/${ids.pharmacist}`, profession('Magister farmacije', false));
    expect(unflag.statusCode).toBe(200);
    expect(await listed('farmacevt')).not.toContain(ids.rx);
    expect((await call('farmacevt', 'GET', `/api/user-courses/${ids.rx}`)).statusCode).toBe(404);
    expect((await call('farmacevt', 'GET', `/api/block?course_id=${ids.rx}`)).statusCode).toBe(404);
    // A notification now goes to the doctor only (of a second course: a course writes at most every 10 minutes).
    const sent = await call('admin', 'POST', `/api/courses/${ids.rx2}/notifications`, { subject: 'Drugo Rx obvestilo', message: 'Še ena novost.' });
    expect(sent.statusCode, sent.body).toBe(202);
    await smtp.waitFor('zdravnik@test.si', /Drugo Rx obvestilo/);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(smtp.received.filter((m) => m.subject === 'Drugo Rx obvestilo').map((m) => m.to)).toEqual(['zdravnik@test.si']);
    // Nor can the course be published again for that profession.
    expect((await call('admin', 'POST', `/api/courses/${ids.rx}/unpublish`)).statusCode).toBe(200);
    expect(refusal(await call('admin', 'POST', `/api/courses/${ids.rx}/publish`))).toMatchObject({ message: rxProfessionRefused('Magister farmacije') });

    await call('admin', 'PUT', `/api/professions/${ids.pharmacist}`, profession('Magister farmacije', true));
    expect((await call('admin', 'POST', `/api/courses/${ids.rx}/publish`)).statusCode).toBe(200);
    expect(await listed('farmacevt')).toContain(ids.rx);

    // The doctor becomes a nurse: the course, completed or not, is gone.
    await call('zdravnik', 'PUT', '/api/users/me', { firstName: 'Test', lastName: 'zdravnik', phone: '041 000 000', professionId: ids.nurse });
    expect(await listed('zdravnik')).not.toContain(ids.rx);
    expect((await call('zdravnik', 'GET', `/api/user-courses/${ids.rx}`)).statusCode).toBe(404);
  });
});
