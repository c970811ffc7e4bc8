import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as XLSX from 'xlsx';
import { ROLE } from '../../domain/permissions/roles.ts';
import type { ReferenceKind } from '../../domain/shared/id.rules.ts';
import { userStream } from '../../domain/users/user.ts';
import { parsePosition } from '../../infrastructure/event-store/event-store.port.ts';
import { undeclaredIdFields } from '../../infrastructure/http/references.ts';
import { newsBody } from '../support/authorization-matrix.ts';
import { PLAIN_PARAMS, pathSlot, queryKeys, querySlot, referenceSlot, type Slot, sampleBody, type TenantIds } from '../support/cross-tenant.ts';
import { pdfText } from '../support/pdf-text.ts';
import { SAMPLE_PNG } from '../support/sample-png.ts';
import { startTestPlatform, TEST_PASSWORD, type TestPlatform } from '../support/test-platform.ts';

/**
 * The generated cross-tenant suite (issue 31 item 6, decision 0047). Two complete companies, A and
 * B, each object named with a marker of its company. For every route of the API, as every role of
 * company A (and a person of no company, and nobody): B's ids in every path parameter, query
 * parameter and body field that takes one, alone and beside A's own. Then: no 2xx answer holds a
 * marker of B (files, PDFs and spreadsheets read as text), no event was appended to a stream of B,
 * no mail was left for a person of B. The routes, their parameters and their body fields come from
 * the route catalogue, so a new route or field is covered without touching this file; a body field
 * that takes an id without declaring it fails the first test.
 */
const MARK = { A: 'MRKA7Q', B: 'MRKB7Q' } as const;
const ROLES = ['manager', 'director', 'accountant', 'client', 'participant'] as const;
type Role = (typeof ROLES)[number];
type Company = { ids: TenantIds; tokens: Record<Role, string>; usernames: Record<Role, string>; emails: string[] };

describe('cross-tenant suite: company A never reaches company B', () => {
  let p: TestPlatform;
  let adminToken: string;
  const companies = {} as Record<'A' | 'B', Company>;
  let streamsOfB: Map<string, number>;
  /** One profession every company shares (the catalogue is the platform's). */
  let nurse: number;

  const send = async (token: string | null, method: string, url: string, payload?: unknown) => {
    const response = await p.app.inject({
      method: method as 'GET',
      url,
      headers: token ? { authorization: `JWT ${token}` } : {},
      ...(payload === undefined ? {} : { payload: payload as object }),
      ...(url.startsWith('/api/live') ? { simulate: { end: true, split: false, error: false, close: false }, payloadAsStream: true } : {}),
    });
    if (url.startsWith('/api/live')) response.stream().destroy();
    return response;
  };
  const admin = async (method: string, url: string, body?: unknown) => {
    const response = await send(adminToken, method, url, body);
    if (response.statusCode >= 300) throw new Error(`fixture: ${method} ${url} answered ${response.statusCode} ${response.body}`);
    const position = response.headers['x-event-position'];
    if (typeof position === 'string') await p.settleAll(parsePosition(position));
    return response.body ? (response.json() as { id: number }) : { id: 0 };
  };
  const as = async (token: string, method: string, url: string, body?: unknown) => {
    const response = await send(token, method, url, body);
    if (response.statusCode >= 300) throw new Error(`fixture as user: ${method} ${url} answered ${response.statusCode} ${response.body}`);
    const position = response.headers['x-event-position'];
    if (typeof position === 'string') await p.settleAll(parsePosition(position));
    return response.body ? (response.json() as Record<string, unknown>) : {};
  };

  /** One company with every role, units, a group, courses with blocks, a file, a comment, news, costs, a report, an export, a certificate. */
  const buildCompany = async (letter: 'A' | 'B'): Promise<Company> => {
    const M = MARK[letter];
    const m = M.toLowerCase();
    const company = (await admin('POST', '/api/companies', { name: `Farma ${M}`, address: `Cesta ${M} 1` })).id;
    const unit = (await admin('POST', '/api/units', { name: `Enota ${M} 1`, companyId: company })).id;
    const unit2 = (await admin('POST', '/api/units', { name: `Enota ${M} 2`, companyId: company })).id;
    for (const u of [unit, unit2]) await admin('POST', `/api/units/${u}/publish`);
    const communityGroup = (await admin('POST', '/api/community-groups', { name: `Skupina ${M}`, unitIds: [unit] })).id;
    const place = (role: Role) =>
      role === 'director'
        ? { roleId: ROLE.director, unitId: 0, companyId: company }
        : { roleId: ROLE[role === 'participant' ? 'participant' : role], unitId: unit, companyId: company };
    const tokens = {} as Record<Role, string>;
    const usernames = {} as Record<Role, string>;
    const userIds = {} as Record<Role, number>;
    for (const role of ROLES) {
      usernames[role] = `${role}${m}`;
      userIds[role] = await p.createUser(usernames[role], [place(role)]);
      tokens[role] = (await p.login(usernames[role])).token;
    }
    const course = (
      await admin('POST', '/api/courses', {
        type: 4,
        title: `Tečaj ${M}`,
        description: `Notranje izobraževanje podjetja ${M}.`,
        cover: '/c.jpg',
        creditPoints: 1,
        postsEnabled: true,
        syncDestination: 1,
        audience: { unitIds: [unit] },
      })
    ).id;
    const block = (await admin('POST', `/api/courses/${course}/blocks`, { block: { kind: 'points', name: `Točke ${M}`, points: 1 } })).id;
    const nps = (
      await admin('POST', `/api/courses/${course}/blocks`, {
        block: { kind: 'nps', name: `Anketa ${M}`, question: `Bi priporočili ${M}?`, set: 1, reasons: { detractor: [], neutral: [], promoter: [] } },
      })
    ).id;
    const file = (
      await p.app.inject({
        method: 'POST',
        url: `/api/files?name=gradivo-${m}.pdf`,
        headers: { authorization: `JWT ${adminToken}`, 'content-type': 'application/pdf' },
        payload: Buffer.from(`%PDF-1.4\n% ${M}\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`),
      })
    ).json() as { id: number };
    await admin('POST', `/api/courses/${course}/attachments`, { fileId: file.id });
    await admin('POST', `/api/courses/${course}/costs`, { companyId: company, comment: `Stroški ${M}` });
    await admin('POST', `/api/courses/${course}/publish`);
    // The unit's signature image: a company's file too.
    const signature = (
      await p.app.inject({
        method: 'POST',
        url: `/api/files?name=podpis-${m}.png`,
        headers: { authorization: `JWT ${adminToken}`, 'content-type': 'image/png' },
        payload: SAMPLE_PNG,
      })
    ).json() as { id: number };
    await admin('PUT', `/api/units/${unit}/signature`, { name: `Podpisnik ${M}`, role: 'Direktor', imageFileId: signature.id });

    // The participant, a nurse, takes the course to its certificate and asks a question.
    const participant = tokens.participant;
    await as(participant, 'PUT', '/api/users/me', { firstName: 'Sestra', lastName: M, phone: '041 000 000', professionId: nurse });
    await as(participant, 'POST', `/api/user-courses/${course}/start`);
    await as(participant, 'POST', `/api/user-courses/${course}/blocks/${block}/open`);
    await as(participant, 'POST', `/api/user-courses/${course}/blocks/${nps}/nps`, { score: 9, reasons: [], comment: `Komentar ${M}` });
    const post = (await as(participant, 'POST', '/api/post', { courseId: course, message: `Vprašanje ${M}` })) as { id: number };

    // The client's own course, for its company.
    const clientCourse = (await as(tokens.client, 'POST', '/api/courses', {
      type: 3,
      title: `Tečaj naročnika ${M}`,
      description: `Izobraževanje naročnika ${M} za podjetje.`,
      cover: '/c.jpg',
      creditPoints: 1,
      audience: { unitIds: [unit] },
    })) as { id: number };
    await as(tokens.client, 'POST', `/api/courses/${clientCourse.id}/blocks`, { block: { kind: 'points', name: `Točke naročnika ${M}`, points: 1 } });
    await as(tokens.client, 'POST', `/api/courses/${clientCourse.id}/publish`);
    // And one for nurses only: the company's nurses, never another company's (decision 0047).
    const nursesCourse = (await as(tokens.client, 'POST', '/api/courses', {
      type: 3,
      title: `Tečaj za sestre ${M}`,
      description: `Izobraževanje naročnika ${M} za medicinske sestre.`,
      cover: '/c.jpg',
      creditPoints: 1,
      audience: { byProfession: true, professionIds: [nurse] },
    })) as { id: number };
    await as(tokens.client, 'POST', `/api/courses/${nursesCourse.id}/blocks`, { block: { kind: 'points', name: `Točke za sestre ${M}`, points: 1 } });
    await as(tokens.client, 'POST', `/api/courses/${nursesCourse.id}/publish`);

    const news = (await admin('POST', '/api/news', newsBody(`Novica ${M}`, true, { unitIds: [unit] }))).id;
    const report = (await admin('POST', `/api/courses/${course}/reports`, { intervalId: 0 })).id;
    const exported = (await as(tokens.accountant, 'POST', '/api/exports', {
      kind: 'costs',
      parameters: { companyId: company, from: '2020-01-01', to: '2030-12-31' },
    })) as { id: number };
    // The export's job runs to its end before the suite starts: what it writes is the company's own doing.
    for (let tries = 0; ; tries++) {
      const list = (await as(tokens.accountant, 'GET', '/api/exports')) as { items: { id: number; status: string }[] };
      if (list.items.some((item) => item.id === exported.id && (item.status === 'finished' || item.status === 'error'))) break;
      if (tries > 150) throw new Error('the fixture export did not finish');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const request = (await as(tokens.manager, 'POST', `/api/users/${userIds.participant}/change-requests`, { kind: 'other', description: `Prošnja ${M}` })) as {
      id: string;
    };
    return {
      ids: {
        company,
        unit,
        communityGroup,
        user: userIds.participant,
        course,
        clientCourse: clientCourse.id,
        block,
        post: post.id,
        file: file.id,
        news,
        report,
        export: exported.id,
        changeRequest: request.id,
      },
      tokens,
      usernames,
      emails: ROLES.map((role) => `${usernames[role]}@test.si`),
    };
  };

  const streamRevisions = async () =>
    new Map(
      (await p.db.pg.query<{ stream_name: string; revision: string }>('select stream_name, revision from es.streams')).rows.map((r) => [
        r.stream_name,
        Number(r.revision),
      ]),
    );

  beforeAll(async () => {
    p = await startTestPlatform({ FEATURE_DELETE_ACCOUNT: 'true' }, { jobs: true });
    await p.createUser('tadmin', [{ roleId: ROLE.admin, unitId: 0, companyId: null }]);
    adminToken = (await p.login('tadmin')).token;
    nurse = (await admin('POST', '/api/professions', { name: 'Medicinska sestra' })).id;
    companies.A = await buildCompany('A');
    const beforeB = await streamRevisions();
    companies.B = await buildCompany('B');
    // B's streams: those its making created or moved (the admin's own stream aside).
    const afterB = await streamRevisions();
    const adminId = ((await send(adminToken, 'GET', '/api/users/me')).json() as { id: number }).id;
    streamsOfB = new Map([...afterB].filter(([name, revision]) => beforeB.get(name) !== revision && name !== userStream(adminId)));
  }, 300_000);

  afterAll(async () => p?.close());

  it('declares every body field that takes an id (reference(kind) or notAReference), on every route', () => {
    const undeclared = p.app.routeCatalogue().flatMap((route) => undeclaredIdFields(route.body).map((field) => `${route.method} ${route.url}: ${field}`));
    expect(undeclared).toEqual([]);
  });

  it("answers no request of company A's people with anything of company B, and changes nothing of B", async () => {
    const A = companies.A;
    const B = companies.B;
    await p.createUser('tnobody', []);
    const principals: [string, string | null][] = [
      ...ROLES.map((role) => [role, A.tokens[role]] as [string, string]),
      ['nobody', (await p.login('tnobody')).token],
      ['anonymous', null],
    ];
    const mailsBefore = await mailTo(B.emails);
    const slotValue = (ids: TenantIds, slot: Slot) => String(ids[slot]);
    const kindValue = (ids: TenantIds) => (kind: ReferenceKind) => {
      const slot = referenceSlot(kind);
      return slot ? Number(ids[slot]) : undefined;
    };

    const leaks: string[] = [];
    let sent = 0;
    // Twice: what a first request did (a file attached, a unit joined) is read back by the second pass.
    for (const pass of [1, 2]) {
      // What may end the caller's own account (deleting it, erasing it) runs last, so it ends nothing the rest needs.
      const endsAccount = (r: { method: string; url: string }) => r.method === 'DELETE' && r.url.startsWith('/api/users/me');
      const catalogue = p.app
        .routeCatalogue()
        .filter((r) => !r.url.startsWith('/api/docs'))
        .sort((x, y) => Number(endsAccount(x)) - Number(endsAccount(y)));
      const gone = new Set<string>();
      for (const route of catalogue.filter((r) => pass === 2 || !endsAccount(r))) {
        // Where ids go: each path parameter that names a record, each query key that does, the body's references.
        const segments = route.url.split('/');
        const params = segments.flatMap((part, i) =>
          part.startsWith(':') ? [{ index: i, name: part.slice(1), slot: pathSlot(segments[i - 1] ?? '', part.slice(1)) }] : [],
        );
        const query = queryKeys(route.query).flatMap((key): { key: string; slot: Slot | null }[] => {
          const slot = querySlot(key);
          return slot ? [{ key, slot }] : key === 'search' ? [{ key, slot: null }] : [];
        });
        const takesBody = route.body !== undefined;
        // Variants: everything of B; and each path parameter of B beside A's own elsewhere.
        // Variants: everything of B; each path parameter of B beside A's own elsewhere; A's own path with B's ids
        // in the query and body. A course in the path is also the client's own course (what a client authors).
        type Variant = { path: TenantIds[]; other: TenantIds; clientCourse?: boolean };
        const variants: Variant[] = [{ path: params.map(() => B.ids), other: B.ids }];
        if (params.length > 1) for (const [i] of params.entries()) variants.push({ path: params.map((_, j) => (i === j ? B.ids : A.ids)), other: A.ids });
        if (params.length > 0 && (query.length > 0 || takesBody)) variants.push({ path: params.map(() => A.ids), other: B.ids });
        // A's own records read back (lists of its course, its export's file, its report's PDF) must hold nothing of B either.
        if (route.method === 'GET' && params.length > 0) variants.push({ path: params.map(() => A.ids), other: A.ids });
        if (params.some((param) => param.slot === 'course')) {
          variants.push({ path: params.map(() => B.ids), other: B.ids, clientCourse: true });
          if (query.length > 0 || takesBody) variants.push({ path: params.map(() => A.ids), other: B.ids, clientCourse: true });
        }
        for (const variant of variants) {
          const path = segments
            .map((part, i) => {
              const at = params.findIndex((param) => param.index === i);
              if (at < 0) return part;
              const param = params[at] as (typeof params)[number];
              const ids = variant.path[at] as TenantIds;
              if (!param.slot) return PLAIN_PARAMS[param.name] ?? String(ids.course);
              if (param.slot === 'course' && variant.clientCourse) return String(ids.clientCourse);
              return encodeURIComponent(slotValue(ids, param.slot));
            })
            .join('/');
          const search = query.map(({ key, slot }) => `${key}=${encodeURIComponent(slot ? slotValue(variant.other, slot) : MARK.B)}`).join('&');
          const url = search ? `${path}?${search}` : path;
          const body = takesBody ? sampleBody(route.body, kindValue(variant.other), MARK.A) : undefined;
          for (const [who, token] of principals) {
            if (gone.has(who)) continue;
            const response = await send(token, route.method, url, body);
            sent += 1;
            if (response.statusCode >= 200 && response.statusCode < 300) {
              const text = await readable(response.rawPayload ?? Buffer.alloc(0), String(response.headers['content-type'] ?? ''));
              if (text.toUpperCase().includes(MARK.B)) leaks.push(`pass ${pass}: ${route.method} ${url} as ${who}: ${response.statusCode} holds B's marker`);
            }
            // The session must outlive what the route did (a logout ends it): a fresh one, unless the account itself ended.
            if (token && response.statusCode === 401) {
              const role = who as Role | 'nobody';
              const again = await send(null, 'POST', '/api/auth/login', {
                usernameOrEmail: role === 'nobody' ? 'tnobody' : A.usernames[role],
                password: TEST_PASSWORD,
              });
              const index = principals.findIndex(([name]) => name === who);
              if (again.statusCode === 200) principals[index] = [who, (again.json() as { authToken: string }).authToken];
              else {
                gone.add(who);
                if (!endsAccount(route)) leaks.push(`pass ${pass}: ${who} could not sign in again after ${route.method} ${url}`);
              }
            }
          }
        }
      }
    }
    // Let background work (mail, notifications) run before counting what reached B.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const after = await streamRevisions();
    const moved = [...streamsOfB].filter(([name, revision]) => after.get(name) !== revision).map(([name]) => name);
    expect(leaks).toEqual([]);
    expect(moved, "streams of company B that company A's requests appended to").toEqual([]);
    expect(await mailTo(B.emails)).toBe(mailsBefore);
    expect(sent, 'requests sent').toBeGreaterThan(1500);
  }, 900_000);

  /** Mail left for these addresses: the local outbox the platform writes without SMTP. */
  const mailTo = async (emails: readonly string[]) =>
    Number(
      (
        await p.db.pg.query<{ n: string }>('select count(*) as n from public.mail_outbox where lower(recipient) = any($1)', [
          emails.map((e) => e.toLowerCase()),
        ])
      ).rows[0]?.n,
    );

  /** A response as text a person could read: PDFs and spreadsheets opened by their readers, the rest as bytes. */
  const readable = async (bytes: Buffer, contentType: string) => {
    if (contentType.includes('pdf') && bytes.subarray(0, 5).toString() === '%PDF-') {
      try {
        return `${bytes.toString('latin1')}\n${await pdfText(bytes)}`;
      } catch {
        return bytes.toString('latin1');
      }
    }
    if (contentType.includes('spreadsheetml')) {
      const book = XLSX.read(bytes, { type: 'buffer' });
      return book.SheetNames.map((name) => XLSX.utils.sheet_to_csv(book.Sheets[name] as XLSX.WorkSheet)).join('\n');
    }
    return bytes.toString('utf8');
  };
});
