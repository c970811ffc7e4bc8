import { describe, it } from 'vitest';
import { deciderSpec } from '../../tests/support/decider-spec.ts';
import type { RuntimeReport } from '../packages/package-runtime.ts';
import type { MoveOn } from '../packages/package-structure.ts';
import { blockRule, courseRule } from './course.rules.ts';
import type { Course, CourseBlock } from './course.ts';
import { type EnrollmentContext, type EnrollmentEvent, enrollmentDecider } from './enrollment.ts';
import { REPORTS_REMEMBERED } from './package-progress.ts';

/*
 * The ReportPackage command (issue 35 item 3, decision 0059): a package's report about one item, as
 * enrollment events. Block 1 is done by opening it; block 2 is the package, by default a SCORM 2004
 * package of two SCOs the author wants completed.
 */
const spec = deciderSpec(enrollmentDecider);
const NOW = new Date('2026-06-15T10:00:00Z');

const points: CourseBlock = { id: 1, fields: blockRule.parse({ kind: 'points', name: 'Točke', points: 1 }) };
const packageBlock = (
  completion: 'completed' | 'passed' | 'score' = 'completed',
  items: { id: string; moveOn?: MoveOn | null }[] = [{ id: 'sco1' }, { id: 'sco2' }],
  threshold: number | null = null,
): CourseBlock => ({
  id: 2,
  fields: blockRule.parse({
    kind: 'package',
    name: 'Shranjevanje zdravil',
    packageId: 3,
    completion,
    threshold,
    standard: items.some((i) => i.moveOn) ? 'cmi5' : 'scorm2004',
    items: items.map((i) => ({ id: i.id, title: i.id, masteryScore: null, moveOn: i.moveOn ?? null })),
  }),
});
const after: CourseBlock = { id: 4, fields: blockRule.parse({ kind: 'points', name: 'Zaključek', points: 1 }) };

const course = (blocks: CourseBlock[]): Course => ({
  status: 'published',
  published: true,
  costs: null,
  id: 7,
  fields: courseRule.parse({ type: 4, title: 'Shranjevanje', description: 'Shranjevanje zdravil v lekarni.', cover: '/c.jpg', creditPoints: 2 }),
  blocks,
  contentVersion: 0,
  contents: [blocks],
  attachments: [],
  owner: null,
  notificationIds: [],
  lastManualNotificationAt: null,
  approval: { versions: [], published: null },
});

const ctx = (blocks: CourseBlock[] = [points, packageBlock()]): EnrollmentContext => ({ course: course(blocks), completedCourseIds: [], now: NOW });

const started: EnrollmentEvent = { type: 'CourseStarted', data: { courseId: 7, userId: 5, contentVersion: 0 } };
const opened: EnrollmentEvent = { type: 'BlockOpened', data: { blockId: 1, done: true } };
const reachable = [started, opened];

type Report = { itemId?: string; reportId: string; sessionId?: string; blockId?: number };
const report = ({ itemId = 'sco1', reportId, sessionId = 's1', blockId = 2 }: Report, runtime: RuntimeReport, context = ctx()) => ({
  type: 'ReportPackage' as const,
  blockId,
  itemId,
  sessionId,
  reportId,
  report: runtime,
  context,
});
const reported = ({ itemId = 'sco1', reportId, sessionId = 's1' }: Report, { interactions, ...changes }: RuntimeReport): EnrollmentEvent => ({
  type: 'PackageReported',
  // Interactions are kept as JSON text (a personal field of the event).
  data: { blockId: 2, itemId, reportId, sessionId, ...changes, ...(interactions ? { interactions: JSON.stringify(interactions) } : {}) },
});
const scored = (itemId: string, attempt: number, score: number | null, passed: boolean): EnrollmentEvent => ({
  type: 'PackageScored',
  data: { blockId: 2, itemId, attempt, score, passed },
});
const packageCompleted = (score: number | null): EnrollmentEvent => ({ type: 'PackageCompleted', data: { blockId: 2, score } });
const courseCompleted: EnrollmentEvent = { type: 'CourseCompleted', data: { creditPoints: 2 } };

describe('enrollment: a package reports (issue 35)', () => {
  it('records a first report with what it states, then only what changed', () => {
    const first: RuntimeReport = { completion: 'incomplete', success: 'unknown', location: 'p1', suspendData: 'a', sessionSeconds: 10 };
    spec
      .given(reachable)
      .when(report({ reportId: 'r1' }, first))
      .thenExpect([reported({ reportId: 'r1' }, first)]);
    spec
      .given([...reachable, reported({ reportId: 'r1' }, first)])
      .when(report({ reportId: 'r2' }, { ...first, location: 'p2', sessionSeconds: 25 }))
      .thenExpect([reported({ reportId: 'r2' }, { location: 'p2', sessionSeconds: 25 })]);
  });

  it('records nothing for a commit that changes nothing (an autocommit while the participant reads)', () => {
    const first: RuntimeReport = { completion: 'incomplete', location: 'p1', sessionSeconds: 10 };
    const past = [...reachable, reported({ reportId: 'r1' }, first)];
    spec
      .given(past)
      .when(report({ reportId: 'r2' }, first))
      .thenExpect([]);
    // The same launch restating an earlier, smaller session time adds no time either.
    spec
      .given(past)
      .when(report({ reportId: 'r3' }, { ...first, sessionSeconds: 8 }))
      .thenExpect([]);
    spec
      .given(reachable)
      .when(report({ reportId: 'r4' }, {}))
      .thenExpect([]);
  });

  it('records a report id once: a retried report changes nothing, whatever it says now and for whichever item', () => {
    const past = [...reachable, reported({ reportId: 'r1' }, { completion: 'incomplete' })];
    spec
      .given(past)
      .when(report({ reportId: 'r1' }, { completion: 'completed', score: 90 }))
      .thenExpect([]);
    spec
      .given(past)
      .when(report({ reportId: 'r1', itemId: 'sco2', sessionId: 's2' }, { completion: 'completed' }))
      .thenExpect([]);
    // Recorded long ago, within what the block remembers.
    const many = Array.from({ length: REPORTS_REMEMBERED - 1 }, (_, i) => reported({ reportId: `n${i}` }, { location: `p${i}` }));
    spec
      .given([...past, ...many])
      .when(report({ reportId: 'r1' }, { location: 'nazaj' }))
      .thenExpect([]);
  });

  it("adds a new launch's session time: it is per launch, not the item's total", () => {
    const past = [...reachable, reported({ reportId: 'r1' }, { sessionSeconds: 60 })];
    spec
      .given(past)
      .when(report({ reportId: 'r2', sessionId: 's2' }, { sessionSeconds: 60 }))
      .thenExpect([reported({ reportId: 'r2', sessionId: 's2' }, { sessionSeconds: 60 })]);
    spec
      .given([...past, reported({ reportId: 'r2', sessionId: 's2' }, { sessionSeconds: 60 })])
      .when(report({ reportId: 'r3', sessionId: 's1' }, { sessionSeconds: 60 }))
      .thenExpect([reported({ reportId: 'r3', sessionId: 's1' }, { sessionSeconds: 60 })]);
  });

  it('records suspend data again after the recorded one was erased (a personal field, null in the stream)', () => {
    const erased: EnrollmentEvent = { type: 'PackageReported', data: { blockId: 2, itemId: 'sco1', reportId: 'r1', sessionId: 's1', suspendData: null } };
    spec
      .given([...reachable, erased])
      .when(report({ reportId: 'r2' }, { suspendData: 'a' }))
      .thenExpect([reported({ reportId: 'r2' }, { suspendData: 'a' })]);
  });
});

describe('enrollment: package results (PackageScored)', () => {
  it('counts a success status as a result, with its score, attempts increasing across the items of the block', () => {
    const failed = reported({ reportId: 'r1' }, { success: 'failed', score: 40 });
    spec
      .given(reachable)
      .when(report({ reportId: 'r1' }, { success: 'failed', score: 40 }))
      .thenExpect([failed, scored('sco1', 1, 40, false)]);
    // A new score with the same status is a new result.
    spec
      .given([...reachable, failed, scored('sco1', 1, 40, false)])
      .when(report({ reportId: 'r2' }, { success: 'failed', score: 55 }))
      .thenExpect([reported({ reportId: 'r2' }, { score: 55 }), scored('sco1', 2, 55, false)]);
    // A new status with the same score: the result carries the item's score, not only what changed.
    spec
      .given([...reachable, failed, scored('sco1', 1, 40, false)])
      .when(report({ reportId: 'r2' }, { success: 'passed', score: 40 }))
      .thenExpect([reported({ reportId: 'r2' }, { success: 'passed' }), scored('sco1', 2, 40, true)]);
    spec
      .given([...reachable, failed, scored('sco1', 1, 40, false)])
      .when(report({ reportId: 'r2', itemId: 'sco2' }, { success: 'passed' }))
      .thenExpect([reported({ reportId: 'r2', itemId: 'sco2' }, { success: 'passed' }), scored('sco2', 2, null, true)]);
  });

  it('counts no result without a success status: a score while success is unknown, a completion, an unknown status', () => {
    spec
      .given(reachable)
      .when(report({ reportId: 'r1' }, { success: 'unknown', score: 70 }))
      .thenExpect([reported({ reportId: 'r1' }, { success: 'unknown', score: 70 })]);
    spec
      .given(reachable)
      .when(report({ reportId: 'r1' }, { completion: 'incomplete', score: 70 }))
      .thenExpect([reported({ reportId: 'r1' }, { completion: 'incomplete', score: 70 })]);
    // A status restated without a new score is no new result.
    const passed = reported({ reportId: 'r1' }, { success: 'passed', score: 90 });
    spec
      .given([...reachable, passed, scored('sco1', 1, 90, true)])
      .when(report({ reportId: 'r2' }, { success: 'passed', score: 90, location: 'konec' }))
      .thenExpect([reported({ reportId: 'r2' }, { location: 'konec' })]);
  });
});

describe('enrollment: a package block done by the author’s rule (PackageCompleted)', () => {
  const sco1Done = reported({ reportId: 'r1' }, { completion: 'completed', score: 80 });

  it('completes the block once every item meets the rule, with the mean score, and the course after it', () => {
    spec
      .given(reachable)
      .when(report({ reportId: 'r1' }, { completion: 'completed', score: 80 }))
      .thenExpect([sco1Done]);
    spec
      .given([...reachable, sco1Done])
      .when(report({ reportId: 'r2', itemId: 'sco2' }, { completion: 'incomplete', score: 65 }))
      .thenExpect([reported({ reportId: 'r2', itemId: 'sco2' }, { completion: 'incomplete', score: 65 })]);
    spec
      .given([...reachable, sco1Done])
      .when(report({ reportId: 'r2', itemId: 'sco2' }, { completion: 'completed', score: 65 }))
      .thenExpect([reported({ reportId: 'r2', itemId: 'sco2' }, { completion: 'completed', score: 65 }), packageCompleted(72.5), courseCompleted]);
  });

  it('has no score when an item reported none', () => {
    spec
      .given([...reachable, sco1Done])
      .when(report({ reportId: 'r2', itemId: 'sco2' }, { completion: 'completed' }))
      .thenExpect([reported({ reportId: 'r2', itemId: 'sco2' }, { completion: 'completed' }), packageCompleted(null), courseCompleted]);
  });

  it('records the result before the completion it brings, in one step', () => {
    const passedRule = ctx([points, packageBlock('passed', [{ id: 'sco1' }])]);
    spec
      .given(reachable)
      .when(report({ reportId: 'r1' }, { completion: 'completed', success: 'passed', score: 90 }, passedRule))
      .thenExpect([
        reported({ reportId: 'r1' }, { completion: 'completed', success: 'passed', score: 90 }),
        scored('sco1', 1, 90, true),
        packageCompleted(90),
        courseCompleted,
      ]);
  });

  it('completes the block only once: later reports are recorded (a participant may review) and the block stays done', () => {
    const done = [
      ...reachable,
      sco1Done,
      reported({ reportId: 'r2', itemId: 'sco2' }, { completion: 'completed', score: 65 }),
      packageCompleted(72.5),
      courseCompleted,
    ];
    spec
      .given(done)
      .when(report({ reportId: 'r3', itemId: 'sco2' }, { completion: 'completed', score: 100 }))
      .thenExpect([reported({ reportId: 'r3', itemId: 'sco2' }, { score: 100 })]);
    // A worse retake keeps the best score (80); its failure is recorded, and the block stays done.
    spec
      .given(done)
      .when(report({ reportId: 'r3' }, { success: 'failed', score: 10 }))
      .thenExpect([reported({ reportId: 'r3' }, { success: 'failed' }), scored('sco1', 1, 80, false)]);
  });

  it('does not complete the course while a block after the package is not done', () => {
    const withMore = ctx([points, packageBlock('completed', [{ id: 'sco1' }]), after]);
    spec
      .given(reachable)
      .when(report({ reportId: 'r1' }, { completion: 'completed' }, withMore))
      .thenExpect([reported({ reportId: 'r1' }, { completion: 'completed' }), packageCompleted(null)]);
  });

  it('"passed": a completion is not enough; "score": the threshold is', () => {
    const passedRule = ctx([points, packageBlock('passed', [{ id: 'sco1' }])]);
    spec
      .given(reachable)
      .when(report({ reportId: 'r1' }, { completion: 'completed', score: 100 }, passedRule))
      .thenExpect([reported({ reportId: 'r1' }, { completion: 'completed', score: 100 })]);
    const scoreRule = ctx([points, packageBlock('score', [{ id: 'sco1' }], 70)]);
    spec
      .given(reachable)
      .when(report({ reportId: 'r1' }, { completion: 'completed', score: 69.9 }, scoreRule))
      .thenExpect([reported({ reportId: 'r1' }, { completion: 'completed', score: 69.9 })]);
    spec
      .given([...reachable, reported({ reportId: 'r1' }, { completion: 'completed', score: 69.9 })])
      .when(report({ reportId: 'r2' }, { score: 70 }, scoreRule))
      .thenExpect([reported({ reportId: 'r2' }, { score: 70 }), packageCompleted(70), courseCompleted]);
  });

  it('needs a cmi5 AU’s moveOn as well as the author’s rule', () => {
    const cmi5 = ctx([points, packageBlock('completed', [{ id: 'au1', moveOn: 'Passed' }])]);
    const completed = reported({ reportId: 'st1', itemId: 'au1' }, { completion: 'completed' });
    spec
      .given(reachable)
      .when(report({ reportId: 'st1', itemId: 'au1' }, { completion: 'completed' }, cmi5))
      .thenExpect([completed]);
    spec
      .given([...reachable, completed])
      .when(report({ reportId: 'st2', itemId: 'au1' }, { success: 'passed', score: 85 }, cmi5))
      .thenExpect([
        { type: 'PackageReported', data: { blockId: 2, itemId: 'au1', reportId: 'st2', sessionId: 's1', success: 'passed', score: 85 } },
        { type: 'PackageScored', data: { blockId: 2, itemId: 'au1', attempt: 1, score: 85, passed: true } },
        packageCompleted(85),
        courseCompleted,
      ]);
  });
});

describe('enrollment: package reports refused', () => {
  it('for an item the package does not hold', () => {
    spec
      .given(reachable)
      .when(report({ reportId: 'r1', itemId: 'sco3' }, { completion: 'completed' }))
      .thenFails('400', 'Ta enota ni del paketa.');
  });

  it('for a block that is not a package, or no block of the course', () => {
    spec
      .given(reachable)
      .when(report({ reportId: 'r1', blockId: 1 }, { completion: 'completed' }))
      .thenFails('400', 'Ta blok ni paket SCORM/cmi5.');
    spec
      .given(reachable)
      .when(report({ reportId: 'r1', blockId: 9 }, { completion: 'completed' }))
      .thenFails('404', 'Vsebinski blok ne obstaja.');
  });

  it('for a package not reachable yet (a block before it is not done), or a course not started', () => {
    spec
      .given([started])
      .when(report({ reportId: 'r1' }, { completion: 'completed' }))
      .thenFails('422', 'Najprej zaključite prejšnje vsebine.');
    spec
      .given([])
      .when(report({ reportId: 'r1' }, { completion: 'completed' }))
      .thenFails('422', 'Izobraževanje še ni začeto.');
  });
});
