import { z } from 'zod';
import { interactionsOfEvent, type RuntimeReport, runtimeReportRule } from '../packages/package-runtime.ts';
import type { Decider } from '../shared/decider.ts';
import { DomainError } from '../shared/domain-error.ts';
import { defineEvent, type EventsOf, ownerFromStream } from '../shared/event.ts';
import { npsCategory } from '../stats/nps.ts';
import {
  attemptsPerSet,
  type BlockProgress,
  doneWhenOpened,
  missingOutcome,
  NO_PROGRESS,
  plausibleVideoSeconds,
  type QuizLock,
  VIDEO_DONE_SHARE,
} from './block-progress.ts';
import { type CertificateIssuer, certificateIssuer } from './certificate.ts';
import { type NpsBlock, type PackageBlock, type QuizBlock, quizOutcomeOf } from './course.rules.ts';
import { blocksAt, type Course, type CourseBlock } from './course.ts';
import { attended, openCheck } from './live-presence.ts';
import {
  afterReport,
  changesOf,
  NO_ITEM_PROGRESS,
  NO_PACKAGE_PROGRESS,
  type PackageProgress,
  packageDone,
  packageScore,
  REPORTS_REMEMBERED,
} from './package-progress.ts';

/**
 * A participant's way through one course: every step is an event in `enrollment-<courseId>_<userId>`.
 * Decisions need the course as it is now and what else the participant completed, so commands
 * carry them (the application reads them); the decider stays pure. A block's own progress and the
 * rules that read it alone are in block-progress.ts.
 */
export const enrollmentStream = (courseId: number, userId: number) => `enrollment-${courseId}_${userId}`;

const blockId = z.number().int().positive();

export const enrollmentEvents = [
  // `contentVersion`: the course's content when the participant started; they keep it (decision 0021). Older events lack it.
  defineEvent(
    'CourseStarted',
    z.object({ courseId: z.number().int().positive(), userId: z.number().int().positive(), contentVersion: z.number().int().min(0).optional() }),
  ),
  // `done`: articles, text files, typeforms and credit points are done by being opened.
  defineEvent('BlockOpened', z.object({ blockId, done: z.boolean() })),
  // `seconds`: watched time as accepted; `at`: when (older events lack it), so the next report is held to the time since.
  defineEvent('VideoProgressed', z.object({ blockId, seconds: z.number().min(0), duration: z.number().positive(), at: z.string().optional() })),
  defineEvent('VideoCompleted', z.object({ blockId })),
  defineEvent('AlternativeRead', z.object({ blockId })),
  defineEvent(
    'QuizAnswerSubmitted',
    z.object({ blockId, attempt: z.number().int().positive(), questionId: z.string(), answerId: z.string(), correct: z.boolean() }),
  ),
  defineEvent('QuizPassed', z.object({ blockId, attempt: z.number().int().positive(), score: z.number(), threshold: z.number() })),
  defineEvent(
    'QuizFailed',
    z.object({ blockId, attempt: z.number().int().positive(), score: z.number(), threshold: z.number(), retriesLeft: z.number().int().min(0) }),
  ),
  // Issue 33 (decision 0053): the last attempt of a set failed; what follows, decided from the decision's clock:
  // the course ends as not passed, or a new set of attempts opens at `retryAt`.
  defineEvent(
    'QuizAttemptsExhausted',
    z.object({ blockId, attempt: z.number().int().positive(), next: z.enum(['ended', 'wait']), retryAt: z.iso.datetime().optional() }),
  ),
  // A new set of attempts began (the first submit after `retryAt`); attempts up to `afterAttempt` belong to earlier sets.
  defineEvent('QuizAttemptsRenewed', z.object({ blockId, afterAttempt: z.number().int().min(0) })),
  defineEvent(
    'NpsAnswered',
    z.object({ blockId, score: z.number().int().min(0).max(10), reasons: z.array(z.string()), comment: z.string().nullable(), followUps: z.array(z.string()) }),
    // The comment is the participant's own words (decision 0019); the score stays for the statistics.
    { personal: { fields: ['comment'], owner: (_data, streamName) => ownerFromStream(streamName) } },
  ),
  // Issue 17 item 5: an attendee confirmed presence at a live webinar's check (live-presence.ts).
  defineEvent('LivePresenceConfirmed', z.object({ checkIndex: z.number().int().min(0) })),
  // Issue 35 (decision 0059): what a SCORM package committed or a cmi5 AU stated about one item, only what
  // changed; `reportId` (the player's commit id, the statement's id) makes a retried report change nothing.
  defineEvent(
    'PackageReported',
    runtimeReportRule.omit({ interactions: true }).extend({
      blockId,
      itemId: z.string().max(2000),
      reportId: z.string().min(1).max(200),
      // The launch the report came from: session times are per launch.
      sessionId: z.string().max(100),
      suspendData: z.string().max(64_000).nullable().optional(),
      // The interactions (answers to the package's questions) as JSON: a text, so it can be a personal field.
      interactions: z.string().max(2_000_000).nullable().optional(),
    }),
    // Suspend data is whatever the package keeps about the participant, and interactions hold their answers (free
    // text too): theirs, sealed with their key and gone with it (decision 0051).
    { personal: { fields: ['suspendData', 'interactions'], owner: (_data, streamName) => ownerFromStream(streamName) } },
  ),
  // A result of a package item (a success status or a score reported): success rates and the course report count these like quiz attempts.
  defineEvent(
    'PackageScored',
    z.object({ blockId, itemId: z.string().max(2000), attempt: z.number().int().positive(), score: z.number().nullable(), passed: z.boolean() }),
  ),
  // Every item of the package satisfies the author's rule (and cmi5 moveOn): the block is done.
  defineEvent('PackageCompleted', z.object({ blockId, score: z.number().nullable() })),
  defineEvent('CourseCompleted', z.object({ creditPoints: z.number() })),
  // `issuer` (issue 18, decision 0032): the participant's unit and company at completion, which issue it; certificates
  // issued before have none and take the participant's unit and company as they are now.
  defineEvent('CertificateIssued', z.object({ certificateId: z.uuid(), issuer: certificateIssuer.nullable().optional() })),
] as const;

export type EnrollmentEvent = EventsOf<typeof enrollmentEvents>;

export type Enrollment = {
  readonly status: 'started' | 'completed';
  readonly courseId: number;
  readonly userId: number;
  readonly blocks: Readonly<Record<number, BlockProgress>>;
  readonly certificateId: string | null;
  /** The course content version the participant takes; null for enrollments from before versions were kept (they follow the current content). */
  readonly contentVersion: number | null;
  /** The live webinar checks confirmed (issue 17), in order. */
  readonly presence: readonly number[];
};

export type EnrollmentState = { readonly status: 'none' } | Enrollment;

/** What a decision about the course needs to know besides the enrollment itself. */
export type EnrollmentContext = {
  readonly course: Course;
  readonly completedCourseIds: readonly number[];
  readonly now: Date;
};

export type EnrollmentCommand = { readonly context: EnrollmentContext } & (
  | { type: 'StartCourse'; userId: number }
  | { type: 'OpenBlock'; blockId: number }
  | { type: 'ReportVideoProgress'; blockId: number; seconds: number; duration: number }
  | { type: 'ReadAlternative'; blockId: number }
  | { type: 'SubmitQuiz'; blockId: number; answers: Readonly<Record<string, string>> }
  | { type: 'AnswerNps'; blockId: number; score: number; reasons: readonly string[]; comment: string | null; followUps: readonly string[] }
  | { type: 'IssueCertificate'; certificateId: string; issuer?: CertificateIssuer | null }
  | { type: 'ConfirmPresence'; checkIndex: number }
  | { type: 'ReportPackage'; blockId: number; itemId: string; sessionId: string; reportId: string; report: RuntimeReport }
);

const progressOf = (state: Enrollment, id: number) => state.blocks[id] ?? NO_PROGRESS;

const withBlock = (state: Enrollment, id: number, change: (p: BlockProgress) => BlockProgress): Enrollment => ({
  ...state,
  blocks: { ...state.blocks, [id]: change(progressOf(state, id)) },
});

export const evolveEnrollment = (state: EnrollmentState, event: EnrollmentEvent): EnrollmentState => {
  if (event.type === 'CourseStarted')
    return {
      status: 'started',
      courseId: event.data.courseId,
      userId: event.data.userId,
      blocks: {},
      certificateId: null,
      contentVersion: event.data.contentVersion ?? null,
      presence: [],
    };
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'BlockOpened':
      return withBlock(state, event.data.blockId, (p) => ({ ...p, opened: true, done: p.done || event.data.done }));
    case 'VideoProgressed':
      return withBlock(state, event.data.blockId, (p) => ({
        ...p,
        opened: true,
        videoSeconds: Math.max(p.videoSeconds, event.data.seconds),
        videoAt: event.data.at ?? p.videoAt,
        videoDuration: Math.max(p.videoDuration, event.data.duration),
      }));
    case 'VideoCompleted':
    case 'AlternativeRead':
      return withBlock(state, event.data.blockId, (p) => ({ ...p, opened: true, done: true }));
    case 'QuizAnswerSubmitted':
      return withBlock(state, event.data.blockId, (p) => ({ ...p, opened: true, quizAttempts: Math.max(p.quizAttempts, event.data.attempt) }));
    case 'QuizPassed':
      return withBlock(state, event.data.blockId, (p) => ({ ...p, done: true, quizAttempts: event.data.attempt, quizScore: event.data.score }));
    case 'QuizFailed':
      return withBlock(state, event.data.blockId, (p) => ({ ...p, quizAttempts: event.data.attempt, quizScore: event.data.score }));
    case 'QuizAttemptsExhausted': {
      const { next, retryAt } = event.data;
      const lock: QuizLock = next === 'wait' && retryAt ? { next, retryAt } : { next: 'ended' };
      return withBlock(state, event.data.blockId, (p) => ({ ...p, quizLock: lock }));
    }
    case 'QuizAttemptsRenewed':
      return withBlock(state, event.data.blockId, (p) => ({ ...p, quizRoundFrom: event.data.afterAttempt, quizLock: null }));
    case 'NpsAnswered':
      return withBlock(state, event.data.blockId, (p) => ({ ...p, opened: true, done: true, npsScore: event.data.score }));
    case 'PackageReported': {
      const { blockId: id, itemId, reportId, sessionId, suspendData, interactions, ...report } = event.data;
      const answers = interactionsOfEvent(interactions);
      return withBlock(state, id, (p) => {
        const pack = p.package ?? NO_PACKAGE_PROGRESS;
        const item = afterReport(pack.items[itemId] ?? NO_ITEM_PROGRESS, sessionId, {
          ...report,
          ...(suspendData != null ? { suspendData } : {}),
          ...(answers ? { interactions: answers } : {}),
        });
        const reports = [...pack.reports, reportId].slice(-REPORTS_REMEMBERED);
        return { ...p, opened: true, package: { ...pack, items: { ...pack.items, [itemId]: item }, reports } };
      });
    }
    case 'PackageScored':
      return withBlock(state, event.data.blockId, (p) => ({ ...p, package: { ...(p.package ?? NO_PACKAGE_PROGRESS), results: event.data.attempt } }));
    case 'PackageCompleted':
      return withBlock(state, event.data.blockId, (p) => ({ ...p, opened: true, done: true }));
    case 'LivePresenceConfirmed':
      return state.presence.includes(event.data.checkIndex) ? state : { ...state, presence: [...state.presence, event.data.checkIndex] };
    case 'CourseCompleted':
      return { ...state, status: 'completed' };
    case 'CertificateIssued':
      return { ...state, certificateId: event.data.certificateId };
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
};

const fail = (code: string, message: string, status = 422, field?: string) => new DomainError(code, message, { status, ...(field ? { field } : {}) });

/** Courses open to start or continue: published, not deleted; archived ones only to those who already started. */
const requireOpen = (context: EnrollmentContext, started: boolean) => {
  const course = context.course;
  if (course.status === 'deleted' || (!course.published && course.status !== 'archived')) throw fail('404', 'Izobraževanje ne obstaja.', 404);
  if (course.status === 'archived' && !started) throw fail('422', 'Izobraževanje je arhivirano.');
};

/** "Only inside an interval": a course without intervals is always open. */
export const insideInterval = (course: Course, now: Date) =>
  course.fields.intervals.length === 0 || course.fields.intervals.some((i) => new Date(i.startsAt) <= now && now < new Date(i.stopsAt));

const requireBlock = (context: EnrollmentContext, id: number): { block: CourseBlock; index: number } => {
  const index = context.course.blocks.findIndex((b) => b.id === id);
  if (index < 0) throw fail('404', 'Vsebinski blok ne obstaja.', 404);
  return { block: context.course.blocks[index] as CourseBlock, index };
};

/** Blocks in order: every block before this one must be done. */
const requireReachable = (state: Enrollment, context: EnrollmentContext, index: number) => {
  const blocked = context.course.blocks.slice(0, index).some((b) => !progressOf(state, b.id).done);
  if (blocked) throw fail('422', 'Najprej zaključite prejšnje vsebine.');
};

/** After a step: the course is completed when every block is done; a certificate follows when enabled. */
const completion = (state: Enrollment, context: EnrollmentContext, step: EnrollmentEvent[]): EnrollmentEvent[] => {
  if (state.status === 'completed') return step;
  const after = step.reduce<EnrollmentState>(evolveEnrollment, state) as Enrollment;
  // A live webinar (type 8 with its live fields) is completed only by those who attended it as well.
  const live = context.course.fields.live ?? null;
  const present = live === null || attended(live, after.presence);
  const allDone = present && context.course.blocks.length > 0 && context.course.blocks.every((b) => progressOf(after, b.id).done);
  return allDone ? [...step, { type: 'CourseCompleted', data: { creditPoints: context.course.fields.creditPoints } }] : step;
};

const requireStarted = (state: EnrollmentState): Enrollment => {
  if (state.status === 'none') throw fail('422', 'Izobraževanje še ni začeto.');
  return state;
};

const RETRY_DAY = new Intl.DateTimeFormat('sl-SI', { timeZone: 'Europe/Ljubljana', day: 'numeric', month: 'numeric', year: 'numeric' });
const RETRY_TIME = new Intl.DateTimeFormat('sl-SI', { timeZone: 'Europe/Ljubljana', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
/** "16. 6. 2026 ob 12:00", Ljubljana time. */
const retryAtText = (at: Date) => `${RETRY_DAY.format(at)} ob ${RETRY_TIME.format(at)}`;

/** The outcome recorded after the last failed attempt of a set, as the author chose (decision 0053). */
const exhausted = (quiz: QuizBlock, id: number, attempt: number, now: Date): EnrollmentEvent => {
  const after = quizOutcomeOf(quiz).afterLastFail;
  return after.kind === 'end'
    ? { type: 'QuizAttemptsExhausted', data: { blockId: id, attempt, next: 'ended' } }
    : { type: 'QuizAttemptsExhausted', data: { blockId: id, attempt, next: 'wait', retryAt: new Date(now.getTime() + after.hours * 3_600_000).toISOString() } };
};

const submitQuiz = (state: Enrollment, context: EnrollmentContext, id: number, answers: Readonly<Record<string, string>>): EnrollmentEvent[] => {
  const { block, index } = requireBlock(context, id);
  if (block.fields.kind !== 'quiz') throw fail('400', 'Ta blok ni kviz.', 400);
  requireReachable(state, context, index);
  const quiz = block.fields as QuizBlock;
  const progress = progressOf(state, id);
  if (progress.done) throw fail('422', 'Kviz je že opravljen.');
  const renewal: EnrollmentEvent[] = [];
  let roundFrom = progress.quizRoundFrom;
  if (progress.quizLock?.next === 'ended') throw fail('422', 'Poskusov za ta kviz ni več: izobraževanje ni opravljeno.');
  if (progress.quizLock?.next === 'wait') {
    const retryAt = new Date(progress.quizLock.retryAt);
    if (context.now < retryAt) throw fail('422', `Nove poskuse za ta kviz boste lahko začeli ${retryAtText(retryAt)}.`);
    renewal.push({ type: 'QuizAttemptsRenewed', data: { blockId: id, afterAttempt: progress.quizAttempts } });
    roundFrom = progress.quizAttempts;
  }
  const attempt = progress.quizAttempts + 1;
  if (attempt > roundFrom + attemptsPerSet(quiz)) throw fail('422', 'Ni več poskusov za ta kviz.');
  const unanswered = quiz.questions.filter((q) => !answers[q.id]);
  if (unanswered.length > 0) throw fail('400', 'Odgovorite na vsa vprašanja.', 400, 'answers');
  const submitted: EnrollmentEvent[] = quiz.questions.map((q) => {
    const answerId = answers[q.id] as string;
    const answer = q.answers.find((a) => a.id === answerId);
    if (!answer) throw fail('400', 'Izbrani odgovor ne obstaja.', 400, 'answers');
    return { type: 'QuizAnswerSubmitted', data: { blockId: id, attempt, questionId: q.id, answerId, correct: answer.correct === true } };
  });
  const correct = submitted.filter((e) => e.type === 'QuizAnswerSubmitted' && e.data.correct).length;
  const score = Math.round((correct / quiz.questions.length) * 1000) / 10;
  const retriesLeft = roundFrom + attemptsPerSet(quiz) - attempt;
  const outcome: EnrollmentEvent[] =
    score >= quiz.successThreshold
      ? [{ type: 'QuizPassed', data: { blockId: id, attempt, score, threshold: quiz.successThreshold } }]
      : [
          { type: 'QuizFailed', data: { blockId: id, attempt, score, threshold: quiz.successThreshold, retriesLeft } },
          ...(retriesLeft === 0 ? [exhausted(quiz, id, attempt, context.now)] : []),
        ];
  return completion(state, context, [...renewal, ...submitted, ...outcome]);
};

const answerNps = (state: Enrollment, context: EnrollmentContext, command: Extract<EnrollmentCommand, { type: 'AnswerNps' }>): EnrollmentEvent[] => {
  const { block, index } = requireBlock(context, command.blockId);
  if (block.fields.kind !== 'nps') throw fail('400', 'Ta blok ni anketa NPS.', 400);
  requireReachable(state, context, index);
  const nps = block.fields as NpsBlock;
  if (progressOf(state, command.blockId).done) throw fail('422', 'Na anketo ste že odgovorili.');
  if (!Number.isInteger(command.score) || command.score < 0 || command.score > 10) throw fail('400', 'Ocena je med 0 in 10.', 400, 'score');
  const allowed = nps.reasons[npsCategory(command.score)];
  if (command.reasons.some((r) => !allowed.includes(r))) throw fail('400', 'Izbrani razlog ne obstaja.', 400, 'reasons');
  const comment = nps.commentEnabled && command.comment?.trim() ? command.comment.trim().slice(0, 2000) : null;
  return completion(state, context, [
    {
      type: 'NpsAnswered',
      data: { blockId: command.blockId, score: command.score, reasons: [...new Set(command.reasons)], comment, followUps: [...command.followUps] },
    },
  ]);
};

/**
 * A package's report about one item (issue 35): recorded once (by its id), only what changed; a result
 * (success status or score) counts as an attempt for success rates; the block is done when every
 * item meets the author's rule. Reports after the block is done still record progress (a participant
 * may review), but the block stays done.
 */
const reportPackage = (state: Enrollment, context: EnrollmentContext, command: Extract<EnrollmentCommand, { type: 'ReportPackage' }>): EnrollmentEvent[] => {
  const { block, index } = requireBlock(context, command.blockId);
  if (block.fields.kind !== 'package') throw fail('400', 'Ta blok ni paket SCORM/cmi5.', 400);
  const pack = block.fields as PackageBlock;
  if (!(pack.items ?? []).some((item) => item.id === command.itemId)) throw fail('400', 'Ta enota ni del paketa.', 400, 'itemId');
  requireReachable(state, context, index);
  const progress = progressOf(state, block.id);
  const current: PackageProgress = progress.package ?? NO_PACKAGE_PROGRESS;
  if (current.reports.includes(command.reportId)) return [];
  const before = current.items[command.itemId] ?? NO_ITEM_PROGRESS;
  const { interactions, ...changes } = changesOf(before, command.sessionId, command.report);
  // A commit that changes nothing (autocommit while the participant reads) is no fact to record.
  if (Object.keys(changes).length === 0 && interactions === undefined) return [];
  const step: EnrollmentEvent[] = [
    {
      type: 'PackageReported',
      data: {
        blockId: block.id,
        itemId: command.itemId,
        reportId: command.reportId,
        sessionId: command.sessionId,
        ...changes,
        ...(interactions === undefined ? {} : { interactions: JSON.stringify(interactions) }),
      },
    },
  ];
  const after = afterReport(before, command.sessionId, command.report);
  const resultChanged = (changes.success !== undefined && changes.success !== 'unknown') || (changes.score !== undefined && after.success !== null);
  if (resultChanged && (after.success === 'passed' || after.success === 'failed'))
    step.push({
      type: 'PackageScored',
      data: { blockId: block.id, itemId: command.itemId, attempt: current.results + 1, score: after.score, passed: after.success === 'passed' },
    });
  const next: PackageProgress = { ...current, items: { ...current.items, [command.itemId]: after } };
  if (!progress.done && packageDone(pack, next)) step.push({ type: 'PackageCompleted', data: { blockId: block.id, score: packageScore(pack, next) } });
  return completion(state, context, step);
};

export const decideEnrollment = (command: EnrollmentCommand, state: EnrollmentState): EnrollmentEvent[] => {
  const { context } = command;
  if (command.type === 'StartCourse') {
    if (state.status !== 'none') return [];
    requireOpen(context, false);
    const missing = context.course.fields.prerequisites.filter((id) => !context.completedCourseIds.includes(id));
    if (missing.length > 0) throw fail('422', 'Najprej zaključite izobraževanja, ki so pogoj za to izobraževanje.');
    if (!insideInterval(context.course, context.now)) throw fail('422', 'Izobraževanje ta čas ni na voljo.');
    return [{ type: 'CourseStarted', data: { courseId: context.course.id, userId: command.userId, contentVersion: context.course.contentVersion } }];
  }
  // A course without a webinar has no presence to confirm, whoever asks and whatever they did before.
  if (command.type === 'ConfirmPresence' && !context.course.fields.live) throw fail('400', 'To izobraževanje nima spletnega dogodka.', 400);
  const enrollment = requireStarted(state);
  requireOpen(context, true);
  // Every later step is decided on the content the participant started with (decision 0021).
  const pinned: EnrollmentContext = { ...context, course: { ...context.course, blocks: blocksAt(context.course, enrollment.contentVersion) } };
  return decideStep(command, enrollment, pinned);
};

const decideStep = (command: Exclude<EnrollmentCommand, { type: 'StartCourse' }>, enrollment: Enrollment, context: EnrollmentContext): EnrollmentEvent[] => {
  switch (command.type) {
    case 'OpenBlock': {
      const { block, index } = requireBlock(context, command.blockId);
      requireReachable(enrollment, context, index);
      const progress = progressOf(enrollment, block.id);
      if (block.fields.kind === 'quiz' && missingOutcome(progress, block.fields as QuizBlock))
        return [exhausted(block.fields as QuizBlock, block.id, progress.quizAttempts, context.now)];
      if (progress.opened && (progress.done || !doneWhenOpened(block))) return [];
      return completion(enrollment, context, [{ type: 'BlockOpened', data: { blockId: block.id, done: doneWhenOpened(block) } }]);
    }
    case 'ReportVideoProgress': {
      const { block, index } = requireBlock(context, command.blockId);
      if (block.fields.kind !== 'video') throw fail('400', 'Ta blok ni video.', 400);
      requireReachable(enrollment, context, index);
      const progress = progressOf(enrollment, block.id);
      const seconds = Math.min(command.seconds, plausibleVideoSeconds(progress, context.now));
      if (seconds <= progress.videoSeconds || progress.done) return [];
      // The length is the author's where set; otherwise the longest the player reported. The browser's
      // word alone let a first report of 10 s "of 11" finish an hour's lecture (review of issue 33).
      const duration = block.fields.durationSeconds ?? Math.max(command.duration, progress.videoDuration);
      const step: EnrollmentEvent[] = [{ type: 'VideoProgressed', data: { blockId: block.id, seconds, duration, at: context.now.toISOString() } }];
      if (seconds >= duration * VIDEO_DONE_SHARE) step.push({ type: 'VideoCompleted', data: { blockId: block.id } });
      return completion(enrollment, context, step);
    }
    case 'ReadAlternative': {
      const { block, index } = requireBlock(context, command.blockId);
      if (block.fields.kind !== 'video' || !block.fields.alternative) throw fail('400', 'Ta blok nima nadomestne vsebine.', 400);
      requireReachable(enrollment, context, index);
      return progressOf(enrollment, block.id).done ? [] : completion(enrollment, context, [{ type: 'AlternativeRead', data: { blockId: block.id } }]);
    }
    case 'ReportPackage':
      return reportPackage(enrollment, context, command);
    case 'SubmitQuiz':
      return submitQuiz(enrollment, context, command.blockId, command.answers);
    case 'AnswerNps':
      return answerNps(enrollment, context, command);
    case 'ConfirmPresence': {
      const live = context.course.fields.live;
      if (!live) throw fail('400', 'To izobraževanje nima spletnega dogodka.', 400);
      const check = openCheck(live, context.now);
      if (check === null || check.index !== command.checkIndex) throw fail('422', 'Potrditev prisotnosti ni več mogoča: čas za potrditev je potekel.');
      if (enrollment.presence.includes(check.index)) return [];
      return completion(enrollment, context, [{ type: 'LivePresenceConfirmed', data: { checkIndex: check.index } }]);
    }
    case 'IssueCertificate':
      if (enrollment.status !== 'completed') throw fail('422', 'Certifikat je na voljo po zaključenem izobraževanju.');
      if (!context.course.fields.certificateEnabled) throw fail('422', 'To izobraževanje nima certifikata.');
      return enrollment.certificateId
        ? []
        : [{ type: 'CertificateIssued', data: { certificateId: command.certificateId, ...(command.issuer ? { issuer: command.issuer } : {}) } }];
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
};

export const enrollmentDecider: Decider<EnrollmentCommand, EnrollmentEvent, EnrollmentState> = {
  initialState: { status: 'none' },
  evolve: evolveEnrollment,
  decide: decideEnrollment,
};
