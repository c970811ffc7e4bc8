import { describe, expect, it } from 'vitest';
import type { RuntimeReport } from '../packages/package-runtime.ts';
import type { MoveOn } from '../packages/package-structure.ts';
import { type PackageBlock, packageBlockRule } from './course.rules.ts';
import {
  afterReport,
  changesOf,
  itemSatisfied,
  NO_ITEM_PROGRESS,
  NO_PACKAGE_PROGRESS,
  type PackageItemProgress,
  type PackageProgress,
  packageDone,
  packageScore,
} from './package-progress.ts';

/** An item's progress after reports in order, each `[launch, report]`. */
const reported = (...reports: [string, RuntimeReport][]) => reports.reduce((item, [session, report]) => afterReport(item, session, report), NO_ITEM_PROGRESS);

const block = (completion: 'completed' | 'passed' | 'score', items: { id: string; moveOn?: MoveOn | null }[], threshold: number | null = null): PackageBlock =>
  packageBlockRule.parse({
    kind: 'package',
    name: 'Paket',
    packageId: 3,
    completion,
    threshold,
    standard: items.some((i) => i.moveOn) ? 'cmi5' : 'scorm2004',
    items: items.map((i) => ({ id: i.id, title: i.id, masteryScore: null, moveOn: i.moveOn ?? null })),
  });

const progress = (items: Record<string, Partial<PackageItemProgress>>): PackageProgress => ({
  ...NO_PACKAGE_PROGRESS,
  items: Object.fromEntries(Object.entries(items).map(([id, p]) => [id, { ...NO_ITEM_PROGRESS, ...p }])),
});

describe('package progress: after a report', () => {
  it('replaces what a report states and keeps what it does not', () => {
    const item = reported(['s1', { completion: 'incomplete', location: 'p1', suspendData: 'a', score: 40 }], ['s1', { location: 'p2' }]);
    expect(item).toMatchObject({ completion: 'incomplete', success: null, score: 40, location: 'p2', suspendData: 'a' });
    expect(afterReport(item, 's1', { success: 'failed', score: 55 })).toMatchObject({ completion: 'incomplete', success: 'failed', score: 55, location: 'p2' });
  });

  it('never moves an item back: completed stays completed, passed stays passed, the best score stays (a review, a worse retake)', () => {
    const done = reported(['s1', { completion: 'completed', success: 'passed', score: 80 }]);
    const reviewed = afterReport(done, 's2', { completion: 'incomplete', success: 'failed', score: 30, location: 'p1' });
    expect(reviewed).toMatchObject({ completion: 'completed', success: 'passed', score: 80, location: 'p1' });
    expect(changesOf(done, 's2', { completion: 'incomplete', success: 'unknown', score: 30 })).toEqual({});
    expect(changesOf(done, 's2', { score: 95 })).toEqual({ score: 95 });
    // Not yet passed: a failed attempt after another failed one is recorded as it is.
    const failed = reported(['s1', { success: 'failed', score: 40 }]);
    expect(changesOf(failed, 's1', { success: 'failed', score: 45 })).toEqual({ score: 45 });
  });

  it('adds up session times across launches, and within one launch only their growth (a package restates its session time on every commit)', () => {
    const first = reported(['s1', { sessionSeconds: 30 }], ['s1', { sessionSeconds: 50 }]);
    expect(first).toMatchObject({ totalSeconds: 50, session: { id: 's1', seconds: 50 } });
    // A smaller time in the same launch (a package that restarts its clock) adds nothing and lowers nothing.
    const smaller = afterReport(first, 's1', { sessionSeconds: 40 });
    expect(smaller).toMatchObject({ totalSeconds: 50, session: { id: 's1', seconds: 50 } });
    // A new launch starts its own session: its time counts in full.
    const second = afterReport(smaller, 's2', { sessionSeconds: 20 });
    expect(second).toMatchObject({ totalSeconds: 70, session: { id: 's2', seconds: 20 } });
    expect(afterReport(second, 's2', { sessionSeconds: 25 })).toMatchObject({ totalSeconds: 75, session: { id: 's2', seconds: 25 } });
    // A report without a time leaves the launch's session as it was.
    expect(afterReport(second, 's3', { location: 'x' })).toMatchObject({ totalSeconds: 70, session: { id: 's2', seconds: 20 } });
  });

  it('keeps the last interactions reported, as JSON', () => {
    const interactions = [{ id: 'q1', type: 'choice', response: 'a', result: 'correct', description: null }];
    const item = reported(['s1', { interactions }], ['s1', { location: 'p1' }]);
    expect(JSON.parse(item.interactions ?? 'null')).toEqual(interactions);
  });
});

describe('package progress: what a report changes', () => {
  const item = reported([
    's1',
    {
      completion: 'incomplete',
      success: 'unknown',
      score: 40,
      location: 'p1',
      suspendData: 'a',
      sessionSeconds: 30,
      interactions: [{ id: 'q1', type: null, response: 'a', result: null, description: null }],
    },
  ]);

  it('is everything stated on a first report, nothing on a report restating the same', () => {
    const report: RuntimeReport = { completion: 'unknown', success: 'unknown', score: 0, location: 'p1' };
    expect(changesOf(NO_ITEM_PROGRESS, 's1', report)).toEqual(report);
    expect(changesOf(afterReport(NO_ITEM_PROGRESS, 's1', report), 's1', report)).toEqual({});
  });

  it('is only the fields whose value differs', () => {
    expect(changesOf(item, 's1', { completion: 'incomplete', success: 'passed', score: 40, location: 'p2', suspendData: 'a' })).toEqual({
      success: 'passed',
      location: 'p2',
    });
    expect(changesOf(item, 's1', { completion: 'completed', score: 90, suspendData: 'b' })).toEqual({ completion: 'completed', score: 90, suspendData: 'b' });
  });

  it('has the session time when it adds time: grown in the same launch (stated in full, not the growth), or any time of a new launch', () => {
    expect(changesOf(item, 's1', { sessionSeconds: 30 })).toEqual({});
    expect(changesOf(item, 's1', { sessionSeconds: 29 })).toEqual({});
    expect(changesOf(item, 's1', { sessionSeconds: 45 })).toEqual({ sessionSeconds: 45 });
    expect(changesOf(item, 's2', { sessionSeconds: 30 })).toEqual({ sessionSeconds: 30 });
    // A new launch's first commit at zero seconds adds nothing.
    expect(changesOf(item, 's2', { sessionSeconds: 0 })).toEqual({});
  });

  it('has the interactions only when they differ from the last recorded', () => {
    expect(changesOf(item, 's1', { interactions: [{ id: 'q1', type: null, response: 'a', result: null, description: null }] })).toEqual({});
    const changed = [{ id: 'q1', type: null, response: 'b', result: null, description: null }];
    expect(changesOf(item, 's1', { interactions: changed })).toEqual({ interactions: changed });
  });
});

describe('package progress: the author’s rule and cmi5 moveOn', () => {
  it('"completed": an item completed, or passed (a pass finishes it), counts; incomplete, unknown or only failed does not', () => {
    const b = block('completed', [{ id: 'a' }]);
    const satisfied = (p: Partial<PackageItemProgress>) => itemSatisfied(b, 'a', progress({ a: p }));
    expect(satisfied({ completion: 'completed' })).toBe(true);
    expect(satisfied({ completion: 'completed', success: 'failed' })).toBe(true);
    expect(satisfied({ success: 'passed' })).toBe(true);
    expect(satisfied({ completion: 'incomplete' })).toBe(false);
    expect(satisfied({ completion: 'unknown', success: 'failed', score: 100 })).toBe(false);
    expect(itemSatisfied(b, 'a', NO_PACKAGE_PROGRESS)).toBe(false);
  });

  it('"passed": only a pass counts, not a completion', () => {
    const b = block('passed', [{ id: 'a' }]);
    const satisfied = (p: Partial<PackageItemProgress>) => itemSatisfied(b, 'a', progress({ a: p }));
    expect(satisfied({ success: 'passed' })).toBe(true);
    expect(satisfied({ completion: 'completed' })).toBe(false);
    expect(satisfied({ completion: 'completed', success: 'failed', score: 100 })).toBe(false);
  });

  it('"score": a score of at least the threshold, whatever the statuses say', () => {
    const b = block('score', [{ id: 'a' }], 80);
    const satisfied = (p: Partial<PackageItemProgress>) => itemSatisfied(b, 'a', progress({ a: p }));
    expect(satisfied({ score: 80 })).toBe(true);
    expect(satisfied({ score: 100, success: 'failed', completion: 'incomplete' })).toBe(true);
    expect(satisfied({ score: 79.9 })).toBe(false);
    expect(satisfied({ completion: 'completed', success: 'passed' })).toBe(false);
    expect(itemSatisfied(block('score', [{ id: 'a' }], 0), 'a', progress({ a: { score: 0 } }))).toBe(true);
  });

  it('cmi5 moveOn "Passed": a completed AU is not satisfied until it passes, even under the author’s "completed"', () => {
    const b = block('completed', [{ id: 'au', moveOn: 'Passed' }]);
    expect(itemSatisfied(b, 'au', progress({ au: { completion: 'completed' } }))).toBe(false);
    expect(itemSatisfied(b, 'au', progress({ au: { completion: 'completed', success: 'passed' } }))).toBe(true);
  });

  it('cmi5 moveOn "CompletedOrPassed": either; a failed, incomplete AU is not satisfied', () => {
    const b = block('score', [{ id: 'au', moveOn: 'CompletedOrPassed' }], 50);
    expect(itemSatisfied(b, 'au', progress({ au: { completion: 'completed', score: 60 } }))).toBe(true);
    expect(itemSatisfied(b, 'au', progress({ au: { success: 'passed', score: 60 } }))).toBe(true);
    expect(itemSatisfied(b, 'au', progress({ au: { completion: 'incomplete', success: 'failed', score: 60 } }))).toBe(false);
  });

  it('cmi5 moveOn "CompletedAndPassed": a completion alone is not enough; both are', () => {
    const b = block('score', [{ id: 'au', moveOn: 'CompletedAndPassed' }], 50);
    expect(itemSatisfied(b, 'au', progress({ au: { completion: 'completed', score: 60 } }))).toBe(false);
    expect(itemSatisfied(b, 'au', progress({ au: { completion: 'completed', success: 'passed', score: 60 } }))).toBe(true);
  });

  it('cmi5 moveOn "CompletedAndPassed": a pass alone, without a Completed statement, is not enough', () => {
    const b = block('passed', [{ id: 'au', moveOn: 'CompletedAndPassed' }]);
    expect(itemSatisfied(b, 'au', progress({ au: { success: 'passed' } }))).toBe(false);
  });

  it('cmi5 moveOn "Completed": a pass alone, without a Completed statement, is not enough', () => {
    const b = block('passed', [{ id: 'au', moveOn: 'Completed' }]);
    expect(itemSatisfied(b, 'au', progress({ au: { success: 'passed' } }))).toBe(false);
  });

  it('cmi5 moveOn "Completed": a completion satisfies it, and the author’s rule still applies', () => {
    expect(itemSatisfied(block('completed', [{ id: 'au', moveOn: 'Completed' }]), 'au', progress({ au: { completion: 'completed' } }))).toBe(true);
    expect(itemSatisfied(block('completed', [{ id: 'au', moveOn: 'Completed' }]), 'au', progress({ au: { completion: 'incomplete' } }))).toBe(false);
    expect(itemSatisfied(block('passed', [{ id: 'au', moveOn: 'Completed' }]), 'au', progress({ au: { completion: 'completed' } }))).toBe(false);
    // The author's rule met by the score, the AU not completed: moveOn decides.
    expect(itemSatisfied(block('score', [{ id: 'au', moveOn: 'Completed' }], 50), 'au', progress({ au: { completion: 'incomplete', score: 60 } }))).toBe(false);
  });

  it('cmi5 moveOn "NotApplicable" and SCORM items (no moveOn): only the author’s rule decides', () => {
    for (const moveOn of ['NotApplicable', null] as const) {
      const b = block('score', [{ id: 'au', moveOn }], 50);
      expect(itemSatisfied(b, 'au', progress({ au: { score: 50 } })), String(moveOn)).toBe(true);
      expect(itemSatisfied(b, 'au', progress({ au: { score: 49, completion: 'completed', success: 'passed' } })), String(moveOn)).toBe(false);
    }
  });
});

describe('package progress: the block', () => {
  const b = block('completed', [{ id: 'a' }, { id: 'b' }]);

  it('is done when every item of the package meets the rule, not before', () => {
    expect(packageDone(b, progress({ a: { completion: 'completed' } }))).toBe(false);
    expect(packageDone(b, progress({ a: { completion: 'completed' }, b: { completion: 'incomplete' } }))).toBe(false);
    expect(packageDone(b, progress({ a: { completion: 'completed' }, b: { success: 'passed' } }))).toBe(true);
    // Progress of an item the package does not hold (an older upload) satisfies nothing.
    expect(packageDone(b, progress({ a: { completion: 'completed' }, c: { completion: 'completed' } }))).toBe(false);
  });

  it('is never done without items', () => {
    expect(packageDone(block('completed', []), progress({ a: { completion: 'completed' } }))).toBe(false);
  });

  it('scores the mean of its items to one decimal, only when every item has a score', () => {
    expect(packageScore(b, progress({ a: { score: 80 }, b: { score: 65 } }))).toBe(72.5);
    expect(packageScore(b, progress({ a: { score: 100 }, b: { score: 33.3 } }))).toBe(66.7);
    expect(packageScore(b, progress({ a: { score: 0 }, b: { score: 0 } }))).toBe(0);
    expect(packageScore(b, progress({ a: { score: 80 } }))).toBeNull();
    expect(packageScore(b, progress({ a: { score: 80 }, b: { completion: 'completed' } }))).toBeNull();
    expect(packageScore(block('completed', []), NO_PACKAGE_PROGRESS)).toBeNull();
  });
});
