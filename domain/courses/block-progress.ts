import type { QuizBlock } from './course.rules.ts';
import type { CourseBlock } from './course.ts';
import type { PackageProgress } from './package-progress.ts';

/**
 * A participant's progress in one block of a course, and the rules that read it alone: when opening
 * a block is enough, how far a video report may run ahead, how many quiz attempts a set allows.
 * enrollment.ts keeps the stream, its events and the decisions that need the whole course.
 */
export type BlockProgress = {
  readonly opened: boolean;
  readonly done: boolean;
  readonly videoSeconds: number;
  /** When the watched time last grew (ISO); null before or for older events. */
  readonly videoAt: string | null;
  /** The longest video length reported: a later report cannot shorten the video to finish it sooner. */
  readonly videoDuration: number;
  readonly quizAttempts: number;
  readonly quizScore: number | null;
  /** Attempts of earlier sets (issue 33): the current set counts from here. */
  readonly quizRoundFrom: number;
  /** After the last failed attempt of a set: the course ended as not passed, or a wait until a new set. */
  readonly quizLock: QuizLock | null;
  readonly npsScore: number | null;
  /** A package block's items (issue 35); null for other blocks and before the first report. */
  readonly package: PackageProgress | null;
};

export type QuizLock = { readonly next: 'ended' } | { readonly next: 'wait'; readonly retryAt: string };

/** A block not opened yet. */
export const NO_PROGRESS: BlockProgress = {
  opened: false,
  done: false,
  videoSeconds: 0,
  videoAt: null,
  videoDuration: 0,
  quizAttempts: 0,
  quizScore: null,
  quizRoundFrom: 0,
  quizLock: null,
  npsScore: null,
  package: null,
};

/** Blocks that are done by being opened: everything but video, quiz, NPS and packages. */
export const doneWhenOpened = (block: CourseBlock) => !['video', 'quiz', 'nps', 'package'].includes(block.fields.kind);

/** A video counts as watched at 90 % (players report the last seconds unreliably). */
export const VIDEO_DONE_SHARE = 0.9;
/** The fastest playback a player offers (2×): watched time grows at most this fast. */
export const VIDEO_MAX_RATE = 2;
/** What a report may run ahead of the time since the last one (a first report, a player's rounding). */
export const VIDEO_SLACK_SECONDS = 10;

/**
 * The most watched time a report may claim (issue 33 item 8: seeking to the end counted as watched):
 * what was accepted before, plus the time since then at the fastest playback, plus the slack. A
 * report claiming more is taken at this, so watching on counts and jumping ahead does not.
 */
export const plausibleVideoSeconds = (progress: BlockProgress, now: Date) => {
  const since = progress.videoAt === null ? 0 : Math.max(0, now.getTime() - Date.parse(progress.videoAt)) / 1000;
  return progress.videoSeconds + since * VIDEO_MAX_RATE + VIDEO_SLACK_SECONDS;
};

/** Attempts a set allows: the first and the retries. */
export const attemptsPerSet = (quiz: QuizBlock) => quiz.retries + 1;

/**
 * A stream from before decision 0053 whose last set of attempts failed has no recorded outcome:
 * opening the quiz records it then, so such a participant leaves the dead end too.
 */
export const missingOutcome = (progress: BlockProgress, quiz: QuizBlock) =>
  !progress.done && progress.quizLock === null && progress.quizAttempts > 0 && progress.quizAttempts - progress.quizRoundFrom >= attemptsPerSet(quiz);
