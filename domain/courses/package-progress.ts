import type { RuntimeReport } from '../packages/package-runtime.ts';
import type { MoveOn } from '../packages/package-structure.ts';
import type { PackageBlock } from './course.rules.ts';

/**
 * A participant's progress in a package block (issue 35, decision 0059): per item (SCO or AU) what
 * the package last reported, kept to resume it (location, suspend data, time) and to decide by the
 * author's rule when the block is done. enrollment.ts records the reports as events.
 */
export type PackageItemProgress = {
  readonly completion: RuntimeReport['completion'] | null;
  readonly success: RuntimeReport['success'] | null;
  readonly score: number | null;
  readonly location: string | null;
  readonly suspendData: string | null;
  readonly totalSeconds: number;
  /** The session time last reported and its launch: a package restates its session time on every commit. */
  readonly session: { readonly id: string; readonly seconds: number } | null;
  /** The interactions last recorded, as JSON: a commit restating them records nothing new. */
  readonly interactions: string | null;
};

export type PackageProgress = {
  readonly items: Readonly<Record<string, PackageItemProgress>>;
  /** Reports already recorded (commit ids, statement ids): a retried one changes nothing. */
  readonly reports: readonly string[];
  /** Results recorded so far (PackageScored): the next is attempt n + 1. */
  readonly results: number;
};

export const NO_PACKAGE_PROGRESS: PackageProgress = { items: {}, reports: [], results: 0 };
export const NO_ITEM_PROGRESS: PackageItemProgress = {
  completion: null,
  success: null,
  score: null,
  location: null,
  suspendData: null,
  totalSeconds: 0,
  session: null,
  interactions: null,
};

/** The seconds a session time adds: within one launch only its growth (it is restated on every commit). */
const addedSeconds = (item: PackageItemProgress, sessionId: string, seconds: number | undefined) => {
  if (seconds === undefined) return 0;
  return item.session?.id === sessionId ? Math.max(0, seconds - item.session.seconds) : seconds;
};

/**
 * What of a report moves an item on: a completed item stays completed, a passed one passed, and the best
 * score stays (a participant who reviews a finished SCO, which restarts as "incomplete", or retakes it
 * worse, keeps what they achieved; a package of several items is not undone one item at a time).
 */
const forward = (item: PackageItemProgress, report: RuntimeReport): RuntimeReport => {
  const kept: RuntimeReport = { ...report };
  if (item.completion === 'completed' && report.completion !== 'completed') delete kept.completion;
  if (item.success === 'passed' && report.success !== 'passed') delete kept.success;
  if (item.score !== null && report.score !== undefined && report.score < item.score) delete kept.score;
  return kept;
};

/** An item's progress after a report of launch `sessionId`: what it states moves it on (never back); session times add up. */
export const afterReport = (item: PackageItemProgress, sessionId: string, given: RuntimeReport): PackageItemProgress => {
  const report = forward(item, given);
  return {
    completion: report.completion ?? item.completion,
    success: report.success ?? item.success,
    score: report.score ?? item.score,
    location: report.location ?? item.location,
    suspendData: report.suspendData ?? item.suspendData,
    totalSeconds: item.totalSeconds + addedSeconds(item, sessionId, report.sessionSeconds),
    interactions: report.interactions === undefined ? item.interactions : JSON.stringify(report.interactions),
    session:
      report.sessionSeconds === undefined
        ? item.session
        : { id: sessionId, seconds: Math.max(report.sessionSeconds, item.session?.id === sessionId ? item.session.seconds : 0) },
  };
};

/** Only what a report changes, so an event does not repeat what the stream already says. */
export const changesOf = (item: PackageItemProgress, sessionId: string, given: RuntimeReport): RuntimeReport => {
  const report = forward(item, given);
  const changed: Record<string, unknown> = {};
  if (report.completion !== undefined && report.completion !== item.completion) changed.completion = report.completion;
  if (report.success !== undefined && report.success !== item.success) changed.success = report.success;
  if (report.score !== undefined && report.score !== item.score) changed.score = report.score;
  if (report.location !== undefined && report.location !== item.location) changed.location = report.location;
  if (report.suspendData !== undefined && report.suspendData !== item.suspendData) changed.suspendData = report.suspendData;
  if (report.sessionSeconds !== undefined && addedSeconds(item, sessionId, report.sessionSeconds) > 0) changed.sessionSeconds = report.sessionSeconds;
  if (report.interactions !== undefined && JSON.stringify(report.interactions) !== item.interactions) changed.interactions = report.interactions;
  return changed as RuntimeReport;
};

const completed = (p: PackageItemProgress) => p.completion === 'completed' || p.success === 'passed';
const passed = (p: PackageItemProgress) => p.success === 'passed';

/**
 * cmi5 moveOn (cmi5 §13.1.4): the package's own condition for an AU. Unlike the author's "completed"
 * rule, cmi5 keeps completion and success apart: "Completed" needs a completed statement, a pass alone
 * does not complete an AU.
 */
const moveOnMet = (moveOn: MoveOn | null, p: PackageItemProgress) => {
  const completedAu = p.completion === 'completed';
  switch (moveOn) {
    case 'Passed':
      return passed(p);
    case 'Completed':
      return completedAu;
    case 'CompletedAndPassed':
      return completedAu && passed(p);
    case 'CompletedOrPassed':
      return completedAu || passed(p);
    default:
      return true;
  }
};

/** The author's rule for one item: completed, passed, or a score of at least the threshold. */
const ruleMet = (block: PackageBlock, p: PackageItemProgress) => {
  if (block.completion === 'completed') return completed(p);
  if (block.completion === 'passed') return passed(p);
  return p.score !== null && p.score >= (block.threshold ?? 100);
};

/** An item is satisfied when the author's rule holds and, for cmi5, the AU's moveOn too. */
export const itemSatisfied = (block: PackageBlock, itemId: string, progress: PackageProgress) => {
  const item = (block.items ?? []).find((i) => i.id === itemId);
  const p = progress.items[itemId] ?? NO_ITEM_PROGRESS;
  return ruleMet(block, p) && moveOnMet(item?.moveOn ?? null, p);
};

/** The block is done when every item of the package is satisfied. */
export const packageDone = (block: PackageBlock, progress: PackageProgress) =>
  (block.items ?? []).length > 0 && (block.items ?? []).every((item) => itemSatisfied(block, item.id, progress));

/** The block's score: the mean of its items' scores, when every item has one. */
export const packageScore = (block: PackageBlock, progress: PackageProgress): number | null => {
  const scores = (block.items ?? []).map((item) => progress.items[item.id]?.score ?? null);
  if (scores.length === 0 || scores.some((s) => s === null)) return null;
  return Math.round(((scores as number[]).reduce((a, b) => a + b, 0) / scores.length) * 10) / 10;
};

/** How many report ids a block remembers: far more than a player ever retries, bounded so the state stays small. */
export const REPORTS_REMEMBERED = 500;
