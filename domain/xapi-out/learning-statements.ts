import type { EnrollmentEvent } from '../courses/enrollment.ts';
import {
  ACTIVITY_TYPES,
  type LanguageMap,
  VERBS,
  type VerbKey,
  type XapiActivity,
  type XapiContext,
  type XapiResult,
  type XapiStatement,
} from './xapi-statement.ts';

/**
 * Learning events as xAPI statements (issue 35 item 5, decision 0061). Pure: the caller supplies what
 * the events do not carry (the course's and blocks' names, the person's opaque name) and the UUID v5
 * function, so a statement's id is a function of its event's id and a replay states the same statement.
 */

/** A stored event of an enrollment, as the log holds it. */
export type LearningEvent = {
  readonly eventId: string;
  readonly type: string;
  readonly data: unknown;
  /** `enrollment-<courseId>_<userId>`. */
  readonly streamName: string;
  /** When it happened (ISO 8601): the statement's timestamp. */
  readonly createdAt: string;
};

export type QuestionFacts = {
  readonly id: string;
  readonly text: string;
  readonly answers: readonly { readonly id: string; readonly text: string; readonly correct: boolean }[];
};

/** What a statement names of a block: its kind and name, and for a quiz its questions, for an NPS block its question. */
export type BlockFacts = {
  readonly id: number;
  readonly kind: string;
  readonly name: string;
  readonly questions?: readonly QuestionFacts[];
  readonly question?: string;
};

/** What a statement names of a course: its title, and every block it has had (an enrollment keeps its content version). */
export type CourseFacts = {
  readonly id: number;
  readonly title: string;
  readonly blocks: ReadonlyMap<number, BlockFacts>;
};

export type StatementContext = {
  /** The platform's public address: activities, the actor's home page and extensions live under it. */
  readonly publicUrl: string;
  /** The person's opaque, stable name for xAPI (never an e-mail, a username or a name). */
  readonly actorName: string;
  /** Null when the course is not known (then it is named by its number). */
  readonly course: CourseFacts | null;
  /** UUID v5 of a name under the platform's fixed namespace. */
  readonly uuid: (name: string) => string;
};

export type MappedStatement = { readonly verb: VerbKey; readonly statement: XapiStatement };

/** The course and person of an enrollment stream; null for any other stream. */
export const enrollmentOf = (streamName: string): { readonly courseId: number; readonly userId: number } | null => {
  const match = /^enrollment-(\d+)_(\d+)$/.exec(streamName);
  return match ? { courseId: Number(match[1]), userId: Number(match[2]) } : null;
};

type DataOf<T extends EnrollmentEvent['type']> = Extract<EnrollmentEvent, { type: T }>['data'];

/** The names activities and statements are derived under; `base` is the platform's public address. */
const iris = (base: string, courseId: number) => {
  const course = `${base}/xapi/activities/course/${courseId}`;
  return {
    course,
    block: (blockId: number) => `${course}/block/${blockId}`,
    question: (blockId: number, questionId: string) => `${course}/block/${blockId}/question/${encodeURIComponent(questionId)}`,
    webinar: `${course}/webinar`,
    certificate: `${course}/certificate`,
    extension: (name: string) => `${base}/xapi/extensions/${name}`,
  };
};

const VIDEO_TIME = 'https://w3id.org/xapi/video/extensions/time';
const VIDEO_PROGRESS = 'https://w3id.org/xapi/video/extensions/progress';
const VIDEO_LENGTH = 'https://w3id.org/xapi/video/extensions/length';

const sl = (text: string): LanguageMap => ({ 'sl-SI': text });
/** A name as a language map: a language map's value must not be empty. */
const named = (text: string, fallback: string): LanguageMap => sl(text.trim() === '' ? fallback : text.trim());
const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;
/** A percentage score (0 to 100) as xAPI's score. */
const percentScore = (score: number) => {
  const raw = Math.min(100, Math.max(0, round(score, 2)));
  return { scaled: round(raw / 100, 4), raw, min: 0, max: 100 };
};
const seconds = (value: number) => `PT${round(Math.max(0, value), 2)}S`;

const BLOCK_TYPES: Readonly<Record<string, string>> = {
  quiz: ACTIVITY_TYPES.assessment,
  nps: ACTIVITY_TYPES.interaction,
  video: ACTIVITY_TYPES.video,
};

/** One event's statements, built with the context; each kind of event is one function below. */
type Builder = {
  readonly course: XapiActivity;
  readonly block: (blockId: number) => XapiActivity;
  readonly blockFacts: (blockId: number) => BlockFacts | null;
  readonly iri: ReturnType<typeof iris>;
  /** A statement of `verb` about `object`; its id is derived from the event's id and the verb. */
  readonly state: (verb: VerbKey, object: XapiActivity, extra?: { result?: XapiResult; context?: XapiContext }) => MappedStatement;
};

/**
 * How each learning event of an enrollment is stated. An event type missing here states nothing;
 * learning-statements.unit.spec.ts lists every enrollment event as stated or deliberately not, so a new
 * one (the package runtime's, issue 35) fails that test until someone decides how it is stated.
 */
const STATED: { readonly [T in EnrollmentEvent['type']]?: (data: DataOf<T>, b: Builder) => MappedStatement[] } = {
  CourseStarted: (_data, b) => [b.state('attempted', b.course)],
  // Opening a block is experiencing it; blocks done by being opened (articles, files, points) are completed by it too.
  BlockOpened: (data, b) => [
    b.state('experienced', b.block(data.blockId)),
    ...(data.done ? [b.state('completed', b.block(data.blockId), { result: { completion: true } })] : []),
  ],
  VideoProgressed: (data, b) => [
    b.state('experienced', b.block(data.blockId), {
      result: {
        duration: seconds(data.seconds),
        extensions: { [VIDEO_TIME]: round(data.seconds, 3), [VIDEO_PROGRESS]: round(Math.min(1, data.seconds / data.duration), 3) },
      },
      context: { extensions: { [VIDEO_LENGTH]: round(data.duration, 3) } },
    }),
  ],
  VideoCompleted: (data, b) => [b.state('completed', b.block(data.blockId), { result: { completion: true } })],
  // The video's alternative content (an article or a file) read instead: the block is completed as well.
  AlternativeRead: (data, b) => [b.state('completed', b.block(data.blockId), { result: { completion: true } })],
  QuizAnswerSubmitted: (data, b) => {
    const question = b.blockFacts(data.blockId)?.questions?.find((q) => q.id === data.questionId);
    const object: XapiActivity = {
      objectType: 'Activity',
      id: b.iri.question(data.blockId, data.questionId),
      definition: {
        type: ACTIVITY_TYPES.interaction,
        interactionType: 'choice',
        name: named(question?.text ?? '', `Vprašanje ${data.questionId}`),
        ...(question
          ? {
              choices: question.answers.map((a) => ({ id: a.id, description: named(a.text, a.id) })),
              correctResponsesPattern: question.answers.filter((a) => a.correct).map((a) => a.id),
            }
          : {}),
      },
    };
    return [
      b.state('answered', object, {
        result: { success: data.correct, response: data.answerId, extensions: { [b.iri.extension('attempt')]: data.attempt } },
        context: { contextActivities: { parent: [b.block(data.blockId)], grouping: [b.course] } },
      }),
    ];
  },
  QuizPassed: (data, b) => [
    b.state('passed', b.block(data.blockId), {
      result: {
        score: percentScore(data.score),
        success: true,
        completion: true,
        extensions: { [b.iri.extension('attempt')]: data.attempt, [b.iri.extension('threshold')]: data.threshold },
      },
    }),
  ],
  QuizFailed: (data, b) => [
    b.state('failed', b.block(data.blockId), {
      result: {
        score: percentScore(data.score),
        success: false,
        extensions: { [b.iri.extension('attempt')]: data.attempt, [b.iri.extension('threshold')]: data.threshold },
      },
    }),
  ],
  // The last attempt of a set failed and the author ended the course there: the course is not passed.
  QuizAttemptsExhausted: (data, b) => (data.next === 'ended' ? [b.state('failed', b.course, { result: { success: false, completion: false } })] : []),
  // The score only: the comment is the participant's own words (personal data, decision 0019) and stays here.
  NpsAnswered: (data, b) => {
    const facts = b.blockFacts(data.blockId);
    const object: XapiActivity = {
      objectType: 'Activity',
      id: b.iri.block(data.blockId),
      definition: {
        type: ACTIVITY_TYPES.interaction,
        interactionType: 'numeric',
        name: named(facts?.name ?? '', `Anketa ${data.blockId}`),
        ...(facts?.question?.trim() ? { description: sl(facts.question.trim()) } : {}),
      },
    };
    return [b.state('answered', object, { result: { response: String(data.score), completion: true } })];
  },
  LivePresenceConfirmed: (data, b) => [
    b.state(
      'attended',
      { objectType: 'Activity', id: b.iri.webinar, definition: { type: ACTIVITY_TYPES.meeting, name: sl('Spletni dogodek') } },
      { context: { extensions: { [b.iri.extension('presence-check')]: data.checkIndex } } },
    ),
  ],
  CourseCompleted: (data, b) => [
    b.state('completed', b.course, { result: { completion: true, success: true, extensions: { [b.iri.extension('credit-points')]: data.creditPoints } } }),
  ],
  CertificateIssued: (_data, b) => [b.state('earned', { objectType: 'Activity', id: b.iri.certificate, definition: { name: sl('Certifikat') } })],
  // PackageReported, PackageScored, PackageCompleted (issue 35 items 1 to 3): see PACKAGE_STATED below.
};

/**
 * The package runtime's events (issue 35 item 3), read by their recorded shape rather than their types,
 * which are still being written: a scored item is passed or failed, a completed package block
 * completed. What a package reported step by step (PackageReported) is not restated: a cmi5 AU's own
 * statements are in the platform's LRS, and SCORM's commits are the runtime's bookkeeping.
 */
const PACKAGE_STATED: Readonly<Record<string, (data: Readonly<Record<string, unknown>>, b: Builder) => MappedStatement[]>> = {
  PackageScored: (data, b) => {
    if (typeof data.blockId !== 'number' || typeof data.passed !== 'boolean') return [];
    const score = typeof data.score === 'number' ? { score: percentScore(data.score) } : {};
    const attempt = typeof data.attempt === 'number' ? { extensions: { [b.iri.extension('attempt')]: data.attempt } } : {};
    return [b.state(data.passed ? 'passed' : 'failed', b.block(data.blockId), { result: { ...score, success: data.passed, ...attempt } })];
  },
  PackageCompleted: (data, b) => {
    if (typeof data.blockId !== 'number') return [];
    const score = typeof data.score === 'number' ? { score: percentScore(data.score) } : {};
    return [b.state('completed', b.block(data.blockId), { result: { ...score, completion: true } })];
  },
};

/** Every event type that may state something: what the forwarder reads from the log. */
export const STATED_EVENT_TYPES: readonly string[] = [...Object.keys(STATED), ...Object.keys(PACKAGE_STATED)];

/** The statements an event of an enrollment makes (none for other events). */
export const statementsOf = (event: LearningEvent, context: StatementContext): MappedStatement[] => {
  const enrollment = enrollmentOf(event.streamName);
  if (!enrollment) return [];
  const stated = STATED[event.type as EnrollmentEvent['type']] as ((data: unknown, b: Builder) => MappedStatement[]) | undefined;
  const packageStated = PACKAGE_STATED[event.type];
  if (!stated && !packageStated) return [];
  const { courseId } = enrollment;
  const iri = iris(context.publicUrl, courseId);
  const course: XapiActivity = {
    objectType: 'Activity',
    id: iri.course,
    definition: { type: ACTIVITY_TYPES.course, name: named(context.course?.title ?? '', `Izobraževanje ${courseId}`) },
  };
  const blockFacts = (blockId: number) => context.course?.blocks.get(blockId) ?? null;
  const block = (blockId: number): XapiActivity => {
    const facts = blockFacts(blockId);
    const type = facts ? (BLOCK_TYPES[facts.kind] ?? ACTIVITY_TYPES.module) : ACTIVITY_TYPES.module;
    return { objectType: 'Activity', id: iri.block(blockId), definition: { type, name: named(facts?.name ?? '', `Vsebina ${blockId}`) } };
  };
  const base: XapiContext = {
    // One registration per person and course: the statements of one way through a course belong together.
    registration: context.uuid(`registration/${context.actorName}/${courseId}`),
    platform: 'Medilearn',
    language: 'sl-SI',
  };
  const b: Builder = {
    course,
    block,
    blockFacts,
    iri,
    state: (verb, object, extra = {}) => {
      const isCourse = object.id === iri.course;
      const activities = extra.context?.contextActivities ?? (isCourse ? undefined : { parent: [course] });
      const statement: XapiStatement = {
        id: context.uuid(`statement/${event.eventId}/${verb}`),
        actor: { objectType: 'Agent', account: { homePage: context.publicUrl, name: context.actorName } },
        verb: VERBS[verb],
        object,
        ...(extra.result ? { result: extra.result } : {}),
        context: { ...base, ...extra.context, ...(activities ? { contextActivities: activities } : {}) },
        timestamp: event.createdAt,
      };
      return { verb, statement };
    },
  };
  const data = (event.data ?? {}) as Readonly<Record<string, unknown>>;
  return stated ? stated(data, b) : (packageStated as NonNullable<typeof packageStated>)(data, b);
};
