// Course reads under load: 10,000 participants, 200 courses, 1,000,000 enrollment events.
// `npm run bench -- courses`. The same file is the open-loop load client when run with `--load`.

import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import Fastify from 'fastify';
import { sha256 } from '../../application/consents/consent-hash.ts';
import { consentDecider } from '../../domain/consents/consent.decide.ts';
import { CONSENT_TEXTS } from '../../domain/consents/consent.rules.ts';
import { consentStream, initialConsentState } from '../../domain/consents/consent.ts';
import { type AllPosition, type EventStore, newEventId } from '../../infrastructure/event-store/event-store.port.ts';
import { silentLog } from '../../infrastructure/logging/log.port.ts';
import { PROJECTIONS } from '../../infrastructure/main/projections.ts';
import { schemaOf } from '../../infrastructure/projections/generations.ts';
import { coursesProjection } from '../../projections/courses/courses.projection.ts';
import { createBenchDb, fmt, percentile } from './bench-support.ts';

const PARTICIPANTS = 10_000;
const COMPANIES = 20;
const UNITS_PER_COMPANY = 10;
const PROFESSIONS = 10;
const COURSES = 200;
const RATE = 500;
/** Statistics are read by admins, not by every participant: each statistics endpoint is loaded at this rate. */
const STATS_RATE = Number(process.env.BENCH_STATS_RATE ?? 100);
export const ADMIN_ID = 900_000;

/** How much organisation the seed builds (the soak benchmark seeds less than this one). */
export type SeedSizes = { participants: number; companies: number; unitsPerCompany: number; professions: number; courses: number };
const SIZES: SeedSizes = { participants: PARTICIPANTS, companies: COMPANIES, unitsPerCompany: UNITS_PER_COMPANY, professions: PROFESSIONS, courses: COURSES };

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

type Fact = { type: string; data: unknown };
export type Participant = { id: number; unit: number; company: number; profession: number };
export type Audience = { public: boolean; companyIds: number[]; unitIds: number[]; professionIds: number[] };
export type SeedCourse = { id: number; audience: Audience; blocks: { video: number; quiz: number; nps: number; points: number } };
type Enrollment = { courseId: number; userId: number; sessions: Fact[][] };

/** Who sees a course, as decision 0011 says, for the audiences seeded here. */
const visible = (c: SeedCourse, p: Participant) => {
  const a = c.audience;
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

export const courseFields = (id: number, audience: Audience) => ({
  // Every type a list shows: type 7 (powerclass certificate) is hidden from participants' lists (spec §3).
  type: LISTED_TYPES[id % LISTED_TYPES.length] as number,
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

const BLOCKS = (b: SeedCourse['blocks']) => [
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
const buildSeed = (total: number, sizes: SeedSizes) => {
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

/** Appends through the store (which validates every event against its zod schema), 512 appends at a time. */
const appendAll = async (store: EventStore, appends: readonly { stream: string; expected: bigint | 'no_stream'; facts: Fact[]; actorId?: number }[]) => {
  let next = 0;
  await Promise.all(
    Array.from({ length: 512 }, async () => {
      while (next < appends.length) {
        const a = appends[next++] as (typeof appends)[number];
        const events = a.facts.map((f) => ({ eventId: newEventId(), type: f.type, data: f.data, metadata: a.actorId ? { actorId: a.actorId } : {} }));
        await store.append(a.stream, events, { expectedRevision: a.expected });
      }
    }),
  );
};

/**
 * Builds the seed and appends it; returns what the load needs. The journeys (a million events'
 * worth of objects) are dropped on return: kept, they would make every major garbage collection
 * of the server, which runs in this process, mark them again.
 */
export const seedStore = async (store: EventStore, total: number, sizes: SeedSizes = SIZES) => {
  const { companies: COMPANIES, unitsPerCompany: UNITS_PER_COMPANY, professions: PROFESSIONS } = sizes;
  const seed = buildSeed(total, sizes);
  const company = (companyId: number) => ({
    stream: `company-${companyId}`,
    expected: 'no_stream' as const,
    facts: [
      {
        type: 'CompanyCreated',
        data: {
          companyId,
          name: `Lekarne ${companyId}`,
          address: 'Cesta 1',
          city: 'Ljubljana',
          zip: '1000',
          region: null,
          tagId: null,
          vat: null,
          parentCompanyId: null,
          externalId: null,
          syncDestination: null,
          financial: { iban: null, swift: null, billingEmail: null },
        },
      },
    ],
  });
  const unit = (unitId: number) => ({
    stream: `unit-${unitId}`,
    expected: 'no_stream' as const,
    facts: [{ type: 'UnitCreated', data: { unitId, companyId: 1 + Math.floor((unitId - 1) / UNITS_PER_COMPANY), name: `Enota ${unitId}`, tagId: null } }],
  });
  const profession = (professionId: number) => ({
    stream: `profession-${professionId}`,
    expected: 'no_stream' as const,
    facts: [{ type: 'ProfessionCreated', data: { professionId, name: `Poklic ${professionId}`, groupId: null, needsLicenceNumber: false } }],
  });
  await appendAll(store, [
    ...Array.from({ length: COMPANIES }, (_, i) => company(i + 1)),
    ...Array.from({ length: COMPANIES * UNITS_PER_COMPANY }, (_, i) => unit(i + 1)),
    ...Array.from({ length: PROFESSIONS }, (_, i) => profession(i + 1)),
  ]);
  await appendAll(
    store,
    seed.participants.map((p) => ({
      stream: `user-${p.id}`,
      expected: 'no_stream' as const,
      facts: [
        {
          type: 'UserRegistered',
          data: {
            userId: p.id,
            username: `u${p.id}`,
            email: `u${p.id}@bench.si`,
            firstName: 'Ana',
            middleName: null,
            lastName: `Novak ${p.id}`,
            phone: null,
            professionId: p.profession,
            passwordHash: null,
          },
        },
        { type: 'UserRoleGranted', data: { roleId: 10, unitId: p.unit, companyId: p.company } },
      ],
    })),
  );
  // Every participant holds the required consents (issue 6), as a user of the platform must.
  const required = CONSENT_TEXTS.filter((t) => t.required).map((t) => ({ consentType: t.type, textVersion: t.version }));
  await appendAll(
    store,
    seed.participants.map((p) => ({
      stream: consentStream(p.id),
      expected: 'no_stream' as const,
      facts: consentDecider.decide(
        {
          type: 'GiveConsents',
          consents: required,
          userId: p.id,
          origin: { channel: 'import', ip: null, userAgent: null, onBehalfOf: null },
          meta: { now: new Date(), actorId: null },
          hash: sha256,
        },
        initialConsentState,
      ),
    })),
  );
  // The admin who reads the statistics (issue 7 rows), with the required consents.
  await appendAll(store, [
    {
      stream: `user-${ADMIN_ID}`,
      expected: 'no_stream' as const,
      facts: [
        {
          type: 'UserRegistered',
          data: {
            userId: ADMIN_ID,
            username: 'skrbnik',
            email: 'skrbnik@bench.si',
            firstName: 'Ana',
            middleName: null,
            lastName: 'Skrbnik',
            phone: null,
            professionId: null,
            passwordHash: null,
          },
        },
        { type: 'UserRoleGranted', data: { roleId: 1, unitId: 0, companyId: null } },
      ],
    },
    {
      stream: consentStream(ADMIN_ID),
      expected: 'no_stream' as const,
      facts: consentDecider.decide(
        {
          type: 'GiveConsents',
          consents: required,
          userId: ADMIN_ID,
          origin: { channel: 'import', ip: null, userAgent: null, onBehalfOf: null },
          meta: { now: new Date(), actorId: null },
          hash: sha256,
        },
        initialConsentState,
      ),
    },
  ]);
  await appendAll(
    store,
    seed.courses.map((c) => ({
      stream: `course-${c.id}`,
      expected: 'no_stream' as const,
      facts: [
        { type: 'CourseCreated', data: { courseId: c.id, fields: courseFields(c.id, c.audience) } },
        ...BLOCKS(c.blocks).map((b, position) => ({ type: 'CourseBlockAdded', data: { ...b, position } })),
        { type: 'CoursePublished', data: {} },
      ],
    })),
  );
  // The sittings of all journeys: first sittings in a shuffled order, then second ones, then third
  // ones, so the enrollment streams interleave in $all as they would over weeks.
  const rnd = random(7);
  for (let sitting = 0; sitting < 3; sitting++) {
    const round = seed.enrollments.filter((e) => e.sessions[sitting]);
    for (let i = round.length - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      [round[i], round[j]] = [round[j] as Enrollment, round[i] as Enrollment];
    }
    await appendAll(
      store,
      round.map((e) => ({
        stream: `enrollment-${e.courseId}_${e.userId}`,
        expected: sitting === 0 ? ('no_stream' as const) : BigInt(e.sessions.slice(0, sitting).reduce((n, s) => n + s.length, 0) - 1),
        facts: e.sessions[sitting] as Fact[],
        actorId: e.userId,
      })),
    );
  }
  const { participants, seen, started, expected } = seed;
  return { participants, courses: seed.courses, seen, started, expected };
};

// ------------------------------------------------------------------ load

type Request = { label: string; path: string; token: string | null };
type LoadJob = { port: number; rate: number; seconds: number; requests: Request[] };
export type Figures = {
  label: string;
  count: number;
  achieved: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  non2xx: number;
  errors: number;
  /** Share of the machine's CPU time busy during the phase (server, PostgreSQL, load client and anything else). */
  busy?: number;
};

/** A row's figures from its latencies (ms, from when each request was due) over `seconds`. */
export const figuresOf = (label: string, t: { latencies: number[]; non2xx: number; errors: number }, seconds: number): Figures => ({
  label,
  count: t.latencies.length + t.errors,
  achieved: (t.latencies.length + t.errors) / seconds,
  p50: percentile(t.latencies, 50),
  p95: percentile(t.latencies, 95),
  p99: percentile(t.latencies, 99),
  max: t.latencies.reduce((a, b) => Math.max(a, b), 0),
  non2xx: t.non2xx,
  errors: t.errors,
});

/**
 * Open loop: request i is due at start + i / rate whatever happened to the ones before, and its
 * latency counts from when it was due, so a slow server cannot slow the load down and hide its
 * queueing (coordinated omission). Runs in its own process: `node courses.bench.ts --load`.
 */
const runLoad = async (job: LoadJob): Promise<Figures[]> => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const total = Math.round(job.rate * job.seconds);
  const interval = 1000 / job.rate;
  const byLabel = new Map<string, { latencies: number[]; non2xx: number; errors: number }>();
  const start = performance.now() + 20;
  let end = start;
  let fired = 0;
  let settled = 0;
  const { promise: finished, resolve } = Promise.withResolvers<void>();
  const fire = (i: number) => {
    const r = job.requests[i % job.requests.length] as Request;
    const due = start + i * interval;
    const figures = byLabel.get(r.label) ?? { latencies: [], non2xx: 0, errors: 0 };
    byLabel.set(r.label, figures);
    const done = (ok: boolean | null) => {
      end = performance.now();
      if (ok === null) figures.errors++;
      else {
        figures.latencies.push(end - due);
        if (!ok) figures.non2xx++;
      }
      if (++settled === total) resolve();
    };
    const request = http.get(
      { agent, host: '127.0.0.1', port: job.port, path: r.path, headers: r.token ? { authorization: `JWT ${r.token}` } : {}, timeout: 10_000 },
      (response) => {
        response.resume();
        response.on('end', () => done((response.statusCode ?? 0) < 300));
        response.on('error', () => done(null));
      },
    );
    request.on('error', () => done(null));
    request.on('timeout', () => request.destroy());
  };
  const tick = () => {
    const now = performance.now();
    while (fired < total && start + fired * interval <= now) fire(fired++);
    if (fired < total) setTimeout(tick, Math.max(0, start + fired * interval - performance.now()));
  };
  setTimeout(tick, 20);
  await finished;
  agent.destroy();
  const elapsed = (end - start) / 1000;
  return [...byLabel].map(([label, f]) => figuresOf(label, f, elapsed));
};

if (import.meta.main && process.argv[2] === '--load') {
  let input = '';
  for await (const chunk of process.stdin) input += chunk;
  process.stdout.write(JSON.stringify(await runLoad(JSON.parse(input) as LoadJob)));
}

/** Busy and total CPU time of the machine so far (/proc/stat, in clock ticks). */
export const cpuTicks = async () => {
  const fields = (await readFile('/proc/stat', 'utf8')).split('\n', 1)[0]?.trim().split(/\s+/).slice(1).map(Number) ?? [];
  const total = fields.reduce((a, b) => a + b, 0);
  return { busy: total - (fields[3] ?? 0) - (fields[4] ?? 0), total };
};

/** One phase of load from a separate process (so it does not share the server's event loop). */
const load = async (job: LoadJob): Promise<Figures[]> => {
  const before = await cpuTicks();
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', import.meta.filename, '--load'], { stdio: ['pipe', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  child.stdin.end(JSON.stringify(job));
  const code = await exited;
  if (code !== 0) throw new Error(`load client exited with ${code}`);
  const after = await cpuTicks();
  const busy = (after.busy - before.busy) / (after.total - before.total);
  return (JSON.parse(output) as Figures[]).map((f) => ({ ...f, busy }));
};

// ------------------------------------------------------------------ plain baseline

/**
 * The same rows by one hand-written SQL statement per request, a named prepared statement on the
 * plain pg pool: the visibility rule of decision 0011 as the queries write it, with no token, no
 * session lookup, no zod and no slonik.
 */
const PLAIN_COURSES = `
  select c.id, c.type, c.title, c.description, c.cover, c.credit_points as "creditPoints", c.intervals, c.status = 'archived' as archived,
         coalesce(e.status, 'none') as enrollment,
         case when e.user_id is null then 0 else (select count(*) from rm.course_records r where r.course_id = c.id and r.user_id = $1 and r.done)::int end as "blocksDone",
         c.blocks_count as "blocksTotal", e.started_at as "startedAt", e.completed_at as "completedAt", e.certificate_id as "certificateId",
         c.posts_enabled as "postsEnabled", c.certificate_enabled as "certificateEnabled"
    from rm.courses c
   cross join (
     select array_agg(r.unit_id) as units, array_agg(coalesce(r.company_id, un.company_id)) as companies,
            (select array_agg(gu.group_id) from rm.community_group_units gu join rm.user_roles g on g.unit_id = gu.unit_id where g.user_id = $1) as groups,
            (select u.profession_id from rm.users u where u.id = $1) as profession
       from rm.user_roles r left join rm.units un on un.id = r.unit_id where r.user_id = $1) me
    left join rm.enrollments e on e.course_id = c.id and e.user_id = $1
   where c.status <> 'deleted' and ($2::int is null or c.id = $2) and (e.user_id is not null or (c.published and (c.public or (
     (c.org_audience or c.profession_audience)
     and (not c.org_audience or c.audience_units && me.units or c.audience_companies && me.companies or c.audience_groups && me.groups)
     and (not c.profession_audience or me.profession = any(c.audience_professions))))))
   order by e.completed_at desc nulls first, c.updated_at desc`;

const PLAIN_RECORDS = `
  select block_id, course_id, opened, done, video_seconds as "videoSeconds", quiz_attempts as "quizAttempts", quiz_score as "quizScore",
         quiz_passed as "quizPassed", nps_score as "npsScore"
    from rm.course_records where course_id = $2 and user_id = $1 order by block_id`;

export const startPlain = async (pool: import('pg').Pool) => {
  const app = Fastify();
  const query = async (name: string, text: string, values: unknown[]) => (await pool.query({ name, text, values })).rows;
  app.get<{ Params: { user: string } }>('/plain/user-courses/:user', async (r) => ({
    items: await query('plain_courses', PLAIN_COURSES, [r.params.user, null]),
  }));
  app.get<{ Params: { user: string; course: string } }>('/plain/user-courses/:user/:course', async (r, reply) => {
    const [course] = await query('plain_courses', PLAIN_COURSES, [r.params.user, r.params.course]);
    return course ?? reply.code(404).send();
  });
  app.get<{ Params: { user: string; course: string } }>('/plain/record/:user/:course', async (r) => ({
    items: await query('plain_records', PLAIN_RECORDS, [r.params.user, r.params.course]),
  }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, port: (app.server.address() as { port: number }).port };
};

// ------------------------------------------------------------------ the benchmark

export const shuffled = <T>(items: readonly T[], rnd: () => number) => {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
};

/**
 * `BENCH_CPU_PROFILE=<dir>`: a CPU profile of the server process (this one) during each platform
 * row, written as <dir>/<row>.cpuprofile (open in Chrome DevTools): where a row's time goes.
 */
const profiled = async <T>(name: string, run: () => Promise<T>): Promise<T> => {
  const dir = process.env.BENCH_CPU_PROFILE;
  if (!dir) return run();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  try {
    return await run();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  }
};

export const benchCourses = async (adminUrl: string, out: (line: string) => void) => {
  const total = Number(process.env.BENCH_COURSE_EVENTS ?? 1_000_000);
  const duration = Number(process.env.BENCH_SECONDS ?? 10);
  const db = await createBenchDb(adminUrl, { poolSize: 20, maxInFlight: 2 });
  const seedStarted = performance.now();
  const seed = await seedStore(db.store, total);
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  const storedEvents = Number((await db.pg.query<{ n: string }>('select sum(cardinality(event_ids))::text as n from es.appends')).rows[0]?.n);
  await db.pg.query('analyze es.appends');

  // Catch-up: the platform's own runner builds every read model from position zero. (Imported
  // here: the load client process runs this file too and needs none of the platform.)
  const { loadConfig } = await import('../../infrastructure/config/config.ts');
  const { createLogger } = await import('../../infrastructure/main/logger.ts');
  const { buildPlatform } = await import('../../infrastructure/main/platform.ts');
  const config = loadConfig({ DEMO_DATA: 'false', UI_DIST_DIR: '/nonexistent', PORT: '0' });
  const platform = await buildPlatform({ config, db, store: db.store, logger: createLogger('silent'), log: silentLog, jobs: null });
  const head = (await db.store.headPosition()) as AllPosition;
  const catchUpStarted = performance.now();
  await platform.runner.start();
  if (
    !(await platform.runner.waitFor(
      PROJECTIONS.map((p) => p.name),
      head,
      3_600_000,
    ))
  )
    throw new Error('catch-up did not finish');
  const catchUpSeconds = (performance.now() - catchUpStarted) / 1000;

  // The read model holds every journey once: enrollments, completions, certificates, quiz attempts.
  const expected = seed.expected;
  const actual = (
    await db.pg.query<{ enrollments: number; completed: number; certificates: number; attempts: number }>(`
      select (select count(*) from rm.enrollments)::int as enrollments,
             (select count(*) from rm.enrollments where status = 'completed')::int as completed,
             (select count(certificate_id) from rm.enrollments)::int as certificates,
             (select sum(quiz_attempts) from rm.course_records)::int as attempts`)
  ).rows[0];
  if (JSON.stringify(actual) !== JSON.stringify(expected)) throw new Error(`read model differs: ${JSON.stringify({ actual, expected })}`);

  // Settle before the load: the vacuum and analyze autovacuum would start now, and a checkpoint,
  // so the figures are of reads, not of the aftermath of writing a million events.
  const generation = platform.runner.status().find((s) => s.name === 'courses')?.generation ?? 1;
  for (const table of coursesProjection.tables) await db.pg.query(`vacuum analyze "${schemaOf('courses', generation)}"."${table}"`);
  await db.pg.query('vacuum analyze es.appends');
  await db.pg.query('checkpoint');

  out(`Seeded ${fmt(PARTICIPANTS)} participants in ${COMPANIES * UNITS_PER_COMPANY} units of ${COMPANIES} companies, ${COURSES} courses of 4 blocks`);
  out(`(40 each public, by 2 companies, by 10 units, by 2 professions, by company and profession), ${fmt(expected.enrollments)} enrollments`);
  out(
    `(${fmt(expected.completed)} completed): ${fmt(total)} enrollment events, ${fmt(storedEvents)} in the store, generated and appended in ${fmt(seedSeconds, 1)} s.`,
  );
  out('');
  out('| catch-up from zero | events | seconds | events/s | read model check |');
  out('|---|---:|---:|---:|---|');
  out(
    `| every projection (platform runner) | ${fmt(storedEvents)} | ${fmt(catchUpSeconds, 1)} | ${fmt(storedEvents / catchUpSeconds)} | ${fmt(actual?.enrollments ?? 0)} enrollments, ${fmt(actual?.certificates ?? 0)} certificates, ${fmt(actual?.attempts ?? 0)} quiz attempts: as seeded |`,
  );

  // Requests: random participants, each with a token, and the courses they see (mostly started ones for records).
  await platform.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (platform.app.server.address() as { port: number }).port;
  const plain = await startPlain(db.pg);
  const rnd = random(99);
  const users = shuffled(seed.participants, rnd).slice(0, 2000);
  const tokens = new Map<number, string>();
  for (const p of users) tokens.set(p.id, await platform.tokens.sign({ userId: p.id, sessionId: randomUUID(), realUserId: null, position: null }));
  const count = Math.round(RATE * duration);
  const requests = (kind: 'list' | 'page' | 'record', server: 'platform' | 'plain'): Request[] =>
    Array.from({ length: count }, () => {
      const p = users[Math.floor(rnd() * users.length)] as Participant;
      const seen = seed.seen.get(p.id) as SeedCourse[];
      const started = [...(seed.started.get(p.id) as Set<number>)];
      const course =
        kind === 'record' && started.length > 0 && rnd() < 0.8
          ? (started[Math.floor(rnd() * started.length)] as number)
          : (seen[Math.floor(rnd() * seen.length)] as SeedCourse).id;
      const path =
        server === 'plain'
          ? { list: `/plain/user-courses/${p.id}`, page: `/plain/user-courses/${p.id}/${course}`, record: `/plain/record/${p.id}/${course}` }[kind]
          : { list: '/api/user-courses', page: `/api/user-courses/${course}`, record: `/api/record?course_id=${course}` }[kind];
      return { label: `${server} ${kind}`, path, token: server === 'plain' ? null : (tokens.get(p.id) as string) };
    });
  const mixed = (): Request[] => {
    const [list, page, record] = [requests('list', 'platform'), requests('page', 'platform'), requests('record', 'platform')];
    return Array.from({ length: count }, (_, i) => ([list, page, record][i % 3] as Request[])[i] as Request);
  };
  // Both servers answer alike: the same courses for a sample of participants.
  for (const p of users.slice(0, 100)) {
    const ids = async (url: string, headers: Record<string, string> = {}) => {
      const response = await fetch(url, { headers });
      if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
      return ((await response.json()) as { items: { id: number }[] }).items.map((c) => c.id).sort((a, b) => a - b);
    };
    const api = await ids(`http://127.0.0.1:${port}/api/user-courses`, { authorization: `JWT ${tokens.get(p.id)}` });
    const bare = await ids(`http://127.0.0.1:${plain.port}/plain/user-courses/${p.id}`);
    const seeded = (seed.seen.get(p.id) as SeedCourse[]).map((c) => c.id).sort((a, b) => a - b);
    if (JSON.stringify(api) !== JSON.stringify(bare) || JSON.stringify(api) !== JSON.stringify(seeded)) {
      const only = (a: number[], b: number[]) => a.filter((id) => !b.includes(id)).join(',');
      throw new Error(
        `course lists differ for user ${p.id}: api only [${only(api, seeded)}], seed only [${only(seeded, api)}], plain only [${only(bare, seeded)}], seed not in plain [${only(seeded, bare)}]`,
      );
    }
  }
  // Warm-up, not reported: JIT, prepared statements, caches.
  await load({ port, rate: 250, seconds: 2, requests: mixed() });
  await load({ port: plain.port, rate: 250, seconds: 1, requests: requests('list', 'plain') });

  const rows: Figures[] = [];
  for (const kind of ['list', 'page', 'record'] as const) {
    rows.push(...(await profiled(`platform-${kind}`, () => load({ port, rate: RATE, seconds: duration, requests: requests(kind, 'platform') }))));
    rows.push(...(await load({ port: plain.port, rate: RATE, seconds: duration, requests: requests(kind, 'plain') })));
  }
  const mix = await load({ port, rate: RATE, seconds: duration, requests: mixed() });

  const names: Record<string, string> = {
    'platform list': 'GET /api/user-courses',
    'plain list': 'plain: course list SQL',
    'platform page': 'GET /api/user-courses/{id}',
    'plain page': 'plain: course page SQL',
    'platform record': 'GET /api/record?course_id=',
    'plain record': 'plain: records SQL',
  };
  out('');
  out(`Open-loop load at ${RATE} requests/s for ${duration} s per row, from a separate process; latency from when each request was due;`);
  out('CPU busy: share of both cores busy during the row (server, PostgreSQL, load client, anything else).');
  out('');
  out('| endpoint | target/s | achieved/s | p50 ms | p95 ms | p99 ms | max ms | non-2xx | errors | CPU busy |');
  out('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  const row = (name: string, target: number, f: Figures) =>
    out(
      `| ${name} | ${fmt(target)} | ${fmt(f.achieved)} | ${fmt(f.p50, 1)} | ${fmt(f.p95, 1)} | ${fmt(f.p99, 1)} | ${fmt(f.max, 1)} | ${f.non2xx} | ${f.errors} | ${fmt((f.busy ?? 0) * 100)} % |`,
    );
  for (const f of rows) row(names[f.label] ?? f.label, RATE, f);
  for (const f of mix) row(`mixed, one third each: ${names[f.label] ?? f.label}`, RATE / 3, f);

  // Issue 7: each statistics endpoint for random courses, as the admin; then answer-to-figure.
  const adminToken = await platform.tokens.sign({ userId: ADMIN_ID, sessionId: randomUUID(), realUserId: null, position: null });
  const statsRequests = (label: string, path: (c: SeedCourse) => string): Request[] =>
    Array.from({ length: Math.round(STATS_RATE * duration) }, () => {
      const c = seed.courses[Math.floor(rnd() * seed.courses.length)] as SeedCourse;
      return { label, path: path(c), token: adminToken };
    });
  const statsRows: Figures[] = [];
  for (const [label, path] of [
    ['GET /api/courses/{id}/nps/{blockId}/overview', (c: SeedCourse) => `/api/courses/${c.id}/nps/${c.blocks.nps}/overview`],
    ['GET /api/courses/{id}/nps/{blockId}/communities?kind=unit', (c: SeedCourse) => `/api/courses/${c.id}/nps/${c.blocks.nps}/communities?kind=unit`],
    ['GET /api/courses/{id}/success', (c: SeedCourse) => `/api/courses/${c.id}/success`],
    ['GET /api/courses/{id}/costs?bucket=day', (c: SeedCourse) => `/api/courses/${c.id}/costs?bucket=day`],
    ['GET /api/stats', () => '/api/stats'],
  ] as const) {
    await load({ port, rate: STATS_RATE, seconds: 1, requests: statsRequests(label, path) });
    statsRows.push(...(await load({ port, rate: STATS_RATE, seconds: duration, requests: statsRequests(label, path) })));
  }
  out('');
  out(`Statistics (issue 7): each endpoint at ${STATS_RATE} requests/s for ${duration} s, as the admin, random courses, after a 1 s warm-up.`);
  out('');
  out('| endpoint | target/s | achieved/s | p50 ms | p95 ms | p99 ms | max ms | non-2xx | errors | CPU busy |');
  out('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const f of statsRows) row(f.label, STATS_RATE, f);

  // Answer to figure: an NPS answer appended to a participant's enrollment stream, then the overview
  // polled every 20 ms until its answer count moved; 20 samples, one after another.
  const delays: number[] = [];
  for (let i = 0; i < 20; i++) {
    const p = users[i] as Participant;
    const c = (seed.seen.get(p.id) as SeedCourse[])[0] as SeedCourse;
    const url = `http://127.0.0.1:${port}/api/courses/${c.id}/nps/${c.blocks.nps}/overview`;
    const count = async () =>
      ((await (await fetch(url, { headers: { authorization: `JWT ${adminToken}` } })).json()) as { nps: { answers: number; promoters: number } }).nps;
    const before = await count();
    const stream = `enrollment-${c.id}_${p.id}`;
    const read = await db.store.readStream(stream);
    const answeredAt = performance.now();
    await db.store.append(
      stream,
      [{ eventId: randomUUID(), type: 'NpsAnswered', data: { blockId: c.blocks.nps, score: 10, reasons: [], comment: null, followUps: [] }, metadata: {} }],
      { expectedRevision: read.revision },
    );
    for (;;) {
      const now = await count();
      if (now.answers !== before.answers || now.promoters !== before.promoters) break;
      if (performance.now() - answeredAt > 10_000) throw new Error('the NPS figure did not move within 10 s');
      await new Promise((r) => setTimeout(r, 20));
    }
    delays.push(performance.now() - answeredAt);
  }
  delays.sort((a, b) => a - b);
  out('');
  out(
    `Answer to figure (append an NPS answer, poll the overview every 20 ms until it changes), 20 samples: p50 ${fmt(delays[10] as number, 1)} ms, max ${fmt(delays[19] as number, 1)} ms.`,
  );

  await plain.app.close();
  await platform.app.close();
  await platform.runner.stop();
  await db.drop();
  return { catchUpSeconds, rows, mix, statsRows, answerToFigure: delays };
};
