import type { PackageBlock } from '../../domain/courses/course.rules.ts';
import { blocksAt } from '../../domain/courses/course.ts';
import type { Enrollment } from '../../domain/courses/enrollment.ts';
import { NO_ITEM_PROGRESS, NO_PACKAGE_PROGRESS } from '../../domain/courses/package-progress.ts';
import { learnerAgent } from '../../domain/packages/learner-agent.ts';
import type { Cmi5Outcome, PackageLaunch } from '../../domain/packages/package-launch.ts';
import { type RuntimeReport, runtimeOfScormCommit, runtimeReportRule } from '../../domain/packages/package-runtime.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import type { EventMetadata } from '../../infrastructure/event-store/event-store.port.ts';
import type { PackagesDeps } from './packages.deps.ts';
import { loadCourse, takeCourseStep } from './take-course.ts';

const notFound = () => new DomainError('404', 'Vsebinski blok ne obstaja.', { status: 404 });

/**
 * An activity id under the platform's address for an item of a block: SCORM items have no IRI of their
 * own, and a cmi5 launch's activity id must not be the AU's id from cmi5.xml (cmi5 §8.1: the LMS makes one).
 */
const itemActivityId = (publicUrl: string, courseId: number, blockId: number, itemId: string) =>
  `${publicUrl}/xapi/activities/course/${courseId}/block/${blockId}/item/${encodeURIComponent(itemId)}`;

/** The URL a cmi5 AU is launched with (cmi5 §8.1): the LRS, the one-time fetch URL, the actor, registration and activity. */
const cmi5LaunchUrl = (deps: PackagesDeps, launch: PackageLaunch, base: string, fetchToken: string) => {
  const { publicUrl } = deps.settings;
  const query = new URLSearchParams({
    endpoint: `${publicUrl}/xapi/`,
    fetch: `${publicUrl}/xapi/cmi5/fetch/${fetchToken}`,
    actor: JSON.stringify(learnerAgent(publicUrl, launch.userId)),
    registration: launch.registration,
    activityId: launch.activityId,
  });
  return `${base}${base.includes('?') ? '&' : '?'}${query.toString()}`;
};

/** What the player resumes an item with: the package's own saved state, as the participant left it (on any device). */
export type ItemResume = {
  readonly completion: string | null;
  readonly success: string | null;
  readonly score: number | null;
  readonly location: string | null;
  readonly suspendData: string | null;
  readonly totalSeconds: number;
};

/**
 * A participant launches an item of a package block (issue 35 item 2): the block must be theirs to
 * open now (the course visible to them, started, the blocks before it done), as for opening any block.
 * The launch gets tokens for the content origin (and for cmi5 the LRS); the player gets the URL to
 * frame and the saved state to resume from.
 */
export const launchPackageItem = async (
  deps: PackagesDeps,
  input: { userId: number; courseId: number; blockId: number; itemId: string },
  metadata: EventMetadata,
) => {
  const opened = await takeCourseStep(deps, input.userId, input.courseId, { type: 'OpenBlock', blockId: input.blockId }, metadata);
  const enrollment = opened.state as Enrollment;
  const course = await loadCourse(deps, input.courseId);
  const block = blocksAt(course, enrollment.contentVersion).find((b) => b.id === input.blockId);
  if (block?.fields.kind !== 'package') throw notFound();
  const fields = block.fields as PackageBlock;
  const stored = await deps.packages.describe(fields.packageId);
  const item = stored?.structure.items.find((i) => i.id === input.itemId);
  if (!stored || !item) throw new DomainError('400', 'Ta enota ni del paketa.', { status: 400, field: 'itemId' });
  const standard = stored.structure.standard;
  const { launch, contentToken, fetchToken } = await deps.packageLaunches.create(
    {
      registration: (await deps.packageLaunches.registrationOf(input.userId, input.courseId, input.blockId, item.id)) ?? undefined,
      packageId: stored.id,
      courseId: input.courseId,
      blockId: input.blockId,
      userId: input.userId,
      itemId: item.id,
      standard,
      activityId: itemActivityId(deps.settings.publicUrl, input.courseId, input.blockId, item.id),
      moveOn: item.moveOn,
      masteryScore: item.masteryScore === null ? null : item.masteryScore / 100,
      launchParameters: item.launchParameters,
    },
    deps.now(),
  );
  const content = `${deps.settings.packages.contentOrigin}/p/${contentToken}/`;
  // The "launched" statement names the AU's address without the launch's token (report readers read it).
  if (standard === 'cmi5') await deps.prepareCmi5Launch(launch, { launchUrl: `${deps.settings.packages.contentOrigin}/${item.launch}` });
  const url = standard === 'cmi5' ? cmi5LaunchUrl(deps, launch, `${content}${item.launch}`, fetchToken) : `${content}__scorm/frame.html`;
  const progress = (enrollment.blocks[input.blockId]?.package ?? NO_PACKAGE_PROGRESS).items[item.id] ?? NO_ITEM_PROGRESS;
  const resume: ItemResume = {
    completion: progress.completion ?? null,
    success: progress.success ?? null,
    score: progress.score,
    location: progress.location,
    suspendData: progress.suspendData,
    totalSeconds: progress.totalSeconds,
  };
  return {
    standard,
    registration: launch.registration,
    session: launch.sessionId,
    itemId: item.id,
    url,
    contentOrigin: deps.settings.packages.contentOrigin,
    resume,
    position: opened.position,
  };
};

/** A report through a launch: recorded as a step of the launch's participant in its course, by its id once. */
type ReportDeps = Omit<PackagesDeps, 'prepareCmi5Launch'>;
const report = (deps: ReportDeps, launch: PackageLaunch, sessionId: string, reportId: string, given: RuntimeReport, metadata: EventMetadata) => {
  const parsed = runtimeReportRule.safeParse(given);
  if (!parsed.success) throw new DomainError('400', 'Podatki paketa niso veljavni.', { status: 400, field: 'cmi' });
  return takeCourseStep(
    deps,
    launch.userId,
    launch.courseId,
    { type: 'ReportPackage', blockId: launch.blockId, itemId: launch.itemId, sessionId, reportId, report: parsed.data },
    metadata,
  );
};

/**
 * A SCORM commit the player forwards (issue 35 item 3): the whole CMI as scorm-again renders it, once
 * per commit (not per SetValue); `reportId` is the player's id for the commit, so a retry records nothing twice.
 * Only the participant's own launch of this block is taken.
 */
export const commitScorm = async (
  deps: PackagesDeps,
  input: { userId: number; courseId: number; blockId: number; registration: string; session: string; reportId: string; cmi: unknown },
  metadata: EventMetadata,
) => {
  const launch = await deps.packageLaunches.byRegistration(input.registration);
  if (!launch || launch.userId !== input.userId || launch.courseId !== input.courseId || launch.blockId !== input.blockId || launch.standard === 'cmi5')
    throw notFound();
  // A newer launch of the item (another tab, another device) took over: this one's state is older, and recording
  // it would undo what the newer one reported (and count its session time against the newer session).
  if (launch.sessionId !== input.session)
    throw new DomainError('409', 'Ta vsebina je bila medtem odprta v drugem oknu ali napravi. Zaprite jo tukaj in jo zaženite znova.', { status: 409 });
  return report(deps, launch, launch.sessionId, input.reportId, runtimeOfScormCommit(launch.standard, input.cmi), metadata);
};

/** What a cmi5 defined statement says about the AU (cmi5 §9.3), as a runtime report. */
const cmi5Report = (outcome: Cmi5Outcome): RuntimeReport | null => {
  const score = outcome.scaled === null ? {} : { score: Math.max(0, Math.min(100, Math.round(outcome.scaled * 1000) / 10)) };
  const time = outcome.durationSeconds === null ? {} : { sessionSeconds: outcome.durationSeconds };
  switch (outcome.verb) {
    case 'completed':
      return { completion: 'completed', ...time };
    case 'passed':
      return { success: 'passed', ...score, ...time };
    case 'failed':
      return { success: 'failed', ...score, ...time };
    // Waived (cmi5 §9.3.8): the LMS satisfied the AU by other means; it counts as completed and passed.
    case 'waived':
      return { completion: 'completed', success: 'passed' };
    case 'terminated':
    case 'abandoned':
      return outcome.durationSeconds === null ? null : time;
    default:
      return null;
  }
};

/** The LRS stored a cmi5 defined statement of a launch: its outcome is a step of the participant (moveOn and the author's rule decide the block). */
export const recordCmi5Outcome = (deps: ReportDeps) => async (launch: PackageLaunch, outcome: Cmi5Outcome) => {
  const given = cmi5Report(outcome);
  if (given === null) return;
  // Session times are per AU session: an earlier session's "abandoned" (stated at the next launch) is that session's.
  await report(deps, launch, outcome.sessionId ?? launch.sessionId, outcome.statementId, given, { actorId: launch.userId, correlationId: outcome.statementId });
};
