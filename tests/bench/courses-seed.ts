// The courses bench's seed in memory (courses.bench.ts; the soak seeds a smaller one): the
// organisation, participants, courses and their audiences, and each participant's way through the
// courses they see, from one fixed random seed so every run builds the same data.

import { randomUUID } from 'node:crypto';
import { isPrescriptionOnly } from '../../domain/courses/course-types.rules.ts';

/** How much organisation the seed builds (the soak benchmark seeds less than this one). */
export type SeedSizes = { participants: number; companies: number; unitsPerCompany: number; professions: number; courses: number };
/** The courses bench's sizes: 10,000 participants in 200 units of 20 companies, 10 professions, 200 courses. */
export const COURSES_BENCH_SIZES: SeedSizes = { participants: 10_000, companies: 20, unitsPerCompany: 10, professions: 10, courses: 200 };

/** Deterministic pseudo-random numbers (mulberry32), so every run seeds the same data. */
export const random = (seed: number) => {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

export const shuffled = <T>(items: readonly T[], rnd: () => number) => {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
};

export type Fact = { type: string; data: unknown };
export type Participant = { id: number; unit: number; company: number; profession: number };
export type Audience = { public: boolean; companyIds: number[]; unitIds: number[]; professionIds: number[] };
export type SeedCourse = { id: number; audience: Audience; blocks: { video: number; quiz: number; nps: number; points: number } };
export type Enrollment = { courseId: number; userId: number; sessions: Fact[][] };

/** The seeded professions with odd ids may prescribe or supply medicines (the admin's flag, issue 36). */
export const mayPrescribe = (professionId: number) => professionId % 2 === 1;

/**
 * Who sees a course, as decision 0011 says, for the audiences seeded here; an RX course (type 1)
 * only a prescriber of a profession it names (decision 0062), whatever else its audience says.
 */
const visible = (c: SeedCourse, p: Participant) => {
  const a = c.audience;
  if (isPrescriptionOnly(courseType(c.id)) && !(mayPrescribe(p.profession) && a.professionIds.includes(p.profession))) return false;
  if (a.public) return true;
  const organisation = a.companyIds.length + a.unitIds.length === 0 || a.companyIds.includes(p.company) || a.unitIds.includes(p.unit);
  return organisation && (a.professionIds.length === 0 || a.professionIds.includes(p.profession));
};

export const QUESTIONS = ['q1', 'q2', 'q3'];
export const VIDEO_SECONDS = 300;

/**
 * One participant's way through a course, as the enrollment decider would record it, in up to
 * three sittings (video; quiz; NPS, credit points, completion and certificate). Some stop in the
 * video, some fail the quiz three times, some stop before the NPS.
 */
const journey = (course: SeedCourse, userId: number, rnd: () => number): Fact[][] => {
  const b = course.blocks;
  const video: Fact[] = [
    { type: 'CourseStarted', data: { courseId: course.id, userId } },
    { type: 'BlockOpened', data: { blockId: b.video, done: false } },
  ];
  // The player reports every 30 s; 90 % of the video counts as watched.
  const stopsInVideo = rnd() < 0.12;
  const reports = stopsInVideo ? 1 + Math.floor(rnd() * 7) : 9;
  for (let i = 1; i <= reports; i++) video.push({ type: 'VideoProgressed', data: { blockId: b.video, seconds: i * 30, duration: VIDEO_SECONDS } });
  if (stopsInVideo) return [video];
  video.push({ type: 'VideoCompleted', data: { blockId: b.video } });
  const quiz: Fact[] = [{ type: 'BlockOpened', data: { blockId: b.quiz, done: false } }];
  let passed = false;
  for (let attempt = 1; attempt <= 3 && !passed; attempt++) {
    const correct = QUESTIONS.map(() => rnd() < 0.75);
    for (const [i, questionId] of QUESTIONS.entries()) {
      quiz.push({ type: 'QuizAnswerSubmitted', data: { blockId: b.quiz, attempt, questionId, answerId: correct[i] ? 'a' : 'b', correct: correct[i] } });
    }
    const score = Math.round((correct.filter(Boolean).length / QUESTIONS.length) * 1000) / 10;
    passed = score >= 60;
    quiz.push(
      passed
        ? { type: 'QuizPassed', data: { blockId: b.quiz, attempt, score, threshold: 60 } }
        : { type: 'QuizFailed', data: { blockId: b.quiz, attempt, score, threshold: 60, retriesLeft: 3 - attempt } },
    );
    if (!passed && rnd() < 0.15) break;
  }
  if (!passed || rnd() < 0.05) return [video, quiz];
  const score = Math.floor(rnd() * 11);
  const rest: Fact[] = [
    { type: 'BlockOpened', data: { blockId: b.nps, done: false } },
    { type: 'NpsAnswered', data: { blockId: b.nps, score, reasons: score >= 9 ? ['Uporabno'] : [], comment: null, followUps: [] } },
    { type: 'BlockOpened', data: { blockId: b.points, done: true } },
    { type: 'CourseCompleted', data: { creditPoints: 2 } },
    { type: 'CertificateIssued', data: { certificateId: randomUUID() } },
  ];
  return [video, quiz, rest];
};

const LISTED_TYPES = [1, 2, 3, 4, 5, 6, 8, 9];

// Every type a list shows: type 7 (powerclass certificate) is hidden from participants' lists (spec §3).
const courseType = (id: number) => LISTED_TYPES[id % LISTED_TYPES.length] as number;

export const courseFields = (id: number, audience: Audience) => ({
  type: courseType(id),
  title: `Izobraževanje ${id}: interakcije zdravil`,
  description: 'Pregled najpogostejših interakcij zdravil v lekarni, s primeri iz prakse in kratkim preverjanjem znanja.',
  cover: `/media/covers/${id}.jpg`,
  creditPoints: 2,
  public: audience.public,
  audience: {
    byProfession: audience.professionIds.length > 0,
    professionIds: audience.professionIds,
    unitIds: audience.unitIds,
    companyIds: audience.companyIds,
    groupIds: [],
  },
  intervals: [],
  prerequisites: [],
  certificateEnabled: true,
  postsEnabled: false,
  notificationsEnabled: false,
  discount: 0,
  sharedCostCents: 0,
  lecturer: null,
});

export const courseBlocks = (b: SeedCourse['blocks']) => [
  {
    blockId: b.video,
    block: {
      kind: 'video',
      name: 'Predavanje',
      vimeoId: '76979871',
      fileUrl: null,
      durationSeconds: VIDEO_SECONDS,
      // The soak's participants finish the video by its text (a report cannot jump to the end: issue 33 item 8).
      alternative: { kind: 'article', html: '<p>Povzetek predavanja.</p>' },
    },
  },
  {
    blockId: b.quiz,
    block: {
      kind: 'quiz',
      name: 'Preverjanje znanja',
      batchSize: 3,
      successThreshold: 60,
      retries: 2,
      questions: QUESTIONS.map((id) => ({
        id,
        text: `Vprašanje ${id}`,
        answers: [
          { id: 'a', text: 'Da', correct: true },
          { id: 'b', text: 'Ne', correct: false },
        ],
      })),
    },
  },
  {
    blockId: b.nps,
    block: {
      kind: 'nps',
      name: 'Vaše mnenje',
      question: 'Bi izobraževanje priporočili?',
      set: 1,
      reasons: { detractor: ['Predolgo'], neutral: [], promoter: ['Uporabno'] },
      commentEnabled: false,
      followUps: [],
    },
  },
  { blockId: b.points, block: { kind: 'points', name: 'Kreditne točke', points: 2 } },
];

/**
 * The organisation, participants and courses, and enrollment journeys over participants and the
 * courses they see until there are `total` enrollment events. Courses by audience (one in five
 * each): public; two companies; ten units; two professions; one company and one profession.
 */
export const buildSeed = (total: number, sizes: SeedSizes) => {
  const { participants: PARTICIPANTS, companies: COMPANIES, unitsPerCompany: UNITS_PER_COMPANY, professions: PROFESSIONS, courses: COURSES } = sizes;
  const rnd = random(42);
  const pick = (n: number) => 1 + Math.floor(rnd() * n);
  const participants: Participant[] = Array.from({ length: PARTICIPANTS }, (_, i) => {
    const unit = 1 + (i % (COMPANIES * UNITS_PER_COMPANY));
    return { id: 1000 + i, unit, company: 1 + Math.floor((unit - 1) / UNITS_PER_COMPANY), profession: pick(PROFESSIONS) };
  });
  const courses: SeedCourse[] = Array.from({ length: COURSES }, (_, i) => {
    const id = i + 1;
    const kind = i % 5;
    const audience: Audience = {
      public: kind === 0,
      companyIds: kind === 1 ? [pick(COMPANIES), pick(COMPANIES)] : kind === 4 ? [pick(COMPANIES)] : [],
      unitIds: kind === 2 ? Array.from({ length: 10 }, () => pick(COMPANIES * UNITS_PER_COMPANY)) : [],
      professionIds: kind === 3 ? [pick(PROFESSIONS), pick(PROFESSIONS)] : kind === 4 ? [pick(PROFESSIONS)] : [],
    };
    for (const key of ['companyIds', 'unitIds', 'professionIds'] as const) audience[key] = [...new Set(audience[key])];
    return { id, audience, blocks: { video: id * 10 + 1, quiz: id * 10 + 2, nps: id * 10 + 3, points: id * 10 + 4 } };
  });
  const seen = new Map(participants.map((p) => [p.id, courses.filter((c) => visible(c, p))]));
  const started = new Map<number, Set<number>>(participants.map((p) => [p.id, new Set()]));
  const enrollments: Enrollment[] = [];
  let events = 0;
  while (events < total) {
    const p = participants[Math.floor(rnd() * PARTICIPANTS)] as Participant;
    const options = (seen.get(p.id) as SeedCourse[]).filter((c) => !started.get(p.id)?.has(c.id));
    const course = options[Math.floor(rnd() * options.length)];
    if (!course) continue;
    started.get(p.id)?.add(course.id);
    // The last journey is cut to make the total exact (its participant stopped there).
    const sessions: Fact[][] = [];
    for (const sitting of journey(course, p.id, rnd)) {
      const kept = sitting.slice(0, total - events);
      events += kept.length;
      if (kept.length > 0) sessions.push(kept);
    }
    enrollments.push({ courseId: course.id, userId: p.id, sessions });
  }
  // What the read model must hold afterwards: each journey once.
  const expected = { enrollments: enrollments.length, completed: 0, certificates: 0, attempts: 0 };
  for (const e of enrollments) {
    const facts = e.sessions.flat();
    expected.completed += facts.some((f) => f.type === 'CourseCompleted') ? 1 : 0;
    expected.certificates += facts.some((f) => f.type === 'CertificateIssued') ? 1 : 0;
    const outcomes = facts.filter((f) => f.type === 'QuizPassed' || f.type === 'QuizFailed');
    expected.attempts += (outcomes.at(-1)?.data as { attempt: number } | undefined)?.attempt ?? 0;
  }
  return { participants, courses, seen, started, enrollments, expected };
};
