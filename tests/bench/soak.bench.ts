// Soak (issue 19 item 6): `npm run bench -- soak`. Mixed participant, admin and statistics traffic at
// a steady open-loop rate for SOAK_SECONDS (600) against the platform as `npm start` runs it, in its
// own process: non-2xx and errors, the server's memory every minute, p99 per route, the read models
// after the load; then a plain baseline in the same run. The same file is the load client when run
// with `--load`. Settings: SOAK_SECONDS (600), SOAK_RATE (150 requests/s), SOAK_WARMUP_SECONDS (30),
// SOAK_BASELINE_SECONDS (60), SOAK_SEED_EVENTS (100,000 enrollment events seeded).

import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import http from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import Fastify from 'fastify';
import { createJwtSessionTokens } from '../../infrastructure/auth/jwt-session-tokens.ts';
import { type AllPosition, comparePositions } from '../../infrastructure/event-store/event-store.port.ts';
import { PROJECTIONS } from '../../infrastructure/main/projections.ts';
import { createBenchDb, fmt } from './bench-support.ts';
import {
  ADMIN_ID,
  type Audience,
  courseFields,
  cpuTicks,
  type Figures as LoadFigures,
  figuresOf as loadFiguresOf,
  QUESTIONS,
  random,
  type SeedCourse,
  type SeedSizes,
  seedStore,
  shuffled,
  startPlain,
  VIDEO_SECONDS,
} from './courses.bench.ts';

const ROOT = join(import.meta.dirname, '..', '..');

/** A moderate platform: 2,000 participants in 20 units of 5 companies, 50 published courses of 4 blocks. */
const SIZES: SeedSizes = { participants: 2000, companies: 5, unitsPerCompany: 4, professions: 10, courses: 50 };
/** Admin-made drafts the admin traffic edits (PUT), made through the API before the load. */
const DRAFTS = 10;
/**
 * Participants in the middle of a course at any moment; each takes its next step or re-reads its
 * records about every 2 s at the default rate, so a course (12 steps) takes about a minute.
 */
const CONCURRENT_JOURNEYS = 100;

// ------------------------------------------------------------------ the traffic

type Kind =
  | 'me'
  | 'list'
  | 'page'
  | 'blocks'
  | 'records'
  | 'journey'
  | 'users'
  | 'user'
  | 'courses'
  | 'course'
  | 'participants'
  | 'createCourse'
  | 'editCourse'
  | 'npsOverview'
  | 'npsCommunities'
  | 'success'
  | 'costs'
  | 'stats'
  | 'trends'
  | 'bare'
  | 'plainList'
  | 'plainPage'
  | 'plainRecords';

/**
 * The day's traffic, per 200 requests. Participants: their own pages (52 %) and courses taken step by
 * step (30 %: a step, then the records read with X-Min-Position as the UI does after a write). Admins
 * (11 %): user and course lists with search and paging, a user, a course, its participants, a draft
 * created or edited. Statistics (7 %): a course's NPS, success and costs, the platform figures.
 */
const MIX: [Kind, number][] = [
  ['me', 16],
  ['list', 24],
  ['page', 24],
  ['blocks', 16],
  ['records', 24],
  ['journey', 60],
  ['users', 8],
  ['user', 3],
  ['courses', 4],
  ['course', 3],
  ['participants', 2],
  ['createCourse', 1],
  ['editCourse', 1],
  ['npsOverview', 4],
  ['npsCommunities', 2],
  ['success', 4],
  ['costs', 2],
  ['stats', 1],
  ['trends', 1],
];
/** The baseline: a bare route and the participants' three main reads as one prepared statement each, evenly. */
const BASELINE_MIX: [Kind, number][] = [
  ['bare', 1],
  ['plainList', 1],
  ['plainPage', 1],
  ['plainRecords', 1],
];

/** Table order and who sends each route. */
const ROUTES: [label: string, who: string][] = [
  ['GET /api/users/me', 'participant'],
  ['GET /api/user-courses', 'participant'],
  ['GET /api/user-courses/{id}', 'participant'],
  ['GET /api/block?course_id=', 'participant'],
  ['GET /api/record?course_id=', 'participant'],
  ['POST /api/user-courses/{id}/start', 'participant step'],
  ['POST /api/user-courses/{id}/blocks/{blockId}/open', 'participant step'],
  ['POST /api/user-courses/{id}/blocks/{blockId}/video-progress', 'participant step'],
  ['POST /api/user-courses/{id}/blocks/{blockId}/quiz', 'participant step'],
  ['POST /api/user-courses/{id}/blocks/{blockId}/nps', 'participant step'],
  ['GET /api/record?course_id= after a step (X-Min-Position)', 'participant step'],
  ['GET /api/users (first page, search, filter, page n)', 'admin'],
  ['GET /api/users/{id}', 'admin'],
  ['GET /api/courses (first page, search, filter, page 2)', 'admin'],
  ['GET /api/courses/{id}', 'admin'],
  ['GET /api/courses/{id}/participants', 'admin'],
  ['POST /api/courses (a draft)', 'admin'],
  ['PUT /api/courses/{id} (a draft)', 'admin'],
  ['GET /api/courses/{id}/nps/{blockId}/overview', 'statistics'],
  ['GET /api/courses/{id}/nps/{blockId}/communities?kind=unit', 'statistics'],
  ['GET /api/courses/{id}/success', 'statistics'],
  ['GET /api/courses/{id}/costs?bucket=day', 'statistics'],
  ['GET /api/stats', 'statistics'],
  ['GET /api/stats/trends', 'statistics'],
  ['bare Fastify GET /bare', 'baseline'],
  ['plain: course list SQL', 'baseline'],
  ['plain: course page SQL', 'baseline'],
  ['plain: records SQL', 'baseline'],
];

type Blocks = SeedCourse['blocks'];
type Plan = {
  port: number;
  rate: number;
  seconds: number;
  seed: number;
  mix: [Kind, number][];
  participants: { id: number; company: number; token: string; seen: number[]; started: number[] }[];
  courses: { id: number; blocks: Blocks }[];
  /** [userId, courseId] not started yet, taken in order. */
  journeys: [number, number][];
  admin: string;
  drafts: { id: number; fields: Record<string, unknown> }[];
  newCourse: Record<string, unknown>;
  companies: number[];
  baseline?: { plainPort: number; barePort: number };
};
type Figures = Omit<LoadFigures, 'busy'> & {
  /** Reads after a write answered with X-Read-Stale: the read models had not caught up within READ_WAIT_MS. */
  stale: number;
};
type LoadResult = {
  routes: Figures[];
  all: Figures;
  /** By the minute each request was due in. */
  minutes: Figures[];
  journeysTaken: number;
  started: number;
  completed: number;
  coursesCreated: number;
  failures: string[];
};

// ------------------------------------------------------------------ load (its own process)

type Spec = {
  label: string;
  port: number;
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  token: string | null;
  body?: unknown;
  headers?: Record<string, string>;
};
type Answer = { status: number; stale: boolean; position: string | null; body: string };
type Step =
  | { kind: 'start' }
  | { kind: 'open'; block: number }
  | { kind: 'video'; block: number; seconds: number }
  | { kind: 'quiz'; block: number }
  | { kind: 'nps'; block: number };
type Journey = { userId: number; token: string; courseId: number; steps: Step[]; next: number; attempt: number; readNext: boolean; position: string | null };

const figuresOf = (label: string, t: { latencies: number[]; non2xx: number; errors: number; stale: number }, seconds: number): Figures => ({
  ...loadFiguresOf(label, t, seconds),
  stale: t.stale,
});

/**
 * Open loop, as courses.bench.ts: request i is due at start + i / rate and its latency counts from
 * then. A journey slot goes to the next participant in the middle of a course who is not waiting for
 * an answer (their steps are sequential, as a browser's are); when none is free the slot waits and
 * its wait counts in its latency.
 */
const runSoakLoad = async (plan: Plan, started: () => void): Promise<LoadResult> => {
  const rnd = random(plan.seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(rnd() * items.length)] as T;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const wheel = shuffled(
    plan.mix.flatMap(([kind, weight]) => Array.from({ length: weight }, () => kind)),
    rnd,
  );
  const total = Math.round(plan.rate * plan.seconds);
  const interval = 1000 / plan.rate;
  const courses = new Map(plan.courses.map((c) => [c.id, c]));
  const tokens = new Map(plan.participants.map((p) => [p.id, p.token]));
  type Tally = { latencies: number[]; non2xx: number; errors: number; stale: number };
  const tally = (): Tally => ({ latencies: [], non2xx: 0, errors: 0, stale: 0 });
  const byLabel = new Map<string, Tally>();
  const byMinute: Tally[] = [];
  const all = tally();
  const counts = { journeysTaken: 0, started: 0, completed: 0, coursesCreated: 0 };
  const failures: string[] = [];
  const start = performance.now() + 50;
  let end = start;
  let settled = 0;
  const { promise: finished, resolve } = Promise.withResolvers<void>();

  const record = (label: string, due: number, answer: Answer | null) => {
    end = performance.now();
    const minute = Math.floor((due - start) / 60_000);
    for (let m = byMinute.length; m <= minute; m++) byMinute.push(tally());
    const tallies = [byLabel.get(label) ?? tally(), byMinute[minute] as Tally, all];
    byLabel.set(label, tallies[0] as Tally);
    for (const t of tallies) {
      if (answer === null) t.errors++;
      else {
        t.latencies.push(end - due);
        if (answer.status >= 300) t.non2xx++;
        if (answer.stale) t.stale++;
      }
    }
    if ((answer === null || answer.status >= 300) && failures.length < 20)
      failures.push(`${label}: ${answer ? `${answer.status} ${answer.body.slice(0, 300)}` : 'network error or timeout'}`);
  };

  const send = (spec: Spec, due: number, after?: (answer: Answer | null) => void) => {
    const body = spec.body === undefined ? null : JSON.stringify(spec.body);
    const headers: Record<string, string> = { ...(spec.token ? { authorization: `JWT ${spec.token}` } : {}), ...spec.headers };
    if (body !== null) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(Buffer.byteLength(body));
    } else if (spec.method !== 'GET') headers['content-length'] = '0';
    let done = false;
    const finish = (answer: Answer | null) => {
      if (done) return;
      done = true;
      record(spec.label, due, answer);
      after?.(answer);
      if (++settled === total) resolve();
    };
    const request = http.request({ agent, host: '127.0.0.1', port: spec.port, method: spec.method, path: spec.path, headers, timeout: 10_000 }, (response) => {
      const status = response.statusCode ?? 0;
      // Bodies are kept of writes (the next step depends on them) and of failures (to say why).
      const keep = spec.method !== 'GET' || status >= 300;
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => {
        if (keep) chunks.push(chunk);
      });
      response.on('end', () => {
        const position = response.headers['x-event-position'];
        finish({
          status,
          stale: response.headers['x-read-stale'] === 'true',
          position: typeof position === 'string' ? position : null,
          body: Buffer.concat(chunks).toString(),
        });
      });
      response.on('error', () => finish(null));
    });
    request.on('error', () => finish(null));
    request.on('timeout', () => request.destroy());
    request.end(body ?? undefined);
  };

  // ---- participants taking courses
  const stepsOf = (b: Blocks): Step[] => [
    { kind: 'start' },
    { kind: 'open', block: b.video },
    // The player reports every minute here (every 30 s in the UI); 90 % of the video counts as watched.
    ...Array.from({ length: VIDEO_SECONDS / 60 }, (_, i) => ({ kind: 'video' as const, block: b.video, seconds: (i + 1) * 60 })),
    { kind: 'open', block: b.quiz },
    { kind: 'quiz', block: b.quiz },
    { kind: 'open', block: b.nps },
    { kind: 'nps', block: b.nps },
    // Credit points are done by being opened: the course is completed and its certificate issued.
    { kind: 'open', block: b.points },
  ];
  const newJourney = (): Journey | null => {
    const next = plan.journeys[counts.journeysTaken++];
    if (!next) return null;
    const [userId, courseId] = next;
    const course = courses.get(courseId) as { blocks: Blocks };
    return { userId, token: tokens.get(userId) as string, courseId, steps: stepsOf(course.blocks), next: 0, attempt: 1, readNext: false, position: null };
  };
  const idle: Journey[] = [];
  const waiting: number[] = [];
  for (let i = 0; i < CONCURRENT_JOURNEYS; i++) {
    const j = newJourney();
    if (j) idle.push(j);
  }
  const stepSpec = (j: Journey, step: Step): Spec => {
    const base = `/api/user-courses/${j.courseId}`;
    const spec = (label: string, path: string, body?: unknown): Spec => ({ label, port: plan.port, method: 'POST', path, token: j.token, body });
    switch (step.kind) {
      case 'start':
        return spec('POST /api/user-courses/{id}/start', `${base}/start`);
      case 'open':
        return spec('POST /api/user-courses/{id}/blocks/{blockId}/open', `${base}/blocks/${step.block}/open`);
      case 'video':
        return spec('POST /api/user-courses/{id}/blocks/{blockId}/video-progress', `${base}/blocks/${step.block}/video-progress`, {
          seconds: step.seconds,
          duration: VIDEO_SECONDS,
        });
      case 'quiz': {
        // Each answer right three times in four; the last of the three attempts all right, so everyone passes.
        const answers = Object.fromEntries(QUESTIONS.map((q) => [q, j.attempt >= 3 || rnd() < 0.75 ? 'a' : 'b']));
        return spec('POST /api/user-courses/{id}/blocks/{blockId}/quiz', `${base}/blocks/${step.block}/quiz`, { answers });
      }
      case 'nps': {
        const score = Math.floor(rnd() * 11);
        const reasons = score >= 9 ? ['Uporabno'] : score <= 6 ? ['Predolgo'] : [];
        return spec('POST /api/user-courses/{id}/blocks/{blockId}/nps', `${base}/blocks/${step.block}/nps`, { score, reasons });
      }
    }
  };
  const release = (j: Journey, ok: boolean) => {
    // A failed step ends the journey (it is counted above); a finished one makes room for the next.
    if (!ok || (j.next >= j.steps.length && !j.readNext)) {
      const next = newJourney();
      if (next) idle.push(next);
    } else idle.push(j);
    serveWaiting();
  };
  const act = (j: Journey, due: number) => {
    if (j.readNext) {
      j.readNext = false;
      send(
        {
          label: 'GET /api/record?course_id= after a step (X-Min-Position)',
          port: plan.port,
          method: 'GET',
          path: `/api/record?course_id=${j.courseId}`,
          token: j.token,
          headers: j.position ? { 'x-min-position': j.position } : {},
        },
        due,
        (answer) => release(j, answer !== null && answer.status < 300),
      );
      return;
    }
    const step = j.steps[j.next] as Step;
    send(stepSpec(j, step), due, (answer) => {
      if (answer === null || answer.status >= 300) return release(j, false);
      const result = JSON.parse(answer.body) as { events: string[]; completed: boolean };
      if (result.events.includes('CourseStarted')) counts.started++;
      if (result.completed) counts.completed++;
      if (step.kind === 'quiz' && result.events.includes('QuizFailed')) j.attempt++;
      else j.next++;
      j.position = answer.position;
      j.readNext = true;
      release(j, true);
    });
  };
  const serveWaiting = () => {
    while (waiting.length > 0 && idle.length > 0) act(idle.shift() as Journey, waiting.shift() as number);
  };

  // ---- everything else
  const participant = () => pick(plan.participants);
  const get = (label: string, path: string, token: string | null, port = plan.port): Spec => ({ label, port, method: 'GET', path, token });
  let created = 0;
  let edits = 0;
  const specOf = (kind: Exclude<Kind, 'journey'>): Spec => {
    const p = participant();
    const course = pick(plan.courses);
    const recordCourse = p.started.length > 0 && rnd() < 0.8 ? pick(p.started) : pick(p.seen);
    const stat = (label: string, path: string) => get(label, path, plan.admin);
    switch (kind) {
      case 'me':
        return get('GET /api/users/me', '/api/users/me', p.token);
      case 'list':
        return get('GET /api/user-courses', '/api/user-courses', p.token);
      case 'page':
        return get('GET /api/user-courses/{id}', `/api/user-courses/${pick(p.seen)}`, p.token);
      case 'blocks':
        return get('GET /api/block?course_id=', `/api/block?course_id=${pick(p.seen)}`, p.token);
      case 'records':
        return get('GET /api/record?course_id=', `/api/record?course_id=${recordCourse}`, p.token);
      case 'users': {
        const query = pick([
          '',
          '?search=novak',
          `?search=u${participant().id}`,
          `?companyId=${pick(plan.companies)}&roleId=10&page=${1 + Math.floor(rnd() * 5)}`,
          `?page=${1 + Math.floor(rnd() * 100)}`,
        ]);
        return get('GET /api/users (first page, search, filter, page n)', `/api/users${query}`, plan.admin);
      }
      case 'user':
        return get('GET /api/users/{id}', `/api/users/${p.id}`, plan.admin);
      case 'courses': {
        const query = pick(['', '?search=interakcije', '?published=false', '?page=2']);
        return get('GET /api/courses (first page, search, filter, page 2)', `/api/courses${query}`, plan.admin);
      }
      case 'course':
        return get('GET /api/courses/{id}', `/api/courses/${course.id}`, plan.admin);
      case 'participants':
        return get('GET /api/courses/{id}/participants', `/api/courses/${course.id}/participants`, plan.admin);
      case 'createCourse':
        created++;
        return {
          label: 'POST /api/courses (a draft)',
          port: plan.port,
          method: 'POST',
          path: '/api/courses',
          token: plan.admin,
          body: { ...plan.newCourse, title: `Nov osnutek ${plan.seed}-${created}` },
        };
      case 'editCourse': {
        const draft = plan.drafts[edits++ % plan.drafts.length] as Plan['drafts'][number];
        return {
          label: 'PUT /api/courses/{id} (a draft)',
          port: plan.port,
          method: 'PUT',
          path: `/api/courses/${draft.id}`,
          token: plan.admin,
          // A new title each time, so every edit is a change (an unchanged course appends nothing).
          body: { ...draft.fields, title: `Osnutek ${draft.id}, popravek ${plan.seed}-${edits}` },
        };
      }
      case 'npsOverview':
        return stat('GET /api/courses/{id}/nps/{blockId}/overview', `/api/courses/${course.id}/nps/${course.blocks.nps}/overview`);
      case 'npsCommunities':
        return stat('GET /api/courses/{id}/nps/{blockId}/communities?kind=unit', `/api/courses/${course.id}/nps/${course.blocks.nps}/communities?kind=unit`);
      case 'success':
        return stat('GET /api/courses/{id}/success', `/api/courses/${course.id}/success`);
      case 'costs':
        return stat('GET /api/courses/{id}/costs?bucket=day', `/api/courses/${course.id}/costs?bucket=day`);
      case 'stats':
        return stat('GET /api/stats', '/api/stats');
      case 'trends':
        return stat('GET /api/stats/trends', '/api/stats/trends');
      case 'bare':
        return get('bare Fastify GET /bare', '/bare', null, plan.baseline?.barePort);
      case 'plainList':
        return get('plain: course list SQL', `/plain/user-courses/${p.id}`, null, plan.baseline?.plainPort);
      case 'plainPage':
        return get('plain: course page SQL', `/plain/user-courses/${p.id}/${pick(p.seen)}`, null, plan.baseline?.plainPort);
      case 'plainRecords':
        return get('plain: records SQL', `/plain/record/${p.id}/${recordCourse}`, null, plan.baseline?.plainPort);
    }
  };

  const fire = (i: number) => {
    const kind = wheel[i % wheel.length] as Kind;
    const due = start + i * interval;
    if (kind === 'journey') {
      waiting.push(due);
      serveWaiting();
    } else {
      const spec = specOf(kind);
      if (spec.label.startsWith('POST /api/courses')) {
        send(spec, due, (answer) => {
          if (answer && answer.status === 201) counts.coursesCreated++;
        });
      } else send(spec, due);
    }
  };
  let fired = 0;
  const tick = () => {
    const now = performance.now();
    while (fired < total && start + fired * interval <= now) fire(fired++);
    if (fired < total) setTimeout(tick, Math.max(0, start + fired * interval - performance.now()));
  };
  setTimeout(() => {
    started();
    tick();
  }, start - performance.now());
  await finished;
  agent.destroy();
  const elapsed = (end - start) / 1000;
  const order = ROUTES.map(([label]) => label);
  return {
    routes: [...byLabel].sort(([a], [b]) => order.indexOf(a) - order.indexOf(b)).map(([label, t]) => figuresOf(label, t, elapsed)),
    all: figuresOf('all routes', all, elapsed),
    minutes: byMinute.map((t, m) => figuresOf(String(m + 1), t, Math.min(60, plan.seconds - m * 60))),
    ...counts,
    failures,
  };
};

if (import.meta.main && process.argv[2] === '--load') {
  process.once('message', async (plan: Plan) => {
    const result = await runSoakLoad(plan, () => process.send?.({ type: 'started' }));
    process.send?.({ type: 'result', result }, () => process.disconnect());
  });
}

/** One load phase from a separate process (so it does not share the server's event loop); `onStarted` when the first request is due. */
const load = async (plan: Plan, onStarted: () => void = () => undefined): Promise<LoadResult> => {
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', import.meta.filename, '--load'], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const { promise, resolve, reject } = Promise.withResolvers<LoadResult>();
  child.on('message', (message: { type: 'started' } | { type: 'result'; result: LoadResult }) => {
    if (message.type === 'started') onStarted();
    else resolve(message.result);
  });
  child.on('exit', (code) => reject(new Error(`load client exited with ${code} before its result`)));
  child.send(plan);
  return promise;
};

// ------------------------------------------------------------------ the platform, as `npm start` runs it

/**
 * Loaded before main.ts into the server process: answers the bench's IPC question with
 * process.memoryUsage(), after a full garbage collection when asked (`--expose-gc`; only outside the load).
 */
const MEMORY_PROBE = `data:text/javascript,${encodeURIComponent(
  "if (process.send) process.on('message', (m) => { if (m === 'memory-after-gc') globalThis.gc?.(); process.send({ memory: process.memoryUsage() }); });",
)}`;

/**
 * `node infrastructure/main/main.ts` (what `npm start` runs after building the UI) in its own
 * process on the bench database: pg-boss jobs, reactors, the projection runner, pino at warn. Its
 * log lines go to stderr and are counted by level.
 */
const startPlatformProcess = async (env: Record<string, string>) => {
  const child = spawn(
    process.execPath,
    ['--disable-warning=ExperimentalWarning', '--expose-gc', '--import', MEMORY_PROBE, join(ROOT, 'infrastructure', 'main', 'main.ts')],
    {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    },
  );
  if (!child.stdout || !child.stderr) throw new Error('the platform process has no output pipes');
  const log = { warnings: 0, errors: 0 };
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const listening = Promise.withResolvers<number>();
  createInterface({ input: child.stdout }).on('line', (line) => {
    const banner = /running at http:\/\/localhost:(\d+)/.exec(line);
    if (banner) return listening.resolve(Number(banner[1]));
    if (line.trim() === '') return;
    const level = /"level":(\d+)/.exec(line);
    if (level && Number(level[1]) >= 50) log.errors++;
    else if (level && Number(level[1]) >= 40) log.warnings++;
    process.stderr.write(`[platform] ${line}\n`);
  });
  createInterface({ input: child.stderr }).on('line', (line) => process.stderr.write(`[platform] ${line}\n`));
  void exited.then((code) => listening.reject(new Error(`the platform exited with ${code} before listening`)));
  const port = await listening.promise;
  let asking = Promise.resolve() as Promise<unknown>;
  const memory = (afterGc = false) => {
    const answer = asking.then(
      () =>
        new Promise<NodeJS.MemoryUsage>((resolve, reject) => {
          // A server that died or hangs answers nothing: the sample fails instead of the bench waiting for ever.
          const timer = setTimeout(() => reject(new Error('the platform did not report its memory within 10 s')), 10_000);
          child.once('message', (m: { memory: NodeJS.MemoryUsage }) => {
            clearTimeout(timer);
            resolve(m.memory);
          });
          child.send(afterGc ? 'memory-after-gc' : 'memory', (error) => {
            if (error) {
              clearTimeout(timer);
              reject(error);
            }
          });
        }),
    );
    asking = answer.catch(() => undefined);
    return answer;
  };
  return {
    port,
    pid: child.pid as number,
    log,
    memory,
    stop: async () => {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 35_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
};

// ------------------------------------------------------------------ the benchmark

const mb = (bytes: number) => bytes / (1024 * 1024);

export const benchSoak = async (adminUrl: string, out: (line: string) => void) => {
  const seconds = Number(process.env.SOAK_SECONDS ?? 600);
  // 150 requests/s in all: on the 2-core VM the server, PostgreSQL and this load share, the
  // participants' reads alone took 40-80 % of both cores at 500/s (docs/benchmarks.md, course reads),
  // and a step (a command whose events ~16 projections then apply) costs several reads. With 15 % of
  // the requests steps, 60 s runs at 150/s kept the machine 41-56 % busy with every route's p99 under
  // 120 ms: room for the minute-to-minute noise of the VM, so the soak measures drift, not saturation.
  const rate = Number(process.env.SOAK_RATE ?? 150);
  const warmupSeconds = Number(process.env.SOAK_WARMUP_SECONDS ?? 30);
  const baselineSeconds = Number(process.env.SOAK_BASELINE_SECONDS ?? 60);
  const seedEvents = Number(process.env.SOAK_SEED_EVENTS ?? 100_000);

  const db = await createBenchDb(adminUrl, { poolSize: 20, maxInFlight: 2 });
  const dataDir = join(ROOT, '.data', `soak-${process.pid}`);
  let platform: Awaited<ReturnType<typeof startPlatformProcess>> | null = null;
  try {
    const seedStarted = performance.now();
    const seed = await seedStore(db.store, seedEvents, SIZES);
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    const storedEvents = Number((await db.pg.query<{ n: string }>('select sum(cardinality(event_ids))::text as n from es.appends')).rows[0]?.n);
    // Courses the admins create get ids from the allocator: past the seeded ones, as on a live platform.
    await db.pg.query('create sequence if not exists ids.course as bigint');
    await db.pg.query('select setval($1, 100000)', ['ids.course']);
    await db.pg.query('vacuum analyze es.appends');

    // The platform in its own process; it catches every projection up from zero.
    const secret = randomBytes(48).toString('base64url');
    const startedAt = performance.now();
    platform = await startPlatformProcess({
      DATABASE_URL: db.connectionString,
      DEMO_DATA: 'false',
      PORT: '0',
      HOST: '127.0.0.1',
      API_PROCESSES: '1',
      LOG_LEVEL: 'warn',
      JWT_SECRET: secret,
      DATA_DIR: dataDir,
      UI_DIST_DIR: '/nonexistent',
    });
    const server = platform;
    const projectionNames = PROJECTIONS.map((p) => p.name);
    /** Waits until every read model has applied the store's head as of now; returns the milliseconds waited. */
    const catchUp = async (timeoutMs: number) => {
      const head = (await db.store.headPosition()) as AllPosition;
      const since = performance.now();
      for (;;) {
        const rows = (
          await db.pg.query<{ name: string; commit: string; prepare: string }>(
            `select g.name, g.checkpoint_commit::text as commit, g.checkpoint_prepare::text as prepare
               from projections.registry r join projections.generations g on g.name = r.name and g.generation = r.active_generation
              where r.name = any($1)`,
            [projectionNames],
          )
        ).rows;
        const behind = projectionNames.filter((name) => {
          const row = rows.find((r) => r.name === name);
          return !row || comparePositions({ commit: BigInt(row.commit), prepare: BigInt(row.prepare) }, head) < 0;
        });
        if (behind.length === 0) return performance.now() - since;
        if (performance.now() - since > timeoutMs) throw new Error(`read models behind after ${timeoutMs} ms: ${behind.join(', ')}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    };
    await catchUp(1_800_000);
    const catchUpSeconds = (performance.now() - startedAt) / 1000;
    const base = `http://127.0.0.1:${server.port}`;

    // Tokens of real roles: every participant (role 10 in their unit) and the admin (role 1) of the seed.
    const tokens = createJwtSessionTokens({ secret, ttlSeconds: 24 * 3600 });
    const sign = (userId: number) => tokens.sign({ userId, sessionId: randomUUID(), realUserId: null, position: null });
    const admin = await sign(ADMIN_ID);
    const draftAudience: Audience = { public: false, companyIds: [1], unitIds: [], professionIds: [] };
    // Type 2 (OTC): the draft asks for nothing a live webinar or a powerclass would.
    const draftFields = (title: string) => ({ ...courseFields(1, draftAudience), type: 2, title });
    const drafts: Plan['drafts'] = [];
    for (let i = 1; i <= DRAFTS; i++) {
      const fields = draftFields(`Osnutek ${i}`);
      const response = await fetch(`${base}/api/courses`, {
        method: 'POST',
        headers: { authorization: `JWT ${admin}`, 'content-type': 'application/json' },
        body: JSON.stringify(fields),
      });
      if (response.status !== 201) throw new Error(`draft: ${response.status} ${await response.text()}`);
      drafts.push({ id: ((await response.json()) as { id: number }).id, fields });
    }
    const participants: Plan['participants'] = [];
    for (const p of seed.participants) {
      participants.push({
        id: p.id,
        company: p.company,
        token: await sign(p.id),
        seen: (seed.seen.get(p.id) as SeedCourse[]).map((c) => c.id),
        started: [...(seed.started.get(p.id) as Set<number>)],
      });
    }
    // Courses not started yet, in a shuffled order: each journey starts one of them.
    const journeys = shuffled(
      participants.flatMap((p) => p.seen.filter((c) => !p.started.includes(c)).map((c): [number, number] => [p.id, c])),
      random(5),
    );
    const journeySlots = ((warmupSeconds + seconds) * rate * 60) / 200;
    // Each journey takes at least 24 slots (12 steps, each followed by a read).
    if (journeys.length < 2 * (journeySlots / 24 + 2 * CONCURRENT_JOURNEYS))
      throw new Error(`only ${journeys.length} courses left to start: seed more participants or lower SOAK_RATE`);
    let taken = 0;
    const plan = (phaseSeconds: number, seedNumber: number): Plan => ({
      port: server.port,
      rate,
      seconds: phaseSeconds,
      seed: seedNumber,
      mix: MIX,
      participants,
      courses: seed.courses.map((c) => ({ id: c.id, blocks: c.blocks })),
      journeys: journeys.slice(taken),
      admin,
      drafts,
      newCourse: draftFields('Nov osnutek'),
      companies: Array.from({ length: SIZES.companies }, (_, i) => i + 1),
    });

    out(
      `Seeded ${fmt(SIZES.participants)} participants in ${SIZES.companies * SIZES.unitsPerCompany} units of ${SIZES.companies} companies, ${SIZES.courses} published courses of 4 blocks, ` +
        `${fmt(seed.expected.enrollments)} enrollments (${fmt(seed.expected.completed)} completed): ${fmt(seedEvents)} enrollment events, ${fmt(storedEvents)} in the store, in ${fmt(seedSeconds, 1)} s.`,
    );
    out(
      `The platform as \`npm start\` runs it (\`node infrastructure/main/main.ts\` in its own process, with pg-boss jobs, LOG_LEVEL=warn, and --expose-gc for the bench's memory probe) on that database: ` +
        `started and every projection caught up from zero in ${fmt(catchUpSeconds, 1)} s; ${DRAFTS} draft courses made through the API.`,
    );

    // The retained heap, after a full collection: a leak shows there even while RSS waits for the next
    // major GC. Forced before the warm-up, which then lets the heap grow back, so RSS at the start is not
    // measured on a freshly collected heap.
    const retainedBefore = await server.memory(true);
    // Warm-up, not in the figures: JIT, prepared statements, caches, the statistics' first results.
    let warmup: LoadResult | null = null;
    if (warmupSeconds > 0) {
      warmup = await load(plan(warmupSeconds, 1));
      taken += warmup.journeysTaken;
      await catchUp(60_000);
    }

    // The soak: memory, projection lag and CPU at the start, every minute and at the end.
    type Sample = { label: string; rss: number; heapUsed: number; heapTotal: number; external: number; lag: number; busy: number | null };
    let ticks = await cpuTicks();
    const sample = async (label: string): Promise<Sample> => {
      const memory = await server.memory().catch(() => ({ rss: Number.NaN, heapUsed: Number.NaN, heapTotal: Number.NaN, external: Number.NaN }));
      const metrics = await fetch(`${base}/api/metrics`)
        .then((r) => r.text())
        .catch(() => '');
      const lags = [...metrics.matchAll(/^projection_lag_events\{[^}]*\} (\d+)$/gm)].map((m) => Number(m[1]));
      const lag = lags.length > 0 ? Math.max(...lags) : Number.NaN;
      const now = await cpuTicks();
      const busy = (now.busy - ticks.busy) / (now.total - ticks.total || 1);
      ticks = now;
      return {
        label,
        rss: memory.rss,
        heapUsed: memory.heapUsed,
        heapTotal: memory.heapTotal,
        external: memory.external,
        lag,
        busy: label === 'start' ? null : busy,
      };
    };
    const samples: Promise<Sample>[] = [];
    const timers: NodeJS.Timeout[] = [];
    const soakTicks = { before: await cpuTicks() };
    const soak = await load(plan(seconds, 2), () => {
      samples.push(sample('start'));
      for (let minute = 1; minute * 60 < seconds; minute++) timers.push(setTimeout(() => samples.push(sample(String(minute))), minute * 60_000));
    });
    const soakEnded = performance.now();
    for (const timer of timers) clearTimeout(timer);
    const soakAfter = await cpuTicks();
    samples.push(sample(`${Math.ceil(seconds / 60)} (end)`));
    const memory = await Promise.all(samples);
    taken += soak.journeysTaken;

    // The read models after the load: caught up with the last write, holding what the load wrote.
    const lastWriteToCaughtUp = (await catchUp(60_000)) + (performance.now() - soakEnded);
    const started = (warmup?.started ?? 0) + soak.started;
    const completed = (warmup?.completed ?? 0) + soak.completed;
    const created = (warmup?.coursesCreated ?? 0) + soak.coursesCreated;
    const expected = {
      enrollments: seed.expected.enrollments + started,
      completed: seed.expected.completed + completed,
      courses: SIZES.courses + DRAFTS + created,
    };
    const actual = (
      await db.pg.query<{ enrollments: number; completed: number; courses: number }>(`
        select (select count(*) from rm.enrollments)::int as enrollments,
               (select count(*) from rm.enrollments where status = 'completed')::int as completed,
               (select count(*) from rm.courses)::int as courses`)
    ).rows[0] as typeof expected;
    const readModelsMatch = JSON.stringify(actual) === JSON.stringify(expected);
    const retainedAfter = await server.memory(true);
    const stopCode = await server.stop();
    platform = null;

    // ---- report the soak
    const who = new Map(ROUTES);
    const header = () => {
      out('| route | who | count | achieved/s | p50 ms | p95 ms | p99 ms | max ms | non-2xx | errors | X-Read-Stale |');
      out('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    };
    const row = (f: Figures, by: string) =>
      out(
        `| ${f.label} | ${by} | ${fmt(f.count)} | ${fmt(f.achieved, 1)} | ${fmt(f.p50, 1)} | ${fmt(f.p95, 1)} | ${fmt(f.p99, 1)} | ${fmt(f.max, 1)} | ${f.non2xx} | ${f.errors} | ${f.stale} |`,
      );
    const busy = (before: { busy: number; total: number }, after: { busy: number; total: number }) => (after.busy - before.busy) / (after.total - before.total);
    out('');
    out(
      `Soak: open-loop load at ${rate} requests/s for ${seconds} s from a separate process (latency from when each request was due), after a ${warmupSeconds} s warm-up of the same mix` +
        (warmup ? ` (${fmt(warmup.all.count)} requests, ${warmup.all.non2xx} non-2xx, ${warmup.all.errors} errors, not in the figures)` : '') +
        `. ${fmt(soak.started)} courses started and ${fmt(soak.completed)} completed step by step, ${fmt(soak.coursesCreated)} drafts created; CPU busy (both cores, everything on the machine) ${fmt(busy(soakTicks.before, soakAfter) * 100)} %.`,
    );
    out('');
    header();
    for (const f of soak.routes) row(f, who.get(f.label) ?? '');
    row({ ...soak.all, label: '**all routes**' }, `target ${rate}/s`);
    out('');
    out('Per minute (requests by the minute they were due; memory of the server process, projection lag from its /api/metrics, at the end of the minute):');
    out('');
    out(
      '| minute | requests | p50 ms | p99 ms | non-2xx + errors | server RSS MB | heap used MB | heap total MB | external MB | projection lag (events) | CPU busy |',
    );
    out('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const [i, s] of memory.entries()) {
      const m = i === 0 ? null : soak.minutes[i - 1];
      out(
        `| ${s.label} | ${m ? fmt(m.count) : ''} | ${m ? fmt(m.p50, 1) : ''} | ${m ? fmt(m.p99, 1) : ''} | ${m ? m.non2xx + m.errors : ''} | ${fmt(mb(s.rss), 1)} | ${fmt(mb(s.heapUsed), 1)} | ${fmt(mb(s.heapTotal), 1)} | ${fmt(mb(s.external), 1)} | ${fmt(s.lag)} | ${s.busy === null ? '' : `${fmt(s.busy * 100)} %`} |`,
      );
    }
    const first = memory[0] as Sample;
    const last = memory.at(-1) as Sample;
    const delta = mb(last.rss - first.rss);
    // A leak keeps growing; an allocator or V8 reserving more pages once steps and stays. Flat: what
    // the heap keeps after a full GC grew by at most 10 % (or 10 MB), and RSS over the second half
    // of the soak by at most 5 % (or 25 MB).
    const half = memory[Math.floor((memory.length - 1) / 2)] as Sample;
    const lateDelta = mb(last.rss - half.rss);
    const retainedDelta = mb(retainedAfter.heapUsed - retainedBefore.heapUsed);
    const flat = retainedDelta <= Math.max(10, 0.1 * mb(retainedBefore.heapUsed)) && lateDelta <= Math.max(25, 0.05 * mb(half.rss));
    const problems = soak.all.non2xx + soak.all.errors + soak.all.stale;
    out('');
    out(
      `- Errors: ${soak.all.non2xx} non-2xx, ${soak.all.errors} network errors or timeouts, ${soak.all.stale} stale reads after a write, of ${fmt(soak.all.count)} requests: **${problems === 0 ? 'met' : 'missed'}** (0 errors).`,
    );
    for (const failure of soak.failures.slice(0, 5)) out(`  - ${failure}`);
    out(
      `- Memory: server RSS ${fmt(mb(first.rss), 1)} MB after the warm-up, ${fmt(mb(last.rss), 1)} MB at the end (${delta >= 0 ? '+' : ''}${fmt(delta, 1)} MB, ${fmt((delta / mb(first.rss)) * 100, 1)} %), ` +
        `peak ${fmt(mb(Math.max(...memory.map((s) => s.rss))), 1)} MB; heap used ${fmt(mb(first.heapUsed), 1)} → ${fmt(mb(last.heapUsed), 1)} MB: RSS start to end **${Math.abs(delta) <= Math.max(50, 0.1 * mb(first.rss)) ? 'within' : 'not within'}** 10 % or 50 MB; RSS over the second half (from minute ${half.label}) ${lateDelta >= 0 ? '+' : ''}${fmt(lateDelta, 1)} MB; leak check **${flat ? 'flat' : 'grew'}** (retained heap within 10 % or 10 MB, RSS over the second half within 5 % or 25 MB). ` +
        `Heap used after a full GC (forced before the warm-up and after the soak): ${fmt(mb(retainedBefore.heapUsed), 1)} → ${fmt(mb(retainedAfter.heapUsed), 1)} MB ` +
        `(${retainedAfter.heapUsed >= retainedBefore.heapUsed ? '+' : ''}${fmt(mb(retainedAfter.heapUsed - retainedBefore.heapUsed), 1)} MB), RSS then ${fmt(mb(retainedBefore.rss), 1)} → ${fmt(mb(retainedAfter.rss), 1)} MB.`,
    );
    const byP99 = [...soak.routes].sort((a, b) => b.p99 - a.p99);
    out(
      `- p99 per route: ${byP99.map((f) => `${f.label} ${fmt(f.p99, 1)} ms`).join('; ')}. All routes: p99 ${fmt(soak.all.p99, 1)} ms; achieved ${fmt(soak.all.achieved, 1)} of ${rate} requests/s.`,
    );
    out(
      `- Read models: every projection had the last write ${fmt(lastWriteToCaughtUp)} ms after the last response; enrollments ${fmt(actual.enrollments)} (expected ${fmt(expected.enrollments)}), ` +
        `completed ${fmt(actual.completed)} (${fmt(expected.completed)}), courses ${fmt(actual.courses)} (${fmt(expected.courses)}): **${readModelsMatch ? 'as written' : 'differ'}**.`,
    );
    out(`- Server log (warn and above): ${server.log.warnings} warnings, ${server.log.errors} errors; the process exited with ${stopCode} on SIGTERM.`);

    // ---- the baseline, same run: a bare route and the participants' reads as one prepared statement each.
    const plain = await startPlain(db.pg);
    const bare = Fastify();
    bare.get('/bare', async () => ({ ok: true }));
    await bare.listen({ port: 0, host: '127.0.0.1' });
    const barePort = (bare.server.address() as { port: number }).port;
    const baselinePlan: Plan = { ...plan(baselineSeconds, 3), mix: BASELINE_MIX, journeys: [], baseline: { plainPort: plain.port, barePort } };
    await load({ ...baselinePlan, seconds: Math.min(5, baselineSeconds) });
    const baselineBefore = await cpuTicks();
    const baseline = await load(baselinePlan);
    const baselineBusy = busy(baselineBefore, await cpuTicks());
    await bare.close();
    await plain.app.close();
    out('');
    out(
      `Baseline, same run, after the soak (platform stopped): the same open loop at ${rate} requests/s for ${baselineSeconds} s after a 5 s warm-up, a quarter each to a bare Fastify route ` +
        `and to the participants' course list, course page and records as one prepared SQL statement on the plain pg pool (no token, no zod, no slonik); CPU busy ${fmt(baselineBusy * 100)} %.`,
    );
    out('');
    header();
    for (const f of baseline.routes) row(f, who.get(f.label) ?? '');
    row({ ...baseline.all, label: '**all routes**' }, `target ${rate}/s`);
  } finally {
    await platform?.stop();
    await db.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
};
