// The soak's open-loop load generator (soak.bench.ts); soak-load-process.ts runs it in its own process.

import http from 'node:http';
import { figuresOf as loadFiguresOf } from './courses-load.ts';
import { QUESTIONS, random, shuffled, VIDEO_SECONDS } from './courses-seed.ts';
import { type Blocks, CONCURRENT_JOURNEYS, type Figures, type Kind, type LoadResult, type Plan, ROUTES } from './soak-plan.ts';

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
  | { kind: 'alternative'; block: number }
  | { kind: 'quiz'; block: number }
  | { kind: 'nps'; block: number };
type Journey = { userId: number; token: string; courseId: number; steps: Step[]; next: number; attempt: number; readNext: boolean; position: string | null };

const figuresOf = (label: string, t: { latencies: number[]; non2xx: number; errors: number; stale: number }, seconds: number): Figures => ({
  ...loadFiguresOf(label, t, seconds),
  stale: t.stale,
});

/**
 * Open loop, as courses-load.ts: request i is due at start + i / rate and its latency counts from
 * then. A journey slot goes to the next participant in the middle of a course who is not waiting for
 * an answer (their steps are sequential, as a browser's are); when none is free the slot waits and
 * its wait counts in its latency.
 */
export const runSoakLoad = async (plan: Plan, started: () => void): Promise<LoadResult> => {
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
    // Reports faster than playback count only as far as time allows (issue 33 item 8), so the journey,
    // minutes of video in seconds, finishes the block by reading its text alternative.
    { kind: 'alternative', block: b.video },
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
      case 'alternative':
        return spec('POST /api/user-courses/{id}/blocks/{blockId}/alternative', `${base}/blocks/${step.block}/alternative`);
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
