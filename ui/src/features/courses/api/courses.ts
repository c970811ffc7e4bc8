import { api } from '../../../lib/api-client.ts';
import { downloadFile } from '../../../lib/download.ts';

export type CourseStatus = 'active' | 'archived' | 'completed' | 'deleted' | 'expired' | 'reserved';

export type UserCourse = {
  id: number;
  type: number;
  title: string;
  description: string;
  cover: string;
  creditPoints: number;
  intervals: { startsAt: string; stopsAt: string }[];
  archived: boolean;
  enrollment: 'none' | 'started' | 'completed';
  blocksDone: number;
  blocksTotal: number;
  startedAt: string | null;
  completedAt: string | null;
  certificateId: string | null;
  /** The certificate's short number (decision 0032); anyone checks it at /certifikat/{number}. */
  certificateNumber: string | null;
  postsEnabled: boolean;
  certificateEnabled: boolean;
  status: CourseStatus;
  /** A quiz's set of attempts ran out (decision 0053): the course ended as not passed, or new attempts open at retryAt. */
  quizLock: { next: 'ended' | 'wait'; retryAt: string | null } | null;
  /** The course card's lecturer and the author's duration estimate in minutes (issue 33); null when not set. */
  lecturer: string | null;
  durationMinutes: number | null;
};

export type QuizFields = {
  kind: 'quiz';
  name: string;
  batchSize: number;
  successThreshold: number;
  retries: number;
  questions: { id: string; text: string; answers: { id: string; text: string }[] }[];
  /** When the right answers are shown (decision 0053); the server fills the defaults of older quizzes. */
  revealAnswers: 'always' | 'afterLast' | 'never';
  afterLastFail: { kind: 'end'; message: string; contact: string } | { kind: 'wait'; hours: number };
};
export type NpsFields = {
  kind: 'nps';
  name: string;
  question: string;
  set: number;
  reasons: { detractor: string[]; neutral: string[]; promoter: string[] };
  commentEnabled: boolean;
  /** Only those for everyone or for the participant's profession group reach the participant. */
  followUps: { professionGroupId: number | null; question: string; answers: string[] }[];
};
export type VideoFields = {
  kind: 'video';
  name: string;
  vimeoId: string | null;
  fileUrl: string | null;
  durationSeconds: number | null;
  alternative: { kind: 'article'; html: string } | { kind: 'textFile'; fileUrl: string } | null;
};
/** A SCORM or cmi5 package (issue 35): its items as the server read them from the package, and the author's rule. */
export type PackageFields = {
  kind: 'package';
  name: string;
  packageId: number;
  completion: 'completed' | 'passed' | 'score';
  threshold: number | null;
  standard?: 'scorm12' | 'scorm2004' | 'cmi5';
  items?: { id: string; title: string; masteryScore: number | null; moveOn: string | null }[];
};
export type BlockFields =
  | QuizFields
  | PackageFields
  | NpsFields
  | VideoFields
  | { kind: 'points'; name: string; points: number }
  | { kind: 'article'; name: string; html: string }
  | { kind: 'textFile'; name: string; fileUrl: string }
  | { kind: 'typeform'; name: string; typeformId: string }
  | { kind: 'interactr'; name: string; html: string };

export type Block = { id: number; course_id: number; position: number; kind: BlockFields['kind']; name: string; fields: BlockFields };
export type BlockRecord = {
  block_id: number;
  course_id: number;
  opened: boolean;
  done: boolean;
  videoSeconds: number;
  quizAttempts: number;
  quizScore: number | null;
  quizPassed: boolean | null;
  /** Attempts of earlier sets: the current set's are quizAttempts - quizRoundFrom (decision 0053). */
  quizRoundFrom: number;
  /** After a set's last failed attempt: the course ended as not passed, or new attempts open at quizRetryAt. */
  quizNext: 'ended' | 'wait' | null;
  quizRetryAt: string | null;
  npsScore: number | null;
};
export type StepResult = { events: string[]; completed: boolean };

/** spec §8 viewer logs: a failed load is logged with the spec's message and shown to the user by the page. */
const logged = async <T>(message: string, load: () => Promise<T>) => {
  try {
    return await load();
  } catch (error) {
    console.error(message, error);
    throw error;
  }
};

export const listUserCourses = (query: { filter?: 'new' | 'completed' | 'archived' | undefined; search?: string | undefined }) =>
  api<{ items: UserCourse[] }>('GET', '/user-courses', { query });
/** The course page's course: besides the list item, the files offered with it. */
export type LiveDetail = {
  roomId: string;
  startsAt: string;
  stopsAt: string;
  phase: 'upcoming' | 'live' | 'ended';
  checks: { index: number; opensAt: string; closesAt: string; confirmed: boolean }[];
  windowSeconds: number;
  attended: boolean;
  recordingVimeoId: string | null;
  serverTime: string;
};
export type UserCourseDetail = UserCourse & {
  attachments: { fileId: number; name: string; contentType: string; size: number }[];
  zoomUrl: string | null;
  /** A live webinar (course type 8) with its presence checks (issue 17). */
  live: LiveDetail | null;
  /** The code of the approved content the course was published under (issue 36); null or absent: none. */
  approvalCode?: string | null;
};
export const getUserCourse = (id: number) => api<UserCourseDetail>('GET', `/user-courses/${id}`);
/** spec §7 GET /block?course_id= */
export const listBlocks = (courseId: number) =>
  logged('Unable to fetch blocks', () => api<{ items: Block[] }>('GET', '/block', { query: { course_id: courseId } }));
/** spec §7 GET /record?course_id= */
export const listRecords = (courseId: number) =>
  logged('Unable to fetch records', () => api<{ items: BlockRecord[] }>('GET', '/record', { query: { course_id: courseId } }));
/** spec §7 GET /communities: the participant's unit shown in the viewer. */
export const getCommunity = (unitId: number) =>
  logged('Unable to fetch community', () =>
    api<{ data: { id: number; name: string; company_name: string | null }[] }>('GET', '/communities', { query: { filterIds: [unitId] } }),
  );

const step = (courseId: number, path: string, body?: object) => api<StepResult>('POST', `/user-courses/${courseId}${path}`, body ? { body } : {});
export const startCourse = (courseId: number) => step(courseId, '/start');
export const openBlock = (courseId: number, blockId: number) => step(courseId, `/blocks/${blockId}/open`);
export const reportVideo = (courseId: number, blockId: number, seconds: number, duration: number) =>
  step(courseId, `/blocks/${blockId}/video-progress`, { seconds, duration });
export const readAlternative = (courseId: number, blockId: number) => step(courseId, `/blocks/${blockId}/alternative`);
export const submitQuiz = (courseId: number, blockId: number, answers: Record<string, string>) => step(courseId, `/blocks/${blockId}/quiz`, { answers });
/** The participant's review of a quiz (issue 33): each attempt, per question right or wrong; the right answer as the author allows. */
export type QuizReview = {
  revealAnswers: 'always' | 'afterLast' | 'never';
  revealed: boolean;
  attemptsPerSet: number;
  attemptsLeft: number;
  passed: boolean;
  next: 'ended' | 'wait' | null;
  retryAt: string | null;
  message: string | null;
  contact: string | null;
  attempts: {
    attempt: number;
    score: number;
    passed: boolean;
    questions: {
      questionId: string;
      text: string;
      answerId: string;
      answer: string | null;
      correct: boolean;
      rightAnswer: string | null;
      explanation: string | null;
    }[];
  }[];
};
export const getQuizReview = (courseId: number, blockId: number) => api<QuizReview>('GET', `/user-courses/${courseId}/blocks/${blockId}/quiz/attempts`);
/** Confirms presence at the live webinar's open check (spec §4 live page). */
export const confirmPresence = (courseId: number, checkIndex: number) => step(courseId, '/live/presence', { checkIndex });
export const answerNps = (courseId: number, blockId: number, input: { score: number; reasons: string[]; comment: string | null; followUps: string[] }) =>
  step(courseId, `/blocks/${blockId}/nps`, input);

/** The certificate needs the session token, so it is fetched and handed to the browser as a file. */
export const downloadCertificate = (course: { id: number; certificateNumber: string | null }) =>
  downloadFile(`/api/user-courses/${course.id}/certificate`, `certifikat-${course.certificateNumber ?? course.id}.pdf`);
