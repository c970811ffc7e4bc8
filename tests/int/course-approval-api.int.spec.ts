import { randomUUID } from 'node:crypto';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODE_NEEDED_TO_SIGN, PASSWORD_NEEDED_TO_SIGN } from '../../application/courses/course-approval.ts';
import { handleCommand } from '../../application/shared/handle-command.ts';
import { courseStream } from '../../domain/courses/course.ts';
import { NOTIFY_NEEDS_GRANT, ONE_STEP_PER_PERSON, PUBLISHED_UNDER_APPROVAL, SUBMITTER_MAY_NOT_SIGN } from '../../domain/courses/course-approval.ts';
import { CERTIFIED_NO_POINTS } from '../../domain/courses/course-types.rules.ts';
import { ROLE } from '../../domain/permissions/roles.ts';
import { userDecider } from '../../domain/users/user.decide.ts';
import { userStream } from '../../domain/users/user.ts';
import { SIGNATURE_CODE_WRONG } from '../../domain/users/user-identity.decide.ts';
import { parsePosition } from '../../infrastructure/event-store/event-store.port.ts';
import { SAMPLE_PNG } from '../support/sample-png.ts';
import { startSmtpSink } from '../support/smtp-sink.ts';
import { startTestPlatform, TEST_PASSWORD, type TestPlatform } from '../support/test-platform.ts';

type Errors = { errors: { code: string; field: string | null; message: string }[] };
type Approval = {
  required: boolean;
  contentHash: string;
  upToDate: boolean;
  current: null | {
    approvalVersion: number;
    status: string;
    contentHash: string;
    steps: {
      key: string;
      decision: string | null;
      signerName: string | null;
      mayISign: boolean;
      meaningToSign: { approved: string; rejected: string } | null;
    }[];
  };
  signing: { passwordSet: boolean; secondFactor: boolean } | null;
  lastApproved: null | { code: string; contentHash: string };
  published: null | { contentHash: string | null; approvalCode: string | null };
};
type Inbox = { items: { courseId: number; approvalVersion: number; step: string; stepLabel: string; submittedBy: { name: string } | null }[]; total: number };

const ALL_MISSING = 'Izobraževanje mora biti pred objavo odobreno (manjkajo odobritve: Medicinski pregled, Pravni pregled, Regulatorni pregled).';

/**
 * Approval before publishing (issue 36 items 2 and 4, decision 0063) over the API, with mail by jobs
 * to an SMTP server: settings per company, an author submits, three approvers sign re-entering their
 * passwords, publishing is refused until every step approved this very content, an edit of the
 * published course is refused and after unpublishing needs a new approval; wrong passwords, forged
 * and replayed signatures, another company's approver, two signers at once, codes drawn at once,
 * and the read model equal after a rebuild.
 */
describe('course approval before publishing', () => {
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
  const approval = async (who: string, courseId: number) => (await call(who, 'GET', `/api/courses/${courseId}/approval`)).json() as Approval;
  const messages = (response: { json: () => unknown }) => (response.json() as Errors).errors.map((e) => e.message);
  const courseBody = (title: string) => ({
    type: 3,
    title,
    description: 'Izobraževanje o zdravljenju, ki ga mora podjetje pred objavo odobriti.',
    cover: '/c.svg',
    creditPoints: 1,
    audience: { unitIds: [ids.a1] },
  });
  /** A course of company A authored by its client, with one block. */
  const newCourse = async (title: string) => {
    const created = await call('avtor', 'POST', '/api/courses', courseBody(title));
    expect(created.statusCode, created.body).toBe(201);
    const id = (created.json() as { id: number }).id;
    const block = await call('avtor', 'POST', `/api/courses/${id}/blocks`, { block: { kind: 'points', name: 'Točke', points: 1 } });
    ids[`block${id}`] = (block.json() as { id: number }).id;
    return id;
  };
  const submit = async (courseId: number) => {
    const { contentHash } = await approval('avtor', courseId);
    const response = await call('avtor', 'POST', `/api/courses/${courseId}/approval/submit`, { contentHash, comment: 'Prosim za pregled.' });
    expect(response.statusCode, response.body).toBe(200);
    return { contentHash, approvalVersion: (response.json() as { approvalVersion: number }).approvalVersion };
  };
  const sign = (who: string, courseId: number, body: { approvalVersion: number; contentHash: string; step: string }, extra: object = {}) =>
    call(who, 'POST', `/api/courses/${courseId}/approval/sign`, { decision: 'approved', comment: 'V redu.', password: TEST_PASSWORD, ...body, ...extra });
  const streamTypes = async (courseId: number) => (await p.store.readStream(courseStream(courseId))).events.map((e) => e.type);
  const steps = (a: Record<string, number>) => [
    { key: 'medical', label: 'Medicinski pregled', approverIds: [a.medic as number] },
    { key: 'legal', label: 'Pravni pregled', approverIds: [a.pravnik as number] },
    { key: 'regulatory', label: 'Regulatorni pregled', approverIds: [a.regulator as number] },
  ];

  beforeAll(async () => {
    smtp = await startSmtpSink();
    p = await startTestPlatform({ SMTP_URL: smtp.url, PUBLIC_URL: 'https://medilearn.test' }, { jobs: true });
    await p.createUser('skrbnik', [{ roleId: ROLE.admin, unitId: 0, companyId: null }]);
    tokens.admin = (await p.login('skrbnik')).token;
    const company = async (name: string) => ((await call('admin', 'POST', '/api/companies', { name, address: 'Cesta 1' })).json() as { id: number }).id;
    ids.companyA = await company('Farma A');
    ids.companyB = await company('Farma B');
    ids.a1 = ((await call('admin', 'POST', '/api/units', { name: 'A1', companyId: ids.companyA })).json() as { id: number }).id;
    ids.b1 = ((await call('admin', 'POST', '/api/units', { name: 'B1', companyId: ids.companyB })).json() as { id: number }).id;
    const person = async (name: string, roles: { roleId: (typeof ROLE)[keyof typeof ROLE]; unitId: number; companyId: number | null }[]) => {
      ids[name] = await p.createUser(name, roles);
      tokens[name] = (await p.login(name)).token;
    };
    const approver = [{ roleId: ROLE.approver, unitId: 0, companyId: null }];
    await person('avtor', [{ roleId: ROLE.client, unitId: ids.a1, companyId: ids.companyA }]);
    await person('medic', approver);
    await person('pravnik', approver);
    await person('regulator', approver);
    await person('tujec', approver);
    await person('ana', [{ roleId: ROLE.participant, unitId: ids.a1, companyId: ids.companyA }]);
    await person('revizor', [{ roleId: ROLE.auditor, unitId: 0, companyId: null }]);
  }, 120_000);

  afterAll(async () => {
    await p?.close();
    await smtp?.close();
  });

  it('keeps settings per scope: only holders of 1071 are named, a prefix of 2 to 8 capitals or digits, the admin sets them', async () => {
    const path = `/api/approval-settings/${ids.companyA}`;
    const defaults = (await call('admin', 'GET', path)).json() as {
      enabled: boolean;
      codePrefix: string;
      steps: { key: string }[];
      candidates: { id: number }[];
    };
    expect(defaults).toMatchObject({ enabled: false, codePrefix: 'MEDI' });
    expect(defaults.steps.map((s) => s.key)).toEqual(['medical', 'legal', 'regulatory']);
    expect(defaults.candidates.map((c) => c.id)).toEqual(expect.arrayContaining([ids.medic, ids.pravnik, ids.regulator, ids.tujec]));
    expect(defaults.candidates.map((c) => c.id)).not.toContain(ids.ana);

    const participantNamed = await call('admin', 'PUT', path, { enabled: true, codePrefix: 'PHA', steps: steps({ ...ids, medic: ids.ana as number }) });
    expect(participantNamed.statusCode).toBe(400);
    expect(messages(participantNamed)).toEqual([`Izbrana oseba ne sme odobravati izobraževanj (št. ${ids.ana}); dodelite ji vlogo odobritelja.`]);
    const badPrefix = await call('admin', 'PUT', path, { enabled: true, codePrefix: 'pha', steps: steps(ids) });
    expect(messages(badPrefix)).toEqual(['Predpona kode ima od 2 do 8 velikih črk ali številk.']);
    const nobody = await call('admin', 'PUT', path, {
      enabled: true,
      codePrefix: 'PHA',
      steps: [{ key: 'medical', label: 'Medicinski pregled', approverIds: [] }],
    });
    expect(messages(nobody)).toEqual(['Vsak korak potrebuje vsaj enega odobritelja.']);
    expect((await call('avtor', 'PUT', path, { enabled: false, codePrefix: 'PHA', steps: steps(ids) })).statusCode).toBe(403);
    expect((await call('admin', 'GET', '/api/approval-settings/999999')).statusCode).toBe(404);

    expect((await call('admin', 'PUT', path, { enabled: true, codePrefix: 'PHA', steps: steps(ids) })).statusCode).toBe(200);
    const other = [{ key: 'medical', label: 'Medicinski pregled', approverIds: [ids.tujec] }];
    expect((await call('admin', 'PUT', `/api/approval-settings/${ids.companyB}`, { enabled: true, codePrefix: 'PHB', steps: other })).statusCode).toBe(200);
    const saved = (await call('admin', 'GET', path)).json() as { steps: { approvers: { name: string }[] }[] };
    expect(saved.steps.map((s) => s.approvers.map((a) => a.name))).toEqual([['Test medic'], ['Test pravnik'], ['Test regulator']]);
  });

  it('runs the whole flow: refused before, three signatures with the password, published with its code; edits refused while published, re-approval after', async () => {
    const courseId = await newCourse('Zdravljenje hipertenzije');
    ids.flow = courseId;
    const refused = await call('avtor', 'POST', `/api/courses/${courseId}/publish`);
    expect(refused.statusCode).toBe(422);
    expect(messages(refused)).toEqual([ALL_MISSING]);
    expect(await approval('avtor', courseId)).toMatchObject({ required: true, current: null, lastApproved: null, upToDate: false });

    expect((await call('avtor', 'POST', `/api/courses/${courseId}/approval/submit`, { contentHash: 'a'.repeat(64) })).statusCode).toBe(409);
    const version = await submit(courseId);
    expect(version.approvalVersion).toBe(1);
    expect((await call('avtor', 'POST', `/api/courses/${courseId}/approval/submit`, { contentHash: version.contentHash })).statusCode).toBe(409);
    for (const who of ['medic', 'pravnik', 'regulator']) {
      const mail = await smtp.waitFor(`${who}@test.si`, /čaka na vašo odobritev: Zdravljenje hipertenzije/);
      expect(mail.text).toContain(`https://medilearn.test/odobritve/${courseId}/1`);
    }
    const inbox = (await call('medic', 'GET', '/api/approvals/inbox')).json() as Inbox;
    expect(inbox.items).toEqual([expect.objectContaining({ courseId, approvalVersion: 1, step: 'medical', stepLabel: 'Medicinski pregled' })]);
    expect(inbox.items[0]?.submittedBy?.name).toBe('Test avtor');
    expect(((await call('tujec', 'GET', '/api/approvals/inbox')).json() as Inbox).total).toBe(0);

    const medical = { ...version, step: 'medical' };
    const wrong = await sign('medic', courseId, medical, { password: 'Napačno1234!' });
    expect(wrong.statusCode).toBe(422);
    expect(messages(wrong)).toEqual(['Geslo ni pravilno.']);
    const signed = await sign('medic', courseId, medical);
    expect(signed.statusCode, signed.body).toBe(200);
    // The same request again (a replay) changes nothing.
    expect((await sign('medic', courseId, medical)).statusCode).toBe(409);
    expect(messages(await call('avtor', 'POST', `/api/courses/${courseId}/publish`))).toEqual([
      'Izobraževanje mora biti pred objavo odobreno (manjkajo odobritve: Pravni pregled, Regulatorni pregled).',
    ]);
    const view = await approval('medic', courseId);
    expect(view.current?.steps.map((s) => [s.key, s.decision, s.signerName, s.mayISign])).toEqual([
      ['medical', 'approved', 'Test medic', false],
      ['legal', null, null, false],
      ['regulatory', null, null, false],
    ]);
    expect((await approval('pravnik', courseId)).current?.steps.map((s) => s.mayISign)).toEqual([false, true, false]);

    // Two signers at once: neither signature is lost, one grant, one code.
    const [legal, regulatory] = await Promise.all([
      sign('pravnik', courseId, { ...version, step: 'legal' }),
      sign('regulator', courseId, { ...version, step: 'regulatory' }),
    ]);
    expect([legal.statusCode, regulatory.statusCode]).toEqual([200, 200]);
    const types = await streamTypes(courseId);
    expect(types.filter((t) => t === 'CourseApprovalSigned')).toHaveLength(3);
    expect(types.filter((t) => t === 'CourseApprovalGranted')).toHaveLength(1);
    const granted = await approval('avtor', courseId);
    expect(granted.current?.status).toBe('approved');
    expect(granted.lastApproved?.code).toMatch(/^PHA-\d{4}-\d{4}$/);
    expect(granted.upToDate).toBe(true);
    const code = granted.lastApproved?.code as string;
    expect((await smtp.waitFor('avtor@test.si', /Izobraževanje je odobreno/)).text).toContain(code);

    expect((await call('avtor', 'POST', `/api/courses/${courseId}/publish`)).statusCode).toBe(200);
    expect((await approval('avtor', courseId)).published).toEqual({ contentHash: version.contentHash, approvalCode: code });
    const published = (await p.store.readStream(courseStream(courseId))).events.find((e) => e.type === 'CoursePublished');
    expect(published?.data).toEqual({ contentHash: version.contentHash, approvalCode: code });
    expect((await call('ana', 'GET', `/api/user-courses/${courseId}`)).statusCode).toBe(200);

    // Published under approval: no content change, not even a typo; a change that is not content (notifications) goes through.
    const blockId = ids[`block${courseId}`] as number;
    const typo = await call('avtor', 'PUT', `/api/courses/${courseId}/blocks/${blockId}`, { kind: 'points', name: 'Točke.', points: 1 });
    expect(typo.statusCode).toBe(422);
    expect(messages(typo)).toEqual([PUBLISHED_UNDER_APPROVAL]);
    const fields = ((await call('avtor', 'GET', `/api/courses/${courseId}`)).json() as { fields: Record<string, unknown> }).fields;
    expect((await call('avtor', 'PUT', `/api/courses/${courseId}`, { ...fields, title: 'Zdravljenje hipertenzije.' })).statusCode).toBe(422);

    // Unpublished, the edit is allowed; publishing again needs a new approval of the new content.
    expect((await call('avtor', 'POST', `/api/courses/${courseId}/unpublish`)).statusCode).toBe(200);
    expect((await call('avtor', 'PUT', `/api/courses/${courseId}/blocks/${blockId}`, { kind: 'points', name: 'Točke.', points: 1 })).statusCode).toBe(200);
    expect(messages(await call('avtor', 'POST', `/api/courses/${courseId}/publish`))).toEqual([ALL_MISSING]);
    expect((await approval('avtor', courseId)).upToDate).toBe(false);

    // A rejection ends the version and tells the author why.
    const second = await submit(courseId);
    expect(second.approvalVersion).toBe(2);
    expect((await sign('medic', courseId, { ...second, step: 'medical' }, { decision: 'rejected', comment: '' })).statusCode).toBe(422);
    expect((await sign('medic', courseId, { ...second, step: 'medical' }, { decision: 'rejected', comment: 'Manjka vir podatkov.' })).statusCode).toBe(200);
    expect((await approval('avtor', courseId)).current?.status).toBe('rejected');
    expect((await smtp.waitFor('avtor@test.si', /Izobraževanje je zavrnjeno/)).text).toContain('Manjka vir podatkov.');
    expect((await sign('pravnik', courseId, { ...second, step: 'legal' })).statusCode).toBe(409);

    // A change while a version waits ends it: a signature of the old content is refused.
    const third = await submit(courseId);
    expect(
      (await call('avtor', 'PUT', `/api/courses/${courseId}/blocks/${blockId}`, { kind: 'points', name: 'Točke za udeležbo', points: 1 })).statusCode,
    ).toBe(200);
    expect((await approval('avtor', courseId)).current).toMatchObject({ approvalVersion: 3, status: 'withdrawn' });
    expect((await sign('medic', courseId, { ...third, step: 'medical' })).statusCode).toBe(409);

    const fourth = await submit(courseId);
    for (const [who, step] of [
      ['medic', 'medical'],
      ['pravnik', 'legal'],
      ['regulator', 'regulatory'],
    ] as const)
      expect((await sign(who, courseId, { ...fourth, step })).statusCode).toBe(200);
    const again = await approval('avtor', courseId);
    expect(again.lastApproved?.code).toMatch(/^PHA-\d{4}-\d{4}$/);
    expect(again.lastApproved?.code).not.toBe(code);
    expect((await call('avtor', 'POST', `/api/courses/${courseId}/publish`)).statusCode).toBe(200);

    // The content of each version as submitted, for the review and the diff.
    const v1 = (await call('medic', 'GET', `/api/courses/${courseId}/approval/versions/1/content`)).json() as {
      contentHash: string;
      blocks: { fields: { name: string } }[];
    };
    const v4 = (await call('medic', 'GET', `/api/courses/${courseId}/approval/versions/4/content`)).json() as {
      contentHash: string;
      blocks: { fields: { name: string } }[];
    };
    expect([v1.contentHash, v1.blocks[0]?.fields.name]).toEqual([version.contentHash, 'Točke']);
    expect([v4.contentHash, v4.blocks[0]?.fields.name]).toEqual([fourth.contentHash, 'Točke za udeležbo']);
  });

  it('shows each course’s approval state in the admins’ course list, and none where approval does not apply', async () => {
    const stateOf = async (title: string) => {
      const list = (await call('admin', 'GET', `/api/courses?search=${encodeURIComponent(title)}`)).json() as {
        items: { title: string; approval: string | null }[];
      };
      return list.items.find((c) => c.title === title)?.approval;
    };
    const courseId = await newCourse('Seznam stanj odobritve');
    expect(await stateOf('Seznam stanj odobritve')).toBe('none');
    const version = await submit(courseId);
    expect(await stateOf('Seznam stanj odobritve')).toBe('pending');
    const rejected = await sign('medic', courseId, { ...version, step: 'medical' }, { decision: 'rejected', comment: 'Manjka vir.' });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(await stateOf('Seznam stanj odobritve')).toBe('rejected');
    // The whole flow's course, approved and published.
    expect(await stateOf('Zdravljenje hipertenzije')).toBe('approved');
    // A platform course: the platform's scope has approval off.
    const own = await call('admin', 'POST', '/api/courses', { ...courseBody('Brez odobritve na platformi'), audience: undefined, public: true });
    expect(own.statusCode, own.body).toBe(201);
    expect(await stateOf('Brez odobritve na platformi')).toBeNull();
  });

  it('refuses forged signatures: another hash, another version, a person not named on the step, another company’s approver, no 1071', async () => {
    const courseId = await newCourse('Antikoagulanti');
    // A file of the course: its approvers review it before anyone else may see it; another company's approver may not.
    const upload = await p.app.inject({
      method: 'POST',
      url: '/api/files?name=smernice.png',
      headers: { authorization: `JWT ${tokens.avtor}`, 'content-type': 'image/png' },
      payload: SAMPLE_PNG,
    });
    const fileId = (upload.json() as { id: number }).id;
    expect((await call('avtor', 'POST', `/api/courses/${courseId}/attachments`, { fileId })).statusCode).toBe(201);
    const version = await submit(courseId);
    const file = (who: string) => call(who, 'GET', `/api/files/${fileId}`);
    expect([(await file('medic')).statusCode, (await file('tujec')).statusCode, (await file('ana')).statusCode]).toEqual([200, 404, 404]);
    const medical = { ...version, step: 'medical' };
    expect((await sign('medic', courseId, { ...medical, contentHash: 'b'.repeat(64) })).statusCode).toBe(409);
    expect((await sign('medic', courseId, { ...medical, approvalVersion: 2 })).statusCode).toBe(409);
    expect((await sign('pravnik', courseId, medical)).statusCode).toBe(403);
    // Company B's approver learns nothing of company A's course.
    expect((await sign('tujec', courseId, medical)).statusCode).toBe(404);
    expect((await call('tujec', 'GET', `/api/courses/${courseId}/approval`)).statusCode).toBe(404);
    expect((await call('tujec', 'GET', `/api/courses/${courseId}/approval/versions/1/content`)).statusCode).toBe(404);
    expect((await sign('ana', courseId, medical)).statusCode).toBe(403);
    expect((await sign('avtor', courseId, medical)).statusCode).toBe(403);
    expect((await streamTypes(courseId)).filter((t) => t === 'CourseApprovalSigned')).toHaveLength(0);
    // The auditor reads the approval (1072); a participant does not.
    expect((await call('revizor', 'GET', `/api/courses/${courseId}/approval`)).statusCode).toBe(200);
    expect((await call('ana', 'GET', `/api/courses/${courseId}/approval`)).statusCode).toBe(403);
    // The author withdraws it.
    expect((await call('avtor', 'POST', `/api/courses/${courseId}/approval/withdraw`, { approvalVersion: 1 })).statusCode).toBe(200);
    expect((await approval('avtor', courseId)).current?.status).toBe('withdrawn');
    expect((await sign('medic', courseId, medical)).statusCode).toBe(409);
  });

  it('draws every code once when many versions are granted at once', async () => {
    const courses = await Promise.all(['Astma', 'Diabetes', 'Migrena', 'Alergije', 'Gripa'].map((title) => newCourse(title)));
    const versions = [];
    for (const courseId of courses) {
      const version = await submit(courseId);
      expect((await sign('medic', courseId, { ...version, step: 'medical' })).statusCode).toBe(200);
      expect((await sign('pravnik', courseId, { ...version, step: 'legal' })).statusCode).toBe(200);
      versions.push({ courseId, version });
    }
    const last = await Promise.all(versions.map(({ courseId, version }) => sign('regulator', courseId, { ...version, step: 'regulatory' })));
    expect(last.map((r) => r.statusCode)).toEqual(courses.map(() => 200));
    const codes = last.map((r) => (r.json() as { code: string }).code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) expect(code).toMatch(/^PHA-\d{4}-\d{4}$/);
  });

  it('across two processes: two signers at once lose no signature and make one grant; codes drawn at once in both are each drawn once', async () => {
    const b = await startTestPlatform({}, { joinDatabase: p.db.connectionString });
    try {
      const signThrough = async (platform: TestPlatform, who: string, courseId: number, body: object) => {
        const response = await platform.app.inject({
          method: 'POST',
          url: `/api/courses/${courseId}/approval/sign`,
          headers: { authorization: `JWT ${tokens[who]}` },
          payload: { decision: 'approved', comment: 'V redu.', password: TEST_PASSWORD, ...body },
        });
        const position = response.headers['x-event-position'];
        if (typeof position === 'string') await p.settleAll(parsePosition(position));
        return response;
      };
      const courseId = await newCourse('Hiperlipidemija');
      const version = await submit(courseId);
      expect((await signThrough(b, 'medic', courseId, { ...version, step: 'medical' })).statusCode).toBe(200);
      const both = await Promise.all([
        signThrough(p, 'pravnik', courseId, { ...version, step: 'legal' }),
        signThrough(b, 'regulator', courseId, { ...version, step: 'regulatory' }),
      ]);
      expect(both.map((r) => r.statusCode)).toEqual([200, 200]);
      const types = await streamTypes(courseId);
      expect([types.filter((t) => t === 'CourseApprovalSigned').length, types.filter((t) => t === 'CourseApprovalGranted').length]).toEqual([3, 1]);

      const courses = await Promise.all(['Osteoporoza', 'Astma pri otrocih', 'Glavobol', 'Nespečnost'].map((title) => newCourse(title)));
      const versions = [];
      for (const id of courses) {
        const v = await submit(id);
        await sign('medic', id, { ...v, step: 'medical' });
        await sign('pravnik', id, { ...v, step: 'legal' });
        versions.push({ id, v });
      }
      const last = await Promise.all(versions.map(({ id, v }, i) => signThrough(i % 2 === 0 ? p : b, 'regulator', id, { ...v, step: 'regulatory' })));
      const codes = last.map((r) => (r.json() as { code: string }).code);
      expect(new Set(codes).size).toBe(4);
      for (const code of codes) expect(code).toMatch(/^PHA-\d{4}-\d{4}$/);
    } finally {
      await b.close();
    }
  }, 120_000);

  it('lets only admins change approval settings (1073), not an editor holding 1011, and warns when one person alone approves several steps', async () => {
    const path = `/api/approval-settings/${ids.companyA}`;
    ids.urednik = await p.createUser('urednik', [{ roleId: ROLE.editor, unitId: 0, companyId: null }]);
    tokens.urednik = (await p.login('urednik')).token;
    // The editor may read them (1011), never switch approval off to publish unapproved content.
    expect((await call('urednik', 'GET', path)).statusCode).toBe(200);
    const off = await call('urednik', 'PUT', path, { enabled: false, codePrefix: 'PHA', steps: steps(ids) });
    expect(off.statusCode).toBe(403);
    expect((await call('admin', 'GET', path)).json()).toMatchObject({ enabled: true });
    // One person alone on two steps: saved, with a warning (in the answer and when read).
    const alone = [
      { key: 'medical', label: 'Medicinski pregled', approverIds: [ids.tujec] },
      { key: 'legal', label: 'Pravni pregled', approverIds: [ids.tujec] },
    ];
    const saved = await call('admin', 'PUT', `/api/approval-settings/${ids.companyB}`, { enabled: true, codePrefix: 'PHB', steps: alone });
    const warning =
      'Test tujec je edini odobritelj v več korakih (Medicinski pregled, Pravni pregled). Ena oseba lahko podpiše le en korak iste različice, zato teh korakov ne bo mogoče odobriti; v vsak korak dodajte še drugega odobritelja.';
    expect(saved.json()).toEqual({ scope: ids.companyB, warnings: [warning] });
    expect(((await call('admin', 'GET', `/api/approval-settings/${ids.companyB}`)).json() as { warnings: string[] }).warnings).toEqual([warning]);
    // Two steps of one name are refused by the API itself.
    const twice = await call('admin', 'PUT', `/api/approval-settings/${ids.companyB}`, {
      enabled: true,
      codePrefix: 'PHB',
      steps: [alone[0], { ...alone[1], label: 'medicinski pregled' }],
    });
    expect(twice.statusCode).toBe(400);
    expect(messages(twice)).toEqual(['Dva koraka ne smeta imeti enakega imena.']);
    expect(
      (await call('admin', 'PUT', `/api/approval-settings/${ids.companyB}`, { enabled: true, codePrefix: 'PHB', steps: alone.slice(0, 1) })).statusCode,
    ).toBe(200);
  });

  it('checks the course type before a submission: a certified course without credit points is not submitted', async () => {
    const created = await call('avtor', 'POST', '/api/courses', {
      ...courseBody('Certificirani tečaj brez točk'),
      type: 4,
      creditPoints: 0,
      certificateEnabled: true,
    });
    expect(created.statusCode, created.body).toBe(201);
    const courseId = (created.json() as { id: number }).id;
    await call('avtor', 'POST', `/api/courses/${courseId}/blocks`, { block: { kind: 'article', name: 'Vsebina', html: '<p>Vsebina</p>' } });
    const { contentHash } = await approval('avtor', courseId);
    const refused = await call('avtor', 'POST', `/api/courses/${courseId}/approval/submit`, { contentHash });
    expect(refused.statusCode).toBe(422);
    expect(messages(refused)).toEqual([CERTIFIED_NO_POINTS]);
    expect((await streamTypes(courseId)).includes('CourseApprovalSubmitted')).toBe(false);
  });

  it('lets an approver read a course’s files only while a version waits or was granted, in a scope with approval on', async () => {
    const courseId = await newCourse('Smernice za astmo');
    const upload = await p.app.inject({
      method: 'POST',
      url: '/api/files?name=astma.png',
      headers: { authorization: `JWT ${tokens.avtor}`, 'content-type': 'image/png' },
      payload: SAMPLE_PNG,
    });
    const fileId = (upload.json() as { id: number }).id;
    expect((await call('avtor', 'POST', `/api/courses/${courseId}/attachments`, { fileId })).statusCode).toBe(201);
    const file = async () => (await call('medic', 'GET', `/api/files/${fileId}`)).statusCode;
    // A draft never submitted is nothing the approver reviews.
    expect(await file()).toBe(404);
    const version = await submit(courseId);
    expect(await file()).toBe(200);
    expect((await call('avtor', 'POST', `/api/courses/${courseId}/approval/withdraw`, { approvalVersion: version.approvalVersion })).statusCode).toBe(200);
    expect(await file()).toBe(404);
  });

  it('shows the published code, not the last grant: content reverted to an approved version publishes under that version’s code', async () => {
    const courseId = ids.flow as number;
    const blockId = ids[`block${courseId}`] as number;
    const lastCode = (await approval('avtor', courseId)).lastApproved?.code;
    const firstGrant = (await p.store.readStream(courseStream(courseId))).events.find((e) => e.type === 'CourseApprovalGranted')?.data;
    const firstCode = (firstGrant as { code: string }).code;
    expect(lastCode).not.toBe(firstCode);
    expect((await call('avtor', 'POST', `/api/courses/${courseId}/unpublish`)).statusCode).toBe(200);
    // Back to the words of version 1, which was approved under the first code.
    expect((await call('avtor', 'PUT', `/api/courses/${courseId}/blocks/${blockId}`, { kind: 'points', name: 'Točke', points: 1 })).statusCode).toBe(200);
    expect((await call('avtor', 'POST', `/api/courses/${courseId}/publish`)).statusCode).toBe(200);
    expect((await approval('avtor', courseId)).published).toMatchObject({ approvalCode: firstCode });
    expect(((await call('ana', 'GET', `/api/user-courses/${courseId}`)).json() as { approvalCode: string | null }).approvalCode).toBe(firstCode);
    expect((await approval('avtor', courseId)).lastApproved?.code).toBe(lastCode);
  });

  it('separates duties, shows the signer the sentence the signature records, asks for the second factor where on, and tells a social-only account to set a password', async () => {
    const approver = [{ roleId: ROLE.approver, unitId: 0, companyId: null }];
    ids.dvofaktor = await p.createUser('dvofaktor', approver);
    tokens.dvofaktor = (await p.login('dvofaktor')).token;
    ids.socialni = await p.createUser('socialni', approver, null);
    // A social-only account opens its session through its provider: no password to re-enter.
    const sessionId = randomUUID();
    const opened = await handleCommand(p.store, {
      streamName: userStream(ids.socialni),
      decider: userDecider,
      command: { type: 'LogInTrusted', sessionId, method: 'social', now: new Date() },
      metadata: { actorId: ids.socialni },
    });
    await p.settleAll(opened.position);
    tokens.socialni = await p.tokens.sign({ userId: ids.socialni, sessionId, realUserId: null, position: opened.position });
    const adminId = ((await call('admin', 'GET', '/api/users/me')).json() as { id: number }).id;
    const platformSteps = [
      { key: 'medical', label: 'Medicinski pregled', approverIds: [adminId, ids.dvofaktor] },
      { key: 'legal', label: 'Pravni pregled', approverIds: [ids.medic, ids.socialni] },
      { key: 'regulatory', label: 'Regulatorni pregled', approverIds: [ids.medic, ids.regulator] },
    ];
    const on = await call('admin', 'PUT', '/api/approval-settings/platform', { enabled: true, codePrefix: 'PLAT', steps: platformSteps });
    expect(on.statusCode, on.body).toBe(200);
    expect((on.json() as { warnings: string[] }).warnings).toEqual([]);

    const created = await call('admin', 'POST', '/api/courses', courseBody('Tečaj platforme v odobritvi'));
    const courseId = (created.json() as { id: number }).id;
    await call('admin', 'POST', `/api/courses/${courseId}/blocks`, { block: { kind: 'points', name: 'Točke', points: 1 } });
    const { contentHash } = await approval('admin', courseId);
    const submitted = await call('admin', 'POST', `/api/courses/${courseId}/approval/submit`, { contentHash });
    expect(submitted.statusCode, submitted.body).toBe(200);
    const version = { approvalVersion: 1, contentHash };
    // The approvers named are told it waits for them; the submitter, though named, is not (it never waits for them).
    await smtp.waitFor('dvofaktor@test.si', /čaka na vašo odobritev: Tečaj platforme v odobritvi/);
    expect(smtp.received.filter((m) => m.to.includes('skrbnik@test.si') && /Tečaj platforme v odobritvi/.test(m.subject))).toEqual([]);

    // A manual notification of a course under approval waits for its publish under a grant.
    const early = await call('admin', 'POST', `/api/courses/${courseId}/notifications`, { subject: 'Novost', message: 'Novo poglavje.' });
    expect(early.statusCode).toBe(422);
    expect(messages(early)).toEqual([NOTIFY_NEEDS_GRANT]);

    // The submitter does not sign their own version, though named on its step (nor finds it in their inbox).
    expect((await approval('admin', courseId)).current?.steps.map((step) => step.mayISign)).toEqual([false, false, false]);
    expect(((await call('admin', 'GET', '/api/approvals/inbox')).json() as Inbox).items.filter((i) => i.courseId === courseId)).toEqual([]);
    expect(((await call('medic', 'GET', '/api/approvals/inbox')).json() as Inbox).items.filter((i) => i.courseId === courseId).map((i) => i.step)).toEqual([
      'legal',
      'regulatory',
    ]);
    const own = await sign('admin', courseId, { ...version, step: 'medical' });
    expect(own.statusCode).toBe(403);
    expect(messages(own)).toEqual([SUBMITTER_MAY_NOT_SIGN]);

    // The sentence the API gives the signer is the one the signature records.
    const shown = (await approval('medic', courseId)).current?.steps.find((step) => step.key === 'legal')?.meaningToSign?.approved;
    expect(shown).toMatch(/^S tem elektronskim podpisom potrjujem/);
    expect((await sign('medic', courseId, { ...version, step: 'legal' })).statusCode).toBe(200);
    const recorded = (await p.store.readStream(courseStream(courseId))).events.find((e) => e.type === 'CourseApprovalSigned')?.data as {
      meaning: string;
      method: string;
    };
    expect(recorded.meaning).toBe(shown);
    expect(recorded.method).toBe('password');

    // One person signs one step of a version.
    expect((await approval('medic', courseId)).current?.steps.map((step) => step.mayISign)).toEqual([false, false, false]);
    expect(((await call('medic', 'GET', '/api/approvals/inbox')).json() as Inbox).items.filter((i) => i.courseId === courseId)).toEqual([]);
    const second = await sign('medic', courseId, { ...version, step: 'regulatory' });
    expect(second.statusCode).toBe(403);
    expect(messages(second)).toEqual([ONE_STEP_PER_PERSON('Pravni pregled')]);

    // A social-only account is told to set a password first (before anything else is checked).
    expect((await approval('socialni', courseId)).signing).toEqual({ passwordSet: false, secondFactor: false });
    const social = await sign('socialni', courseId, { ...version, step: 'legal' });
    expect([social.statusCode, messages(social)]).toEqual([422, [PASSWORD_NEEDED_TO_SIGN]]);

    // The second factor: on for this signer, so the code from the mail is needed too.
    const factor = await call('dvofaktor', 'PUT', '/api/users/me/second-factor', { enabled: true, password: TEST_PASSWORD });
    expect(factor.statusCode, factor.body).toBe(200);
    expect((await approval('dvofaktor', courseId)).signing).toEqual({ passwordSet: true, secondFactor: true });
    const noCode = await sign('dvofaktor', courseId, { ...version, step: 'medical' });
    expect([noCode.statusCode, messages(noCode)]).toEqual([422, [CODE_NEEDED_TO_SIGN]]);
    const asked = await call('dvofaktor', 'POST', `/api/courses/${courseId}/approval/sign/code`);
    expect(asked.statusCode, asked.body).toBe(200);
    const challenge = (asked.json() as { challengeId: string }).challengeId;
    const mail = await smtp.waitFor('dvofaktor@test.si', /Koda za elektronski podpis/);
    const code = /(\d{6})/.exec(mail.subject)?.[1] as string;
    const wrongCode = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const wrong = await sign('dvofaktor', courseId, { ...version, step: 'medical' }, { secondFactorChallenge: challenge, secondFactorCode: wrongCode });
    // Refused, and told to type it again: the same code still signs below.
    expect([wrong.statusCode, messages(wrong)]).toEqual([422, [SIGNATURE_CODE_WRONG]]);
    const right = await sign('dvofaktor', courseId, { ...version, step: 'medical' }, { secondFactorChallenge: challenge, secondFactorCode: code });
    expect(right.statusCode, right.body).toBe(200);
    const signatures = (await p.store.readStream(courseStream(courseId))).events.filter((e) => e.type === 'CourseApprovalSigned');
    expect(signatures.map((e) => (e.data as { method: string }).method)).toEqual(['password', 'password-second-factor']);
    // An approver without 2FA asks for no code.
    expect((await call('medic', 'POST', `/api/courses/${courseId}/approval/sign/code`)).statusCode).toBe(422);

    expect((await sign('regulator', courseId, { ...version, step: 'regulatory' })).statusCode).toBe(200);
    expect((await call('admin', 'POST', `/api/courses/${courseId}/publish`)).statusCode).toBe(200);
    const grantCode = (await approval('admin', courseId)).published?.approvalCode;
    expect(grantCode).toMatch(/^PLAT-\d{4}-\d{4}$/);
    expect((await call('admin', 'POST', `/api/courses/${courseId}/notifications`, { subject: 'Novost', message: 'Novo poglavje.' })).statusCode).toBe(202);
    expect(((await call('ana', 'GET', `/api/user-courses/${courseId}`)).json() as { approvalCode: string | null }).approvalCode).toBe(grantCode);

    // Approval switched off: published again without a code after a change, the course page shows none (not the old grant's).
    const off = await call('admin', 'PUT', '/api/approval-settings/platform', { enabled: false, codePrefix: 'PLAT', steps: platformSteps });
    expect(off.statusCode).toBe(200);
    expect((await call('admin', 'POST', `/api/courses/${courseId}/unpublish`)).statusCode).toBe(200);
    const blockId = ((await call('admin', 'GET', `/api/courses/${courseId}`)).json() as { blocks: { id: number }[] }).blocks[0]?.id;
    expect((await call('admin', 'PUT', `/api/courses/${courseId}/blocks/${blockId}`, { kind: 'points', name: 'Točke.', points: 1 })).statusCode).toBe(200);
    expect((await call('admin', 'POST', `/api/courses/${courseId}/publish`)).statusCode).toBe(200);
    expect(((await call('ana', 'GET', `/api/user-courses/${courseId}`)).json() as { approvalCode: string | null }).approvalCode).toBeNull();
  });

  it('leaves a scope with approval off as before, and reads the same after a rebuild of the read model', async () => {
    const platformCourse = (await call('admin', 'POST', '/api/courses', { ...courseBody('Tečaj platforme'), audience: { unitIds: [ids.a1] } })).json() as {
      id: number;
    };
    await call('admin', 'POST', `/api/courses/${platformCourse.id}/blocks`, { block: { kind: 'points', name: 'Točke', points: 1 } });
    expect((await call('admin', 'POST', `/api/courses/${platformCourse.id}/publish`)).statusCode).toBe(200);
    expect((await approval('admin', platformCourse.id)).required).toBe(false);

    const rows = async () => ({
      approvals: await p.db.slonik.any(sql.unsafe`select * from rm.course_approvals order by course_id`),
      settings: await p.db.slonik.any(sql.unsafe`select * from rm.approval_settings order by scope`),
      inbox: ((await call('medic', 'GET', '/api/approvals/inbox')).json() as Inbox).items,
    });
    const live = await rows();
    expect(live.approvals.length).toBeGreaterThan(5);
    await p.runner.rebuild('course_approvals');
    expect(await rows()).toEqual(live);
  });
});
