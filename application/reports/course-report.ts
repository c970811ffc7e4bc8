import { can, canSomewhere, communityReach, type Subject } from '../../domain/permissions/can.ts';
import { type CourseReportRequest, REPORT_COMMENTS_LIMIT, REPORT_MESSAGES } from '../../domain/reports/course-report.rules.ts';
import { courseReportDecider, courseReportStream } from '../../domain/reports/course-report.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import type { EventMetadata, EventStore } from '../../infrastructure/event-store/event-store.port.ts';
import type { IdAllocator } from '../../infrastructure/ids/id-allocator.port.ts';
import { lastComments } from '../../projections/courses/course-comments.queries.ts';
import type { CourseReportEntry } from '../../projections/reports/course-reports.queries.ts';
import {
  participantUnits,
  type ReportCourse,
  reportCourse,
  reportNpsBlocks,
  reportTimeline,
  successByUnit,
} from '../../projections/stats/course-report.queries.ts';
import {
  billedCompany,
  COMMUNITY_KINDS,
  type CommunityKind,
  companiesOfUnits,
  costTimeline,
  courseReachable,
  courseSuccess,
  npsByCommunity,
  overviewOf,
  rate,
  type StatsDb,
  type StatsScope,
  type Window,
} from '../../projections/stats/stats.queries.ts';
import { handleCommand } from '../shared/handle-command.ts';

export type CourseReportDeps = { readonly store: EventStore; readonly ids: IdAllocator; readonly db: StatsDb; readonly now: () => Date };

export const reportNotFound = () => new DomainError('404', 'Poročilo ne obstaja.', { status: 404 });
const courseNotFound = () => new DomainError('404', 'Izobraževanje ne obstaja.', { status: 404 });
const forbidden = () => new DomainError('403', 'Nimate pravic za ogled tega poročila.', { status: 403 });

/**
 * What a reader of a course's reports may see (decision 0027), as the statistics pages allow it
 * (decision 0015): the figures of everyone with 1064 (reports) or 1056 (block views), of the
 * participants in their units with 1059; the detailed NPS with 1064 or 1057, or 1060 in their
 * units; comments with 1064, 1031 or 1058, or 1061 (of the participants in their units); costs
 * with 1052, or 2009 when the course is billed to their company. A community reader of a course
 * that is not their companies' is told it does not exist.
 */
export type ReportReader = {
  readonly scope: StatsScope;
  readonly detailed: StatsScope | null;
  /** null: comments are not shown to this reader; `all`: everyone's. */
  readonly comments: { readonly all: true } | { readonly all: false; readonly unitIds: readonly number[]; readonly companyIds: readonly number[] } | null;
  readonly costs: (courseId: number, asOf: Date) => Promise<boolean>;
};

type CommunityScope = Extract<StatsScope, { all: false }>;
const community = (subject: Subject, permission: number): CommunityScope => ({ all: false, ...communityReach(subject, permission) });

export const reportReader = async (db: StatsDb, subject: Subject, courseId: number): Promise<ReportReader> => {
  const system = (permission: number) => can(subject, permission, { kind: 'system' });
  let scope: StatsScope;
  if (can(subject, 1064, { kind: 'system' }) || can(subject, 1056, { kind: 'system' })) scope = { all: true };
  else if (canSomewhere(subject, 1059)) {
    const reach = community(subject, 1059);
    const companies = await companiesOfUnits(db, reach.unitIds, reach.companyIds);
    if (!(await courseReachable(db, courseId, companies))) throw courseNotFound();
    scope = reach;
  } else throw forbidden();
  const detailed: StatsScope | null =
    system(1064) || can(subject, 1057, { kind: 'system' }) ? { all: true } : canSomewhere(subject, 1060) ? community(subject, 1060) : null;
  const comments =
    system(1064) || can(subject, 1031, { kind: 'system' }) || can(subject, 1058, { kind: 'system' })
      ? ({ all: true } as const)
      : canSomewhere(subject, 1061)
        ? community(subject, 1061)
        : null;
  const costs = async (id: number, asOf: Date) => {
    if (can(subject, 1052, { kind: 'system' })) return true;
    if (!canSomewhere(subject, 2009)) return false;
    const reach = communityReach(subject, 2009);
    const own = await companiesOfUnits(db, reach.unitIds, reach.companyIds);
    const billed = await billedCompany(db, id, asOf);
    return billed !== null && own.includes(billed);
  };
  return { scope, detailed, comments, costs };
};

/** The window of a report: its interval as it was when made (or all time), cut at its date. */
export const reportWindow = (entry: Pick<CourseReportEntry, 'intervalId' | 'interval' | 'date'>): Window => {
  const asOf = new Date(entry.date);
  if (!entry.interval) return { from: new Date(0), to: asOf, asOf, intervalId: entry.intervalId };
  const stop = new Date(entry.interval.stopsAt);
  return { from: new Date(entry.interval.startsAt), to: stop < asOf ? stop : asOf, asOf, intervalId: entry.intervalId };
};

/** The report's NPS section: each NPS block's summary, distribution and (when asked for) reasons and the detailed rows. */
const reportNps = async (db: StatsDb, reader: ReportReader, courseId: number, entry: CourseReportEntry, w: Window) => {
  const detailedFor = async (blockId: number) => {
    if (!entry.npsDetailed || !reader.detailed) return null;
    const scope = reader.detailed;
    const rows = await Promise.all(COMMUNITY_KINDS.map((kind) => npsByCommunity(db, courseId, blockId, w, scope, kind)));
    return Object.fromEntries(COMMUNITY_KINDS.map((kind, i) => [kind, rows[i]])) as Record<CommunityKind, Awaited<ReturnType<typeof npsByCommunity>>>;
  };
  return Promise.all(
    (await reportNpsBlocks(db, courseId, w, reader.scope)).map(async (block) => {
      const overview = overviewOf(block.answers, false);
      const detailed = await detailedFor(block.blockId);
      const { comments: _none, reasons, distribution, ...summary } = overview;
      return { blockId: block.blockId, name: block.name, ...summary, distribution, reasons: entry.npsReasons ? reasons : null, detailed };
    }),
  );
};

/** The report's per-unit section: each unit the course was opened from, as that unit's success page counts it, with the first NPS block's score there. */
const reportChildren = async (db: StatsDb, scope: StatsScope, courseId: number, w: Window, firstNpsBlock: Promise<number | undefined>) => {
  const units = (await participantUnits(db, courseId, w, scope)).filter(
    (u) => scope.all || scope.unitIds.includes(u.id) || scope.companyIds.includes(u.companyId),
  );
  const npsOfUnits = async () => {
    const blockId = await firstNpsBlock;
    return new Map(blockId === undefined ? [] : (await npsByCommunity(db, courseId, blockId, w, scope, 'unit')).map((row) => [row.id, row]));
  };
  // Each unit as its own success page counts it (courseSuccess with that unit's scope), all units in one statement.
  const [npsByUnit, byUnit] = await Promise.all([
    npsOfUnits(),
    successByUnit(
      db,
      courseId,
      w,
      units.map((u) => u.id),
    ),
  ]);
  return units.map((unit) => {
    const s = byUnit.get(unit.id) ?? { started: 0, completed: 0, attempted: 0, passed: 0 };
    return {
      id: unit.id,
      name: unit.name,
      participants: s.started,
      completions: s.completed,
      completionRate: rate(s.completed, s.started),
      successRate: rate(s.passed, s.attempted),
      npsScore: npsByUnit.get(unit.id)?.score ?? null,
      npsAnswers: npsByUnit.get(unit.id)?.answers ?? 0,
    };
  });
};

/**
 * The report's figures for this reader: the same queries as the statistics pages, in the report's
 * window and as of its date, so they equal what those pages showed at that instant. The sections do
 * not depend on one another and go to the pool at once (the screens bench had the report at 4.5x its
 * plain baseline when its twenty-odd statements ran one after another, docs/benchmarks.md).
 */
export const courseReportFigures = async (db: StatsDb, reader: ReportReader, course: ReportCourse, entry: CourseReportEntry) => {
  const w = reportWindow(entry);
  const { scope } = reader;
  const nps = reportNps(db, reader, course.id, entry, w);
  const [success, { creditPointsIssued, ...timeline }, npsRows, children, costs, comments] = await Promise.all([
    courseSuccess(db, course.id, w, scope),
    reportTimeline(db, course.id, w, scope),
    nps,
    entry.children
      ? reportChildren(
          db,
          scope,
          course.id,
          w,
          nps.then((blocks) => blocks[0]?.blockId),
        )
      : null,
    reader.costs(course.id, w.asOf).then((shown) => (shown ? costTimeline(db, course.id, w, 'month') : null)),
    reader.comments ? lastComments(db, course.id, w, reader.comments.all ? null : reader.comments, REPORT_COMMENTS_LIMIT) : null,
  ]);
  return {
    report: entry,
    course: { id: course.id, title: course.title, creditPoints: course.creditPoints, detailNps: course.detailNps },
    window: { intervalId: w.intervalId, from: w.from.toISOString(), to: w.to.toISOString(), asOf: w.asOf.toISOString() },
    /** Whether the figures are everyone's or those of the reader's units only. */
    scope: scope.all ? ('all' as const) : ('community' as const),
    participation: {
      participants: success.started,
      completions: success.completed,
      completionRate: success.completionRate,
      attempted: success.attempted,
      passed: success.passed,
      successRate: success.successRate,
      firstAttemptRate: success.firstAttemptRate,
      averageScore: success.averageScore,
      creditPointsIssued,
    },
    timeline,
    nps: npsRows,
    children,
    costs: costs ? { costs: costs.costs, setAt: costs.setAt, figures: costs.figures } : null,
    comments: comments ? [...comments] : null,
    /** Sections left out because this reader may not see them (the report's options asked for them). */
    withheld: {
      costs: costs === null,
      comments: comments === null,
      detailedNps: entry.npsDetailed && reader.detailed === null,
    },
  };
};

export type CourseReportFigures = Awaited<ReturnType<typeof courseReportFigures>>;

/** The figures could not be computed or drawn: spec §8 "report error", the cause kept for the log. */
export class ReportFailed extends DomainError {
  readonly reason: unknown;
  constructor(reason: unknown) {
    super('500', REPORT_MESSAGES.failed, { status: 500 });
    this.reason = reason;
  }
}

/** Runs a step of producing a report; anything but a rule the caller broke becomes the report error. */
export const producing = async <T>(work: () => Promise<T>): Promise<T> => {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DomainError && error.status < 500) throw error;
    throw new ReportFailed(error);
  }
};

export const loadReportCourse = async (db: StatsDb, courseId: number) => (await reportCourse(db, courseId)) ?? Promise.reject(courseNotFound());

/**
 * Generates a report (1064): the figures are produced first, so a report that cannot be produced
 * is not logged (spec §8 report error); then `CourseReportGenerated` is the log entry.
 */
export const generateCourseReport = async (
  deps: CourseReportDeps,
  subject: Subject,
  courseId: number,
  request: CourseReportRequest,
  metadata: EventMetadata,
) => {
  const course = await loadReportCourse(deps.db, courseId);
  const now = deps.now();
  const command = {
    type: 'GenerateCourseReport' as const,
    reportId: 0,
    courseId,
    intervalId: request.intervalId,
    date: request.date ? new Date(request.date) : null,
    children: request.children,
    npsDetailed: request.npsDetailed,
    npsReasons: request.npsReasons,
    course: { detailNps: course.detailNps, intervals: course.intervals },
    now,
  };
  // The rules first (nothing is allocated for a refused request), then the figures, then the fact.
  const [decided] = courseReportDecider.decide(command, courseReportDecider.initialState);
  if (!decided) throw reportNotFound();
  const reader = await reportReader(deps.db, subject, courseId);
  const { reportId: _unallocated, ...logged } = decided.data;
  const provisional: CourseReportEntry = { ...logged, id: 0, courseId, timeCreated: now.toISOString(), user: null };
  await producing(() => courseReportFigures(deps.db, reader, course, provisional));
  const reportId = await deps.ids.next('course_report');
  const result = await handleCommand(deps.store, {
    streamName: courseReportStream(reportId),
    decider: courseReportDecider,
    command: { ...command, reportId },
    metadata,
  });
  return { id: reportId, position: result.position };
};
