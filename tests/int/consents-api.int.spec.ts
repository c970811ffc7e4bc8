import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSENT_TEXTS } from '../../domain/consents/consent.rules.ts';
import { ROLE } from '../../domain/permissions/roles.ts';
import { pdfText } from '../support/pdf-text.ts';
import { startTestPlatform, type TestPlatform } from '../support/test-platform.ts';

type Errors = { errors: { code: string; message: string; field: string | null }[] };

describe('consents API: required consents, history, auditors, tamper evidence', () => {
  let p: TestPlatform;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};
  let lastPosition: string | null = null;

  /** Sends X-Min-Position after a write, as the UI's API client does. */
  const call = async (who: string, method: 'GET' | 'POST', url: string, payload?: object, headers: Record<string, string> = {}) => {
    const response = await p.app.inject({
      method,
      url,
      headers: {
        authorization: `JWT ${tokens[who]}`,
        'user-agent': 'Vitest/1.0 (Linux)',
        ...(lastPosition ? { 'x-min-position': lastPosition } : {}),
        ...headers,
      },
      ...(payload ? { payload } : {}),
    });
    const position = response.headers['x-event-position'];
    if (typeof position === 'string') lastPosition = position;
    return response;
  };
  const allRequired = CONSENT_TEXTS.map((t) => ({ type: t.type, textVersion: t.version }));
  const eventsOf = async (userId: number) => (await p.store.readStream(`consent-${userId}`)).events;

  beforeAll(async () => {
    p = await startTestPlatform();
    ids.admin = await p.createUser('skrbnik', [{ roleId: ROLE.admin, unitId: 0, companyId: null }]);
    ids.auditor = await p.createUser('revizor', [{ roleId: ROLE.auditor, unitId: 0, companyId: null }]);
    ids.nov = await p.createUser('nov', [{ roleId: ROLE.participant, unitId: 1, companyId: null }], undefined, { consents: false });
    ids.ana = await p.createUser('ana', [{ roleId: ROLE.participant, unitId: 1, companyId: null }]);
    for (const who of ['skrbnik', 'revizor', 'nov', 'ana']) tokens[who] = (await p.login(who)).token;
  });

  afterAll(async () => p.close());

  it('answers 403 with code 422086 on protected routes to a user lacking required consents; /users/me, the consent routes and logout stay open', async () => {
    for (const url of ['/api/user-courses', '/api/academies/1', `/api/record?course_id=1`]) {
      const refused = await call('nov', 'GET', url);
      expect(refused.statusCode, url).toBe(403);
      expect((refused.json() as Errors).errors[0]?.code, url).toBe('422086');
    }
    const me = (await call('nov', 'GET', '/api/users/me')).json() as { missingConsents: number[]; consents: unknown[] };
    expect(me).toMatchObject({ missingConsents: [1, 2, 3, 4], consents: [] });
    const mine = (await call('nov', 'GET', '/api/users/me/consents')).json() as { missing: number[]; texts: { type: number; version: string }[] };
    expect(mine.missing).toEqual([1, 2, 3, 4]);
    expect(mine.texts.map((t) => t.type)).toEqual([1, 2, 3, 4]);
    // A user holding them is not stopped.
    expect((await call('ana', 'GET', '/api/user-courses')).statusCode).toBe(200);
  });

  it('refuses bad input with a Slovenian message and records nothing', async () => {
    const bad = async (payload: object) => (await call('nov', 'POST', '/api/users/me/consents', payload)).json() as Errors;
    expect((await bad({ consents: [{ type: 5, textVersion: '2026-01' }] })).errors[0]?.message).toBe('Vrsta privolitve mora biti število med 1 in 4.');
    expect((await bad({ consents: [] })).errors[0]?.message).toBe('Izberite vsaj eno privolitev.');
    const outdated = await call('nov', 'POST', '/api/users/me/consents', { consents: [{ type: 1, textVersion: '2019-01' }] });
    expect(outdated.statusCode).toBe(409);
    expect((outdated.json() as Errors).errors[0]?.message).toContain('Besedilo privolitve je bilo medtem posodobljeno');
    expect((await call('nov', 'POST', '/api/users/me/consents/9/withdraw')).statusCode).toBe(400);
    expect(await eventsOf(ids.nov as number)).toEqual([]);
  });

  it('lets the user in as soon as they gave every required consent (the next request waits for the read model)', async () => {
    const given = await call('nov', 'POST', '/api/users/me/consents', { consents: allRequired });
    expect(given.statusCode).toBe(200);
    expect((given.json() as { changed: number[] }).changed).toEqual([1, 2, 3, 4]);
    expect((await call('nov', 'GET', '/api/user-courses')).statusCode).toBe(200);
    const events = await eventsOf(ids.nov as number);
    expect(events.map((e) => e.type)).toEqual(['ConsentGiven', 'ConsentGiven', 'ConsentGiven', 'ConsentGiven']);
    expect(events[0]?.data).toMatchObject({ consentType: 1, textVersion: '2026-01', channel: 'web', userAgent: 'Vitest/1.0 (Linux)', onBehalfOf: null });
    expect((events[0]?.data as { ip: string } | undefined)?.ip ?? '').toBeTruthy();
  });

  it('sends the user back to the consents when one is withdrawn', async () => {
    expect((await call('nov', 'POST', '/api/users/me/consents/4/withdraw')).statusCode).toBe(200);
    const refused = await call('nov', 'GET', '/api/user-courses');
    expect((refused.json() as Errors).errors[0]?.code).toBe('422086');
    expect(((await call('nov', 'GET', '/api/users/me')).json() as { missingConsents: number[] }).missingConsents).toEqual([4]);
    expect((await call('nov', 'POST', '/api/users/me/consents/4/withdraw')).statusCode).toBe(422);
  });

  it("lets an admin record a consent on the user's behalf only with a note, and not a participant or an auditor", async () => {
    const url = `/api/users/${ids.nov}/consents`;
    const noNote = await call('skrbnik', 'POST', url, { action: 'give', type: 4, note: '' });
    expect((noNote.json() as Errors).errors[0]).toMatchObject({ field: 'note' });
    expect((await call('ana', 'POST', url, { action: 'give', type: 4, note: 'Pisna privolitev' })).statusCode).toBe(403);
    expect((await call('revizor', 'POST', url, { action: 'give', type: 4, note: 'Pisna privolitev' })).statusCode).toBe(403);
    const given = await call('skrbnik', 'POST', url, { action: 'give', type: 4, note: 'Pisna privolitev z dne 3. 3. 2026' });
    expect(given.statusCode).toBe(200);
    const last = (await eventsOf(ids.nov as number)).at(-1);
    expect(last?.data).toMatchObject({ consentType: 4, channel: 'admin', onBehalfOf: { adminId: ids.admin, note: 'Pisna privolitev z dne 3. 3. 2026' } });
    expect((await call('nov', 'GET', '/api/user-courses')).statusCode).toBe(200);
  });

  it('shows the auditor the timeline and the standing as of any instant, replayed from the events', async () => {
    const events = await eventsOf(ids.nov as number);
    const withdrawnAt = (events[4]?.data as { at: string } | undefined)?.at ?? '';
    const before = new Date(Date.parse(withdrawnAt) - 1).toISOString();
    type History = {
      standing: { type: number; given: boolean }[];
      timeline: { action: string; recordedBy: { name: string } | null }[];
      verification: { valid: boolean };
    };
    const now = (await call('revizor', 'GET', `/api/users/${ids.nov}/consents/history`)).json() as History;
    expect(now.timeline.map((t) => t.action)).toEqual(['given', 'given', 'given', 'given', 'withdrawn', 'given']);
    expect(now.timeline.at(-1)?.recordedBy?.name).toBe('Test skrbnik');
    expect(now.verification.valid).toBe(true);
    const asOf = async (at: string) =>
      ((await call('revizor', 'GET', `/api/users/${ids.nov}/consents/history?asOf=${encodeURIComponent(at)}`)).json() as History).standing.find(
        (s) => s.type === 4,
      )?.given;
    expect(await asOf(before)).toBe(true);
    expect(await asOf(withdrawnAt)).toBe(false);
    expect(await asOf('2000-01-01T00:00:00Z')).toBe(false);
    expect((await call('revizor', 'GET', `/api/users/${ids.nov}/consents/history?asOf=včeraj`)).statusCode).toBe(400);
    expect((await call('ana', 'GET', `/api/users/${ids.nov}/consents/history`)).statusCode).toBe(403);
    expect((await call('revizor', 'GET', '/api/consents/users?search=nov')).json()).toEqual({
      items: [{ id: ids.nov, fullName: 'Test nov', username: 'nov', email: 'nov@test.si' }],
    });
  });

  it('answers "may we contact" from the history, per channel and time', async () => {
    const events = await eventsOf(ids.nov as number);
    const withdrawnAt = Date.parse((events[4]?.data as { at: string } | undefined)?.at ?? '');
    const regivenAt = Date.parse((events[5]?.data as { at: string } | undefined)?.at ?? '');
    const ask = async (at: number) =>
      (await call('revizor', 'GET', `/api/users/${ids.nov}/consents/contact?channel=newsletter&at=${new Date(at).toISOString()}`)).json();
    expect(await ask(withdrawnAt)).toEqual({ allowed: false, missing: [4] });
    expect(await ask(regivenAt)).toEqual({ allowed: true, missing: [] });
  });

  it('exports the history as xlsx that reads back, and as PDF with Slovenian text', async () => {
    const xlsx = await call('revizor', 'GET', `/api/users/${ids.nov}/consents/history.xlsx`);
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const history = book.getWorksheet('Zgodovina');
    const rows = (history?.getSheetValues() ?? []).filter(Boolean) as unknown[][];
    expect(rows.length).toBe(7);
    expect(rows[5]?.slice(1, 6)).toEqual([5, expect.any(String), 'Preklicana', 4, 'Obveščanje']);
    expect(rows[6]?.[10]).toBe('Test skrbnik');
    expect(rows[6]?.[11]).toBe('Pisna privolitev z dne 3. 3. 2026');
    const standing = book.getWorksheet('Stanje');
    expect(String(standing?.getCell('A1').value)).toContain('Test nov');
    const pdf = await call('revizor', 'GET', `/api/users/${ids.nov}/consents/history.pdf`);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain('Zgodovina privolitev');
    expect(text).toContain('Izjava strokovnega delavca v zdravstvu');
    expect(text).toContain('Veriga je nedotaknjena');
  });

  it('shows the chain broken at the event an attacker altered in the database', async () => {
    const verify = async () =>
      (await call('revizor', 'GET', `/api/users/${ids.nov}/consents/verify`)).json() as {
        valid: boolean;
        broken: { index: number; message: string } | null;
      };
    expect((await verify()).valid).toBe(true);
    // Turn the withdrawal (the 5th event) into a consent, straight in the event store.
    await p.db.pg.query(
      `update es.appends set data[k] = jsonb_set(data[k]::jsonb, '{textVersion}', '"2025-01"')::json, event_types[k] = 'ConsentGiven'
         from (select 4 - first_revision + 1 as k, transaction_id as tx, global_position as gp from es.appends
                where stream_name = $1 and first_revision <= 4 and first_revision + cardinality(event_ids) > 4) e
        where transaction_id = e.tx and global_position = e.gp`,
      [`consent-${ids.nov}`],
    );
    const result = await verify();
    expect(result.valid).toBe(false);
    expect(result.broken?.index).toBe(4);
    expect(result.broken?.message).toContain('Veriga je prekinjena pri dogodku št. 5');
    const history = (await call('revizor', 'GET', `/api/users/${ids.nov}/consents/history`)).json() as { verification: { valid: boolean } };
    expect(history.verification.valid).toBe(false);
  });
  it('keeps one valid chain under concurrent gives and withdrawals of one user: no lost, duplicated or forked event', async () => {
    const userId = await p.createUser('socasni', [{ roleId: ROLE.participant, unitId: 1, companyId: null }]);
    tokens['socasni'] = (await p.login('socasni')).token;
    const url = (i: number) => (i % 2 === 0 ? '/api/users/me/consents/4/withdraw' : '/api/users/me/consents');
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        p.app.inject({
          method: 'POST',
          url: url(i),
          headers: { authorization: `JWT ${tokens['socasni']}` },
          ...(i % 2 === 0 ? {} : { payload: { consents: [{ type: 4, textVersion: '2026-01' }] } }),
        }),
      ),
    );
    const events = (await p.store.readStream(`consent-${userId}`)).events;
    // Each accepted command wrote exactly the events it reported; the rest were no-ops or refusals (withdrawing what is not given).
    const written = results.reduce((n, r) => n + (r.statusCode === 200 ? (r.json() as { changed: number[] }).changed.length : 0), 0);
    expect(events.length).toBe(4 + written);
    expect(events.map((e) => (e.data as { sequence: number }).sequence)).toEqual(events.map((_, i) => i));
    // Given and withdrawn alternate for type 4: no two gives or two withdrawals in a row.
    const type4 = events.filter((e) => (e.data as { consentType: number }).consentType === 4).map((e) => e.type);
    for (let i = 1; i < type4.length; i++) expect(type4[i]).not.toBe(type4[i - 1]);
    expect(((await call('revizor', 'GET', `/api/users/${userId}/consents/verify`)).json() as { valid: boolean }).valid).toBe(true);
  });
});
