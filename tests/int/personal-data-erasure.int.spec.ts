import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { giveRequiredConsents } from '../../application/consents/consents.ts';
import { registerUser } from '../../application/users/register-user.ts';
import { ROLE } from '../../domain/permissions/roles.ts';
import { type AllPosition, formatPosition, parsePosition } from '../../infrastructure/event-store/event-store.port.ts';
import { silentLog } from '../../infrastructure/logging/log.port.ts';
import { PROJECTIONS } from '../../infrastructure/main/platform.ts';
import { protectExistingEvents } from '../../infrastructure/personal-data/protect-existing-events.ts';
import { appendSteps, enrollmentStream, type Step } from '../support/enrollment-steps.ts';
import { startTestPlatform, TEST_PASSWORD, type TestPlatform } from '../support/test-platform.ts';

/**
 * Erasure by crypto-shredding (issue 14 item 7, decision 0019): the log keeps every event, the
 * person's data becomes unreadable, every read model rebuilt from the log holds none of it, and the
 * statistics (NPS, success, costs) come out the same.
 */
describe('erasing a person (crypto-shredding)', () => {
  let p: TestPlatform;
  const tokens: Record<string, string> = {};
  let last: AllPosition | null = null;
  let erika: number;
  let other: number;
  let courseId: number;
  let quizBlock: number;
  let npsBlock: number;

  // What the platform holds of Erika only: none of it may be readable anywhere once she is erased.
  const ERIKA = {
    username: 'erikabrisana',
    email: 'erika.brisana@zasebno.si',
    secondaryEmail: 'erika.druga@zasebno.si',
    firstName: 'Erikaunikat',
    lastName: 'Brisanovič',
    phone: '+386 41 555 123',
    licenceNumber: 'LQ7Z9',
    chamberMembershipNumber: 'ZB-445566',
    notes: 'Opomba o Eriki',
  };
  const NPS_COMMENT = 'Erikin povsem oseben komentar';
  const POST_TEXT = 'Erikino vprašanje o zdravilu';

  const call = async (who: string | null, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => {
    const response = await p.app.inject({
      method,
      url,
      headers: { ...(who ? { authorization: `JWT ${tokens[who]}` } : {}), ...(last ? { 'x-min-position': formatPosition(last) } : {}) },
      ...(payload ? { payload } : {}),
    });
    const position = response.headers['x-event-position'];
    if (typeof position === 'string') last = parsePosition(position);
    return response;
  };
  const append = async (stream: string, events: Step[]) => {
    last = await appendSteps(p.store, stream, events);
  };
  const journey = (user: number, score: number, comment: string | null, passed: boolean) =>
    append(enrollmentStream(courseId, user), [
      { type: 'CourseStarted', data: { courseId, userId: user } },
      passed
        ? { type: 'QuizPassed', data: { blockId: quizBlock, attempt: 1, score: 100, threshold: 100 } }
        : { type: 'QuizFailed', data: { blockId: quizBlock, attempt: 1, score: 0, threshold: 100, retriesLeft: 1 } },
      { type: 'NpsAnswered', data: { blockId: npsBlock, score, reasons: [], comment, followUps: [] } },
    ]);
  const statistics = async () => {
    const json = async (url: string) => {
      const response = await call('admin', 'GET', url);
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as Record<string, unknown>;
    };
    const nps = await json(`/api/courses/${courseId}/nps/${npsBlock}/overview`);
    const success = await json(`/api/courses/${courseId}/success`);
    const costs = await json(`/api/courses/${courseId}/costs`);
    // The figures, not the moment they were asked at, nor the comments (hers reads as the placeholder now).
    const figures = (value: unknown) => JSON.parse(JSON.stringify(value, (key, v) => (key === 'window' || key === 'comment' ? undefined : v)));
    return figures({ nps, success: success.success, costs: costs.figures });
  };
  /** Someone new with Erika's username and e-mail. */
  const newcomer = () => ({
    ...ERIKA,
    secondaryEmail: null,
    middleName: null,
    professionId: null,
    otherJob: null,
    notes: null,
    sendWelcome: false,
    roles: [],
  });
  /** What the planner's statistics of every table sample (most common values, histogram bounds), as text. */
  const plannerSamples = async () =>
    (
      await p.db.pg.query<{ row: string }>(
        `select schemaname || '.' || tablename || '.' || attname || ': ' || coalesce(most_common_vals::text, '') || ' ' || coalesce(histogram_bounds::text, '') as row
           from pg_stats where schemaname not in ('pg_catalog', 'information_schema')`,
      )
    ).rows.map((r) => r.row);
  /**
   * The bytes of this database's files on disk after a checkpoint (dead rows included), where the
   * server's data directory is readable from here (the embedded server of the tests); null elsewhere.
   */
  const filesOnDisk = async () => {
    const where = await p.db.pg.query<{ dir: string; oid: string }>(
      `select current_setting('data_directory') as dir, (select oid::text from pg_database where datname = current_database()) as oid`,
    );
    const folder = join(where.rows[0]?.dir as string, 'base', where.rows[0]?.oid as string);
    await p.db.pg.query('checkpoint');
    const names = await readdir(folder).catch(() => null);
    if (names === null) return null;
    const found: string[] = [];
    for (const name of names) {
      const bytes = await readFile(join(folder, name)).catch(() => null);
      if (!bytes) continue;
      for (const value of [ERIKA.username, ERIKA.email, ERIKA.firstName, ERIKA.lastName, ERIKA.phone, ERIKA.licenceNumber, ERIKA.chamberMembershipNumber]) {
        if (bytes.includes(Buffer.from(value, 'utf8'))) found.push(`${name}: ${value}`);
      }
    }
    return found;
  };
  /** Every row of every read model and of the mail outbox, as text. */
  const everyRow = async () => {
    const tables = await p.db.pg.query<{ schema: string; name: string }>(
      `select table_schema as schema, table_name as name from information_schema.tables
        where table_type = 'BASE TABLE' and (table_schema like 'rm\\_%' or (table_schema = 'public' and table_name = 'mail_outbox'))`,
    );
    const rows: string[] = [];
    for (const table of tables.rows) {
      const result = await p.db.pg.query<{ row: string }>(`select row_to_json(t)::text as row from "${table.schema}"."${table.name}" t`);
      rows.push(...result.rows.map((r) => `${table.schema}.${table.name}: ${r.row}`));
    }
    return rows;
  };
  const mentionsOfErika = (rows: readonly string[]) =>
    rows.filter((row) => [...Object.values(ERIKA), NPS_COMMENT, POST_TEXT].some((value) => row.toLowerCase().includes(value.toLowerCase())));

  beforeAll(async () => {
    p = await startTestPlatform();
    await p.createUser('skrbnik', [{ roleId: ROLE.admin, unitId: 0, companyId: null }]);
    tokens.admin = (await p.login('skrbnik')).token;
    const company = (await call('admin', 'POST', '/api/companies', { name: 'Lekarne Brisanje', address: 'Cesta 1' })).json() as { id: number };
    const unit = (await call('admin', 'POST', '/api/units', { name: 'Enota Brisanje', companyId: company.id })).json() as { id: number };
    // Registered with a password, then given every field by an admin.
    const roles = [{ roleId: ROLE.participant, unitId: unit.id, companyId: company.id }];
    erika = await p.createUser(ERIKA.username, roles);
    const edited = await call('admin', 'PUT', `/api/users/${erika}`, { ...ERIKA, middleName: null, professionId: null, otherJob: null, roles });
    expect(edited.statusCode, edited.body).toBe(200);
    // Mail kept in the demo's outbox, to her first address and to today's.
    for (const to of [`${ERIKA.username}@test.si`, ERIKA.email]) {
      await p.db.pg.query(
        "insert into public.mail_outbox (id, recipient, subject, text_body, html_body) values (gen_random_uuid(), $1, 'Dobrodošli', $2, '')",
        [to, `Pozdravljeni, ${ERIKA.firstName}!`],
      );
    }
    other = await p.createUser('ostala', [{ roleId: ROLE.participant, unitId: unit.id, companyId: company.id }]);

    courseId = (
      (
        await call('admin', 'POST', '/api/courses', {
          type: 3,
          title: 'Tečaj za brisanje',
          description: 'Izobraževanje za preverjanje brisanja.',
          cover: '/c.svg',
          creditPoints: 1,
          audience: { companyIds: [company.id] },
        })
      ).json() as { id: number }
    ).id;
    const block = async (body: object) => ((await call('admin', 'POST', `/api/courses/${courseId}/blocks`, { block: body })).json() as { id: number }).id;
    quizBlock = await block({
      kind: 'quiz',
      name: 'Kviz',
      batchSize: 1,
      successThreshold: 100,
      retries: 1,
      questions: [
        {
          id: 'q',
          text: 'Da?',
          answers: [
            { id: 'a', text: 'Da', correct: true },
            { id: 'b', text: 'Ne' },
          ],
        },
      ],
    });
    npsBlock = await block({
      kind: 'nps',
      name: 'NPS',
      question: 'Priporočili?',
      set: 1,
      reasons: { detractor: [], neutral: [], promoter: [] },
      commentEnabled: true,
    });
    await journey(erika, 10, NPS_COMMENT, true);
    await journey(other, 3, 'Komentar druge udeleženke', false);
    await append('post-900001', [
      { type: 'PostCreated', data: { postId: 900001, courseId, parentId: null, authorId: erika, message: POST_TEXT, anonymous: false } },
    ]);
    await p.settleAll(last);
  });

  afterAll(async () => p.close());

  it('never writes her data to the log in the clear: fields are encrypted, claim streams are named by a keyed hash', async () => {
    const events = await p.db.pg.query<{ text: string }>("select stream_name || ' ' || data::text as text from es.events");
    const streams = await p.db.pg.query<{ name: string }>('select stream_name as name from es.streams');
    const all = [...events.rows.map((r) => r.text), ...streams.rows.map((r) => r.name)];
    expect(mentionsOfErika(all)).toEqual([]);
    // Yet every reader of the platform sees her as she is.
    const page = (await call('admin', 'GET', `/api/users/${erika}`)).json() as Record<string, unknown>;
    expect(JSON.stringify(page)).toContain(ERIKA.firstName);
    // Her username and e-mail are found through the hashed claim streams: taken for anyone else.
    expect((await p.login(ERIKA.email)).token).toBeTruthy();
    const taken = await call('admin', 'POST', '/api/users', { ...newcomer(), email: 'nekdo@drugje.si' });
    expect(taken.json()).toMatchObject({ errors: [expect.objectContaining({ code: '422013', field: 'username' })] });
    const takenEmail = await call('admin', 'POST', '/api/users', { ...newcomer(), username: 'nekdodrug' });
    expect(takenEmail.json()).toMatchObject({ errors: [expect.objectContaining({ code: '422005', field: 'email' })] });
  });

  it('erases her: the login goes, the username is free, a rebuild of every read model holds none of her data, and the statistics are unchanged', async () => {
    const before = await statistics();
    expect(mentionsOfErika(await everyRow()).length).toBeGreaterThan(0);
    // The planner's statistics sample her too, as autovacuum's ANALYZE would have by now.
    await p.db.pg.query('analyze');
    expect(mentionsOfErika(await plannerSamples()).length).toBeGreaterThan(0);

    // Only with 1007, never one's own.
    tokens.other = (await p.login('ostala')).token;
    expect((await call('other', 'DELETE', `/api/users/${erika}/personal-data`)).statusCode).toBe(403);
    // Another admin's account only once its admin role is gone.
    const secondAdmin = await p.createUser('skrbnica2', [{ roleId: ROLE.admin, unitId: 0, companyId: null }]);
    expect((await call('admin', 'DELETE', `/api/users/${secondAdmin}/personal-data`)).json()).toEqual({
      errors: [{ code: '409', message: 'Računa skrbnika ni mogoče izbrisati: najprej mu odvzemite vlogo skrbnika.', field: null }],
    });
    expect((await p.login('skrbnica2')).token).toBeTruthy();
    const erased = await call('admin', 'DELETE', `/api/users/${erika}/personal-data`);
    expect(erased.statusCode, erased.body).toBe(200);
    expect(erased.json()).toEqual({ id: erika, mailForgotten: 2 });
    await p.settleAll(last);

    // At once: the users read model shows the placeholder and she cannot log in.
    const page = (await call('admin', 'GET', `/api/users/${erika}`)).json() as Record<string, unknown>;
    expect(JSON.stringify(page)).not.toContain(ERIKA.firstName);
    expect(JSON.stringify(page)).toContain('izbrisan uporabnik');
    await expect(p.login(ERIKA.username)).rejects.toThrow(/login failed: 401/);
    await expect(p.login(ERIKA.email)).rejects.toThrow(/login failed: 401/);
    // Erasure is for good: the account does not come back.
    expect((await call('admin', 'POST', `/api/users/${erika}/reactivate`)).statusCode).toBe(409);
    // Asking again finishes nothing new and fails nothing.
    expect((await call('admin', 'DELETE', `/api/users/${erika}/personal-data`)).statusCode).toBe(200);

    // Every read model lets go of her at once, before any rebuild.
    expect(mentionsOfErika(await everyRow())).toEqual([]);
    // No sample of the planner's statistics and no dead row on disk keeps her (issue 32 item 3, decision 0051).
    expect(mentionsOfErika(await plannerSamples())).toEqual([]);
    const onDisk = await filesOnDisk();
    if (onDisk !== null) expect(onDisk).toEqual([]);
    for (const projection of PROJECTIONS) await p.runner.rebuild(projection.name);
    const rows = await everyRow();
    expect(mentionsOfErika(rows)).toEqual([]);
    // The others are untouched, and her place in the figures is kept.
    expect(rows.some((row) => row.includes('Komentar druge udeleženke'))).toBe(true);
    expect(await statistics()).toEqual(before);

    // The proof of her consents is kept on purpose (GDPR art. 17(3), issue 32 item 3): the auditor opens
    // it pseudonymised, with its times, types, addresses and browsers, and its chain still verifies.
    const history = await call('admin', 'GET', `/api/users/${erika}/consents/history`);
    expect(history.statusCode, history.body).toBe(200);
    const proof = history.json() as { user: object; timeline: { at: string }[]; verification: { valid: boolean } };
    const pseudonym = `izbrisan uporabnik #${erika}`;
    expect(proof.user).toEqual({ id: erika, fullName: pseudonym, username: pseudonym, email: pseudonym });
    expect(proof.timeline.length).toBeGreaterThan(0);
    expect(proof.verification.valid).toBe(true);
    expect(mentionsOfErika([history.body])).toEqual([]);
    expect((await call('admin', 'GET', `/api/users/${erika}/consents/verify`)).json()).toMatchObject({ valid: true });

    // Her username and e-mail are free for someone new.
    const again = await call('admin', 'POST', '/api/users', newcomer());
    expect(again.statusCode, again.body).toBe(201);
    expect((again.json() as { id: number }).id).not.toBe(erika);
  });

  it('protects what was written before protection existed: one rewrite of the log hashes the claim streams and encrypts the fields, and the person still logs in', async () => {
    // Written the way the platform wrote before decision 0019: plain fields, claim streams named by the value.
    const old = await registerUser(
      { ...p.platform, store: p.unprotectedStore },
      { username: 'starinski', email: 'starinski@star.si', firstName: 'Staroime', lastName: 'Starinič', password: TEST_PASSWORD },
      [],
      { actorId: null },
    );
    const consents = await giveRequiredConsents({ store: p.unprotectedStore, now: () => new Date() }, old.userId, 'import', { actorId: null });
    await p.settleAll(consents.position);
    const plainInLog = async () =>
      (await p.db.pg.query<{ n: string }>("select count(*)::text as n from es.events where data::text like '%Staroime%' or stream_name like '%starinski%'"))
        .rows[0]?.n;
    expect(Number(await plainInLog())).toBeGreaterThan(0);
    // Her claim stream has the old name, which the protected platform no longer asks for.
    await expect(p.login('starinski')).rejects.toThrow(/login failed: 401/);

    await p.db.pg.query('delete from public.personal_data_steps');
    const result = await protectExistingEvents(p.db.pg, p.protection, silentLog);
    expect(result.renamed).toBe(2);
    expect(result.sealed).toBeGreaterThanOrEqual(1);
    expect(Number(await plainInLog())).toBe(0);
    expect((await p.login('starinski')).token).toBeTruthy();
    expect((await p.login('starinski@star.si')).token).toBeTruthy();
    const page = (await call('admin', 'GET', `/api/users/${old.userId}`)).json() as Record<string, unknown>;
    expect(JSON.stringify(page)).toContain('Staroime');
    // Done once: a second start finds nothing left to do.
    expect(await protectExistingEvents(p.db.pg, p.protection, silentLog)).toEqual({ renamed: 0, sealed: 0 });
  });
});
