import { describe, expect, it } from 'vitest';
import { approvalTrail, type RecordedCourseEvent, trailPeople } from './approval-trail.ts';
import { courseRule } from './course.rules.ts';
import type { Course } from './course.ts';

/** A stand-in for courseContentHash: any function of the content will do for the trail's logic. */
const contentHash = (course: Course) => `h:${JSON.stringify([course.fields.title, course.blocks, course.attachments])}`;

const fields = courseRule.parse({
  type: 1,
  title: 'Novo zdravilo za hipertenzijo',
  description: 'Strokovno izobraževanje o novem zdravilu za zdravnike in farmacevte.',
  cover: '/covers/1.jpg',
  creditPoints: 1,
});
const block = { kind: 'text', title: 'Uvod', content: '<p>Besedilo</p>' };

const STEPS = [
  { key: 'medical', label: 'Medicinski pregled' },
  { key: 'legal', label: 'Pravni pregled' },
];
const NAMES = new Map([
  [1, 'Ana Avtor'],
  [2, 'Maja Medicina'],
  [3, 'Peter Pravnik'],
  [9, 'Urška Urednica'],
]);

/** A stream written one minute apart from 10:00 UTC on 1 March 2026, each event by `actor`. */
const stream = () => {
  const events: RecordedCourseEvent[] = [];
  let minute = 0;
  const add = (type: string, data: unknown, actorId: number | null = 1) => {
    events.push({ type, data, actorId, revision: events.length, recordedAt: new Date(Date.UTC(2026, 2, 1, 10, minute++)) });
    return events.at(-1)?.recordedAt as Date;
  };
  return { events, add };
};

/** The hash of the content after `n` events, computed the way the trail does. */
const hashAfter = (events: readonly RecordedCourseEvent[], n: number) => {
  const { course } = approvalTrail(events.slice(0, n), { asOf: null, names: NAMES, contentHash });
  return contentHash(course as Course);
};

const signed = (approvalVersion: number, step: string, decision: 'approved' | 'rejected', signerId: number, hash: string) => ({
  approvalVersion,
  step,
  decision,
  comment: decision === 'approved' ? 'Brez pripomb.' : 'Manjka povzetek glavnih značilnosti zdravila.',
  signerId,
  signerName: NAMES.get(signerId),
  meaning: `S podpisom potrjujem, da sem vsebino pregledal(a) v koraku ${step} in jo ${decision === 'approved' ? 'odobravam' : 'zavračam'}.`,
  contentHash: hash,
  signedAt: '2026-03-01T10:00:00.000Z',
  method: 'password',
});

/** Created with one block, submitted as version 1, approved in both steps, granted and published. */
const approvedAndPublished = () => {
  const s = stream();
  s.add('CourseCreated', { courseId: 7, fields });
  s.add('CourseBlockAdded', { blockId: 70, position: 0, block });
  const h = hashAfter(s.events, 2);
  s.add('CourseApprovalSubmitted', {
    approvalVersion: 1,
    contentHash: h,
    contentVersion: 1,
    steps: STEPS,
    submittedBy: 1,
    submittedAt: '',
    comment: 'Prosim za pregled.',
  });
  s.add('CourseApprovalSigned', signed(1, 'medical', 'approved', 2, h), 2);
  const grantedAt = s.add('CourseApprovalSigned', signed(1, 'legal', 'approved', 3, h), 3);
  s.events.push({
    type: 'CourseApprovalGranted',
    data: { approvalVersion: 1, contentHash: h, code: 'MEDI-2026-0001', grantedAt: grantedAt.toISOString() },
    actorId: 3,
    revision: s.events.length,
    recordedAt: grantedAt,
  });
  const publishedAt = s.add('CoursePublished', { contentHash: h, approvalCode: 'MEDI-2026-0001' }, 9);
  return { ...s, h, publishedAt };
};

describe('approval trail (issue 36 item 3)', () => {
  it('lists submission, signatures with signer, meaning and method, the grant with its code and the publish; the published content verifies', () => {
    const { events, h } = approvedAndPublished();
    const trail = approvalTrail(events, { asOf: null, names: NAMES, contentHash });
    expect(trail.rows.map((r) => r.kind)).toEqual(['submitted', 'signed', 'signed', 'granted', 'published']);
    expect(trail.rows[0]).toMatchObject({ approvalVersion: 1, who: { id: 1, name: 'Ana Avtor' }, comment: 'Prosim za pregled.', hashMatchesContent: true });
    expect(trail.rows[0]?.meaning).toContain('Medicinski pregled, Pravni pregled');
    expect(trail.rows[1]).toMatchObject({
      step: 'medical',
      stepLabel: 'Medicinski pregled',
      who: { id: 2, name: 'Maja Medicina' },
      method: 'password',
      contentHash: h,
      hashMatchesContent: true,
      at: '2026-03-01T10:03:00.000Z',
    });
    expect(trail.rows[1]?.meaning).toContain('odobravam');
    expect(trail.rows[3]).toMatchObject({ kind: 'granted', code: 'MEDI-2026-0001', contentHash: h });
    expect(trail.rows[4]).toMatchObject({ kind: 'published', code: 'MEDI-2026-0001', approvalVersion: 1, who: { id: 9, name: 'Urška Urednica' } });
    expect(trail.verification).toMatchObject({
      matches: true,
      status: 'verified',
      publishedHash: h,
      approvedHash: h,
      currentHash: h,
      approvalCode: 'MEDI-2026-0001',
      approvalVersion: 1,
    });
    expect(trail.verification.reason).toContain('se ujema');
  });

  it('cuts at the as-of moment: later events are not there and the verification is of the content then', () => {
    const { events } = approvedAndPublished();
    // 10:03:30, after the medical signature and before the legal one.
    const trail = approvalTrail(events, { asOf: new Date(Date.UTC(2026, 2, 1, 10, 3, 30)), names: NAMES, contentHash });
    expect(trail.rows.map((r) => r.kind)).toEqual(['submitted', 'signed']);
    expect(trail.verification).toMatchObject({ status: 'not-published', matches: false });
    expect(trail.verification.reason).toBe('Izobraževanje ni objavljeno. Nobena različica še ni odobrena.');
    // An event recorded exactly at the moment belongs to it.
    expect(approvalTrail(events, { asOf: new Date(Date.UTC(2026, 2, 1, 10, 4)), names: NAMES, contentHash }).rows.at(-1)?.kind).toBe('granted');
    // Before the course existed.
    expect(approvalTrail(events, { asOf: new Date(Date.UTC(2026, 1, 1)), names: NAMES, contentHash })).toMatchObject({
      rows: [],
      course: null,
      verification: { status: 'no-course', matches: false },
    });
  });

  it('shows a rejection with its signer and comment; the version is no longer pending', () => {
    const s = stream();
    s.add('CourseCreated', { courseId: 7, fields });
    s.add('CourseBlockAdded', { blockId: 70, position: 0, block });
    const h = hashAfter(s.events, 2);
    s.add('CourseApprovalSubmitted', { approvalVersion: 1, contentHash: h, contentVersion: 1, steps: STEPS, submittedBy: 1, submittedAt: '', comment: null });
    s.add('CourseApprovalSigned', signed(1, 'medical', 'rejected', 2, h), 2);
    s.add('CourseBlockUpdated', { blockId: 70, block: { ...block, content: '<p>Popravljeno besedilo</p>' } });
    const trail = approvalTrail(s.events, { asOf: null, names: NAMES, contentHash });
    expect(trail.rows.map((r) => r.kind)).toEqual(['submitted', 'rejected', 'content-changed']);
    expect(trail.rows[1]).toMatchObject({
      kind: 'rejected',
      stepLabel: 'Medicinski pregled',
      who: { name: 'Maja Medicina' },
      comment: 'Manjka povzetek glavnih značilnosti zdravila.',
    });
    expect(trail.rows[1]?.meaning).toContain('zavračam');
    // After a rejection, a change is not "during the review".
    expect(trail.rows[2]?.meaning).toBe('Vsebina je bila spremenjena; spremenjena vsebina potrebuje odobritev.');
  });

  it('shows a withdrawal by its author, and a change made while a version was in review', () => {
    const s = stream();
    s.add('CourseCreated', { courseId: 7, fields });
    s.add('CourseBlockAdded', { blockId: 70, position: 0, block });
    const h = hashAfter(s.events, 2);
    s.add('CourseApprovalSubmitted', { approvalVersion: 1, contentHash: h, contentVersion: 1, steps: STEPS, submittedBy: 1, submittedAt: '', comment: null });
    s.add('CourseBlockAdded', { blockId: 71, position: 1, block: { ...block, title: 'Drugi del' } });
    s.add('CourseApprovalWithdrawn', { approvalVersion: 1, by: 1, at: '', comment: 'Dodajam poglavje.' });
    const trail = approvalTrail(s.events, { asOf: null, names: NAMES, contentHash });
    expect(trail.rows.map((r) => r.kind)).toEqual(['submitted', 'content-changed', 'withdrawn']);
    expect(trail.rows[1]?.meaning).toContain('med pregledom različice 1');
    expect(trail.rows[2]).toMatchObject({ approvalVersion: 1, who: { id: 1, name: 'Ana Avtor' }, comment: 'Dodajam poglavje.', contentHash: h });
    expect(trail.verification.reason).toBe('Izobraževanje ni objavljeno. Nobena različica še ni odobrena.');
  });

  it('flags content changed after the grant and the publish: the recomputed hash no longer matches the approved one', () => {
    const { events, add, h } = approvedAndPublished();
    add('CourseUpdated', { fields: { ...fields, title: 'Novo zdravilo za hipertenzijo (popravek)' } }, 9);
    const trail = approvalTrail(events, { asOf: null, names: NAMES, contentHash });
    expect(trail.rows.at(-1)).toMatchObject({ kind: 'content-changed', who: { id: 9, name: 'Urška Urednica' } });
    expect(trail.rows.at(-1)?.meaning).toBe(
      'Vsebina je bila spremenjena po odobritvi različice 1 (koda MEDI-2026-0001); spremenjena vsebina potrebuje novo odobritev.',
    );
    expect(trail.verification).toMatchObject({ matches: false, status: 'mismatch', publishedHash: h, approvedHash: h });
    expect(trail.verification.currentHash).not.toBe(h);
    // To the second (decision 0064).
    expect(trail.verification.reason).toMatch(/^Vsebina je bila po objavi spremenjena \(1\. mar\. 2026.*11:06:00\)/);
  });

  it('shows each save of the scope’s approval settings while the course exists, among its events, with who, on or off and the approvers', () => {
    const { events } = approvedAndPublished();
    const at = (minute: number) => new Date(Date.UTC(2026, 2, 1, 10, minute, 30));
    const set = (minute: number, enabled: boolean, approverIds: number[], revision: number): RecordedCourseEvent => ({
      type: 'ApprovalSettingsSet',
      data: { enabled, codePrefix: 'MEDI', steps: STEPS.map((step, i) => ({ ...step, approverIds: [approverIds[i] as number] })) },
      actorId: 9,
      revision,
      recordedAt: at(minute),
    });
    // Before the course existed (not its history), between its submission and first signature, and after everything.
    const settings = [set(-5, true, [2, 3], 0), set(2, false, [2, 3], 1), set(30, true, [3, 2], 2)];
    const trail = approvalTrail(events, { asOf: null, names: NAMES, contentHash, settings });
    expect(trail.rows.map((r) => r.kind)).toEqual(['submitted', 'settings-changed', 'signed', 'signed', 'granted', 'published', 'settings-changed']);
    expect(trail.rows[1]).toMatchObject({
      who: { id: 9, name: 'Urška Urednica' },
      at: at(2).toISOString(),
      settings: { enabled: false, steps: [{ label: 'Medicinski pregled', approvers: [{ id: 2, name: 'Maja Medicina' }] }, { label: 'Pravni pregled' }] },
      meaning:
        'Nastavitve odobritev, ki veljajo za to izobraževanje, so spremenjene: odobritev pred objavo je izključena; koraki in odobritelji: Medicinski pregled (Maja Medicina); Pravni pregled (Peter Pravnik).',
    });
    expect(trail.rows.at(-1)?.meaning).toContain('je vključena (predpona kod MEDI); koraki in odobritelji: Medicinski pregled (Peter Pravnik)');
    // As of a moment, later saves are not there; settings do not change the verification.
    expect(approvalTrail(events, { asOf: at(3), names: NAMES, contentHash, settings }).rows.filter((r) => r.kind === 'settings-changed')).toHaveLength(1);
    expect(trail.verification).toEqual(approvalTrail(events, { asOf: null, names: NAMES, contentHash }).verification);
    expect(trailPeople(settings)).toEqual(expect.arrayContaining([9, 2, 3]));
  });

  it('flags a publish whose recorded hash is not the approved one, and a code the log does not know', () => {
    const { events } = approvedAndPublished();
    const forged = events.map((e) => (e.type === 'CoursePublished' ? { ...e, data: { contentHash: 'f'.repeat(64), approvalCode: 'MEDI-2026-0001' } } : e));
    const trail = approvalTrail(forged, { asOf: null, names: NAMES, contentHash });
    expect(trail.verification).toMatchObject({ matches: false, status: 'mismatch' });
    expect(trail.verification.reason).toContain('Zgoščena vrednost objavljene vsebine (ffffffffffff…) ni enaka');
    expect(trail.rows.at(-1)?.hashMatchesContent).toBe(false);
    const unknown = events.map((e) => (e.type === 'CoursePublished' ? { ...e, data: { ...(e.data as object), approvalCode: 'MEDI-2026-0099' } } : e));
    expect(approvalTrail(unknown, { asOf: null, names: NAMES, contentHash }).verification.reason).toBe(
      'Koda odobritve MEDI-2026-0099 v dnevniku tega izobraževanja ne obstaja.',
    );
  });

  it('catches a grant recorded for content the log never had (its hash differs from the replayed content)', () => {
    const s = stream();
    s.add('CourseCreated', { courseId: 7, fields });
    s.add('CourseBlockAdded', { blockId: 70, position: 0, block });
    const fake = 'a'.repeat(64);
    s.add('CourseApprovalSubmitted', {
      approvalVersion: 1,
      contentHash: fake,
      contentVersion: 1,
      steps: STEPS,
      submittedBy: 1,
      submittedAt: '',
      comment: null,
    });
    s.add('CourseApprovalGranted', { approvalVersion: 1, contentHash: fake, code: 'MEDI-2026-0001', grantedAt: '' });
    s.add('CoursePublished', { contentHash: fake, approvalCode: 'MEDI-2026-0001' });
    const trail = approvalTrail(s.events, { asOf: null, names: NAMES, contentHash });
    expect(trail.rows.map((r) => r.hashMatchesContent)).toEqual([false, false, false]);
    expect(trail.verification).toMatchObject({ matches: false, status: 'mismatch' });
    expect(trail.verification.reason).toContain('Vsebina, preračunana iz dnevnika dogodkov ob objavi');
  });

  it('says so when a course was published without an approval code, and after an unpublish', () => {
    const s = stream();
    s.add('CourseCreated', { courseId: 7, fields });
    s.add('CourseBlockAdded', { blockId: 70, position: 0, block });
    s.add('CoursePublished', {});
    expect(approvalTrail(s.events, { asOf: null, names: NAMES, contentHash }).verification).toMatchObject({ status: 'unapproved', matches: false });
    const { events, add } = approvedAndPublished();
    add('CourseUnpublished', {}, 9);
    const trail = approvalTrail(events, { asOf: null, names: NAMES, contentHash });
    expect(trail.rows.at(-1)).toMatchObject({ kind: 'unpublished', meaning: 'Objava izobraževanja je umaknjena.' });
    expect(trail.verification.reason).toBe('Izobraževanje ni objavljeno. Vsebina je enaka zadnji odobreni različici 1 (koda MEDI-2026-0001).');
  });

  it('counts a restore from the archive that records the approved hash as a publish again', () => {
    const { events, add, h } = approvedAndPublished();
    add('CourseArchived', {}, 9);
    add('CourseRestored', {}, 9);
    expect(approvalTrail(events, { asOf: null, names: NAMES, contentHash }).rows.at(-1)?.kind).toBe('published');
    add('CourseRestored', { contentHash: h, approvalCode: 'MEDI-2026-0001' }, 9);
    const trail = approvalTrail(events, { asOf: null, names: NAMES, contentHash });
    expect(trail.rows.at(-1)).toMatchObject({ kind: 'published', code: 'MEDI-2026-0001', hashMatchesContent: true });
    expect(trail.rows.at(-1)?.meaning).toBe('Izobraževanje je obnovljeno iz arhiva in znova objavljeno z odobreno vsebino (koda MEDI-2026-0001).');
    expect(trail.verification.status).toBe('verified');
  });

  it('leaves out content edits made before the first submission (authoring), and names everyone it needs', () => {
    const s = stream();
    s.add('CourseCreated', { courseId: 7, fields });
    s.add('CourseBlockAdded', { blockId: 70, position: 0, block });
    s.add('CourseBlockAdded', { blockId: 71, position: 1, block });
    expect(approvalTrail(s.events, { asOf: null, names: NAMES, contentHash }).rows).toEqual([]);
    const { events } = approvedAndPublished();
    expect(trailPeople(events).sort()).toEqual([1, 2, 3, 9]);
    // An unknown id is shown by its number.
    expect(approvalTrail(events, { asOf: null, names: new Map(), contentHash }).rows[0]?.who).toEqual({ id: 1, name: '#1' });
  });
});
