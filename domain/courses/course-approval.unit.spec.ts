import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../../tests/support/decider-spec.ts';
import { fold } from '../shared/decider.ts';
import { blockRule, courseRule } from './course.rules.ts';
import { type CourseCommand, type CourseEvent, courseDecider } from './course.ts';
import {
  approvalMissingMessage,
  NOTIFY_NEEDS_GRANT,
  ONE_STEP_PER_PERSON,
  PUBLISHED_UNDER_APPROVAL,
  SUBMITTER_MAY_NOT_SIGN,
  signatureMeaning,
} from './course-approval.ts';
import { courseContentHash } from './course-content-hash.ts';

const spec = deciderSpec(courseDecider);
const now = new Date('2026-11-27T10:00:00.000Z');
const at = now.toISOString();
const STEPS = [
  { key: 'medical', label: 'Medicinski pregled' },
  { key: 'legal', label: 'Pravni pregled' },
];
const ON = { steps: STEPS, actorId: 5, now };
const OFF = { steps: null, actorId: 5, now };
const fields = courseRule.parse({
  type: 1,
  title: 'Zdravljenje hipertenzije',
  description: 'Smernice zdravljenja arterijske hipertenzije.',
  cover: '/c.jpg',
  creditPoints: 1,
});
const block = blockRule.parse({ kind: 'points', name: 'Točke', points: 1 });
const created: CourseEvent = { type: 'CourseCreated', data: { courseId: 1, fields: fields as never } };
const added: CourseEvent = { type: 'CourseBlockAdded', data: { blockId: 10, position: 0, block: block as never } };
const base = [created, added];
const hashOf = (events: CourseEvent[]) => {
  const state = fold(courseDecider, events);
  if (state.status === 'none') throw new Error('no course');
  return courseContentHash(state);
};
const hash = hashOf(base);

const submitted: CourseEvent = {
  type: 'CourseApprovalSubmitted',
  data: {
    approvalVersion: 1,
    contentHash: hash,
    contentVersion: 1,
    steps: STEPS,
    submittedBy: 5,
    submittedByName: 'Ana Avtor',
    submittedAt: at,
    comment: null,
  },
};
const signed = (step: string, signerId: number, decision: 'approved' | 'rejected' = 'approved', version = 1): CourseEvent => ({
  type: 'CourseApprovalSigned',
  data: {
    approvalVersion: version,
    step,
    decision,
    comment: decision === 'rejected' ? 'Manjka vir.' : null,
    signerId,
    signerName: `Oseba ${signerId}`,
    meaning: signatureMeaning(decision, STEPS.find((s) => s.key === step)?.label ?? step, version, hash),
    contentHash: hash,
    signedAt: at,
    method: 'password',
  },
});
const granted: CourseEvent = { type: 'CourseApprovalGranted', data: { approvalVersion: 1, contentHash: hash, code: 'MEDI-2026-0001', grantedAt: at } };
const sign = (over: Partial<Extract<CourseCommand, { type: 'SignCourseApproval' }>> = {}): CourseCommand => ({
  type: 'SignCourseApproval',
  approvalVersion: 1,
  step: 'medical',
  decision: 'approved',
  comment: null,
  contentHash: hash,
  signer: { id: 7, name: 'Oseba 7', mayApprove: true },
  method: 'password',
  approverIds: [7],
  code: null,
  now,
  ...over,
});
const submit: CourseCommand = {
  type: 'SubmitCourseApproval',
  contentHash: hash,
  comment: null,
  steps: STEPS,
  submittedBy: 5,
  submittedByName: 'Ana Avtor',
  now,
};

describe('course approval (issue 36, decision 0063)', () => {
  it('submits the content as it is, once per content, only where approval is on', () => {
    spec.given(base).when(submit).thenExpect([submitted]);
    spec
      .given(base)
      .when({ ...submit, steps: null })
      .thenFails('422');
    spec
      .given(base)
      .when({ ...submit, contentHash: 'a'.repeat(64) })
      .thenFails('409');
    spec
      .given([...base, submitted])
      .when(submit)
      .thenFails('409');
    spec
      .given([...base, submitted, signed('medical', 7), signed('legal', 8), granted])
      .when(submit)
      .thenFails('409', 'Ta vsebina je že odobrena.');
  });

  it('signs only the pending version, its content, each step once, by an approver named on the step holding 1071', () => {
    spec
      .given([...base, submitted])
      .when(sign())
      .thenExpect([signed('medical', 7)]);
    // Replayed or forged: another version, another hash, a step signed already, a step the version lacks.
    spec
      .given([...base, submitted])
      .when(sign({ approvalVersion: 2 }))
      .thenFails('409');
    spec
      .given([...base, submitted])
      .when(sign({ contentHash: 'b'.repeat(64) }))
      .thenFails('409');
    spec
      .given([...base, submitted, signed('medical', 7)])
      .when(sign())
      .thenFails('409');
    spec
      .given([...base, submitted])
      .when(sign({ step: 'regulatory' }))
      .thenFails('409');
    // Not named on the step, or without 1071.
    spec
      .given([...base, submitted])
      .when(sign({ approverIds: [8] }))
      .thenFails('403');
    spec
      .given([...base, submitted])
      .when(sign({ signer: { id: 7, name: 'Oseba 7', mayApprove: false } }))
      .thenFails('403');
    // Nothing pending: withdrawn or rejected.
    const withdrawn: CourseEvent = { type: 'CourseApprovalWithdrawn', data: { approvalVersion: 1, by: 5, at, comment: null, reason: 'author' } };
    spec
      .given([...base, submitted, withdrawn])
      .when(sign())
      .thenFails('409');
    spec
      .given([...base, submitted, signed('legal', 8, 'rejected')])
      .when(sign())
      .thenFails('409');
  });

  it('a rejection needs a reason and ends the version; the last approval grants the code the application drew', () => {
    spec
      .given([...base, submitted])
      .when(sign({ decision: 'rejected' }))
      .thenFails('422', 'Pri zavrnitvi vpišite razlog.');
    spec
      .given([...base, submitted])
      .when(sign({ step: 'legal', approverIds: [8], signer: { id: 8, name: 'Oseba 8', mayApprove: true }, decision: 'rejected', comment: 'Manjka vir.' }))
      .thenExpect([signed('legal', 8, 'rejected')]);
    spec
      .given([...base, submitted, signed('medical', 7)])
      .when(sign({ step: 'legal', approverIds: [8], signer: { id: 8, name: 'Oseba 8', mayApprove: true } }))
      .thenFails('approval-code-needed');
    spec
      .given([...base, submitted, signed('medical', 7)])
      .when(sign({ step: 'legal', approverIds: [8], signer: { id: 8, name: 'Oseba 8', mayApprove: true }, code: 'MEDI-2026-0001' }))
      .thenExpect([signed('legal', 8), granted]);
  });

  it('publishes (and restores a published course) only with a grant for the content as it is now', () => {
    spec.given(base).when({ type: 'PublishCourse', approval: ON }).thenFails('422', approvalMissingMessage(STEPS));
    spec
      .given([...base, submitted, signed('medical', 7)])
      .when({ type: 'PublishCourse', approval: ON })
      .thenFails('422', 'Izobraževanje mora biti pred objavo odobreno (manjkajo odobritve: Pravni pregled).');
    const approved = [...base, submitted, signed('medical', 7), signed('legal', 8), granted];
    spec
      .given(approved)
      .when({ type: 'PublishCourse', approval: ON })
      .thenExpect([{ type: 'CoursePublished', data: { contentHash: hash, approvalCode: 'MEDI-2026-0001' } }]);
    // A step added to the scope since the grant is missing from it.
    spec
      .given(approved)
      .when({ type: 'PublishCourse', approval: { ...ON, steps: [...STEPS, { key: 'regulatory', label: 'Regulatorni pregled' }] } })
      .thenFails('422', 'Izobraževanje mora biti pred objavo odobreno (manjkajo odobritve: Regulatorni pregled).');
    // Approval off: as before.
    spec
      .given(base)
      .when({ type: 'PublishCourse', approval: OFF })
      .thenExpect([{ type: 'CoursePublished', data: {} }]);
    const archivedPublished: CourseEvent[] = [...base, { type: 'CoursePublished', data: {} }, { type: 'CourseArchived', data: {} }];
    spec.given(archivedPublished).when({ type: 'RestoreCourse', approval: ON }).thenFails('422');
    spec
      .given(archivedPublished)
      .when({ type: 'RestoreCourse', approval: OFF })
      .thenExpect([{ type: 'CourseRestored', data: {} }]);
    spec
      .given([...approved, { type: 'CoursePublished', data: {} }, { type: 'CourseArchived', data: {} }])
      .when({ type: 'RestoreCourse', approval: ON })
      .thenExpect([{ type: 'CourseRestored', data: { contentHash: hash, approvalCode: 'MEDI-2026-0001' } }]);
  });

  it('refuses a content change of a published course under approval; a change while pending ends the version', () => {
    const published: CourseEvent[] = [
      ...base,
      submitted,
      signed('medical', 7),
      signed('legal', 8),
      granted,
      { type: 'CoursePublished', data: { contentHash: hash, approvalCode: 'MEDI-2026-0001' } },
    ];
    spec
      .given(published)
      .when({ type: 'UpdateCourse', fields: { ...fields, title: 'Zdravljenje hipertenzij' }, approval: ON })
      .thenFails('422', PUBLISHED_UNDER_APPROVAL);
    spec.given(published).when({ type: 'RemoveBlock', blockId: 10, approval: ON }).thenFails('422');
    // Not content (a discount): allowed.
    spec
      .given(published)
      .when({ type: 'UpdateCourse', fields: { ...fields, discount: 10 }, approval: ON })
      .thenExpect([{ type: 'CourseUpdated', data: { fields: { ...fields, discount: 10 } as never } }]);
    // Approval off: as before.
    spec
      .given(published)
      .when({ type: 'RemoveBlock', blockId: 10, approval: OFF })
      .thenExpect([{ type: 'CourseBlockRemoved', data: { blockId: 10 } }]);
    spec
      .given([...base, submitted, signed('medical', 7)])
      .when({ type: 'UpdateBlock', blockId: 10, block: { ...block, name: 'Točke.' } as never, approval: ON })
      .thenExpect([
        { type: 'CourseBlockUpdated', data: { blockId: 10, block: { ...block, name: 'Točke.' } as never } },
        {
          type: 'CourseApprovalWithdrawn',
          data: { approvalVersion: 1, by: 5, at, comment: 'Vsebina se je spremenila; različico je treba znova oddati v odobritev.', reason: 'content-changed' },
        },
      ]);
    // After unpublishing, the edit is allowed and the old grant no longer covers the content.
    const edited = [
      ...published,
      { type: 'CourseUnpublished', data: {} } as CourseEvent,
      { type: 'CourseBlockUpdated', data: { blockId: 10, block: { ...block, name: 'Točke.' } as never } } as CourseEvent,
    ];
    spec.given(edited).when({ type: 'PublishCourse', approval: ON }).thenFails('422', approvalMissingMessage(STEPS));
    expect(hashOf(edited)).not.toBe(hash);
  });

  it('separates duties: the submitter signs no step of their version, one person signs one step of a version', () => {
    // The author (5) is named on the medical step, but submitted the version.
    spec
      .given([...base, submitted])
      .when(sign({ signer: { id: 5, name: 'Ana Avtor', mayApprove: true }, approverIds: [5] }))
      .thenFails('403', SUBMITTER_MAY_NOT_SIGN);
    spec
      .given([...base, submitted])
      .when(sign({ signer: { id: 5, name: 'Ana Avtor', mayApprove: true }, approverIds: [5], decision: 'rejected', comment: 'Ne.' }))
      .thenFails('403', SUBMITTER_MAY_NOT_SIGN);
    // 7 signed the medical step and is named on the legal one too.
    spec
      .given([...base, submitted, signed('medical', 7)])
      .when(sign({ step: 'legal', approverIds: [7, 8], code: 'MEDI-2026-0001' }))
      .thenFails('403', ONE_STEP_PER_PERSON('Medicinski pregled'));
    // A replay of one's own signature is still a replay (409), not a second step.
    spec
      .given([...base, submitted, signed('medical', 7)])
      .when(sign())
      .thenFails('409');
    // In the next version the same person signs again.
    const resubmitted: CourseEvent = { ...submitted, data: { ...(submitted.data as object), approvalVersion: 2 } } as CourseEvent;
    spec
      .given([...base, submitted, signed('medical', 7, 'rejected'), resubmitted])
      .when(sign({ approvalVersion: 2, step: 'legal', approverIds: [7] }))
      .thenExpect([{ ...signed('legal', 7, 'approved', 2) }]);
  });

  it('records how the signer proved it was them, in the words they were shown', () => {
    spec
      .given([...base, submitted])
      .when(sign({ method: 'password-second-factor' }))
      .thenExpect([{ type: 'CourseApprovalSigned', data: { ...(signed('medical', 7).data as object), method: 'password-second-factor' } } as CourseEvent]);
  });

  it('sends a manual notification of a course under approval only when it is published with a grant of its content as it is now', () => {
    const notify = (approval: typeof ON | typeof OFF) => ({
      type: 'RequestNotification' as const,
      notificationId: '8b1c4c1e-1d3b-4b7e-9a43-7b2f2b0c9f11',
      kind: 'manual' as const,
      subject: 'Novost',
      message: 'Preberite novo poglavje.',
      now,
      approval,
    });
    const approved = [...base, submitted, signed('medical', 7), signed('legal', 8), granted];
    spec.given(base).when(notify(ON)).thenFails('422', NOTIFY_NEEDS_GRANT);
    // Approved but not published.
    spec.given(approved).when(notify(ON)).thenFails('422', NOTIFY_NEEDS_GRANT);
    // Published before approval was switched on: no grant of this content.
    spec
      .given([...base, { type: 'CoursePublished', data: {} }])
      .when(notify(ON))
      .thenFails('422', NOTIFY_NEEDS_GRANT);
    const published = [...approved, { type: 'CoursePublished', data: { contentHash: hash, approvalCode: 'MEDI-2026-0001' } } as CourseEvent];
    expect(courseDecider.decide(notify(ON), fold(courseDecider, published)).map((e) => e.type)).toEqual(['CourseNotificationRequested']);
    // Approval off: as before.
    expect(courseDecider.decide(notify(OFF), fold(courseDecider, base)).map((e) => e.type)).toEqual(['CourseNotificationRequested']);
  });

  it('withdraws only the pending version', () => {
    spec
      .given([...base, submitted])
      .when({ type: 'WithdrawCourseApproval', approvalVersion: 1, comment: null, by: 5, now })
      .thenExpect([{ type: 'CourseApprovalWithdrawn', data: { approvalVersion: 1, by: 5, at, comment: null, reason: 'author' } }]);
    spec.given(base).when({ type: 'WithdrawCourseApproval', approvalVersion: 1, comment: null, by: 5, now }).thenFails('409');
  });
});
