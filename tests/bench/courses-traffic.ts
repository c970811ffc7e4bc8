// What the courses bench measures (courses.bench.ts): the participants' course reads on the platform
// and on the plain baseline, each statistics endpoint as the admin, and the time from an NPS answer
// to the figure that counts it; the rates, and a CPU profile of a row when asked.

import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import type { EventStore } from '../../infrastructure/event-store/event-store.port.ts';
import type { Request } from './courses-load.ts';
import type { Participant, SeedCourse } from './courses-seed.ts';

/** The participants' reads: each row's open-loop rate (requests/s). */
export const RATE = 500;
/** Statistics are read by admins, not by every participant: each statistics endpoint is loaded at this rate. */
export const STATS_RATE = Number(process.env.BENCH_STATS_RATE ?? 100);

type Seen = { seen: Map<number, SeedCourse[]>; started: Map<number, Set<number>> };
export type ReadKind = 'list' | 'page' | 'record';

/**
 * `count` requests of one kind to one server by random participants among `users`, each about a
 * course they see (records: mostly one they started). `mixed` interleaves the platform's three kinds.
 */
export const participantReads = (seed: Seen, users: readonly Participant[], tokens: Map<number, string>, rnd: () => number, count: number) => {
  const requests = (kind: ReadKind, server: 'platform' | 'plain'): Request[] =>
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
  return { requests, mixed };
};

/** Both servers answer alike: the same courses as the seed says, for each of `sample`. */
export const checkCourseListsAgree = async (
  seed: Seen,
  sample: readonly Participant[],
  tokens: Map<number, string>,
  ports: { platform: number; plain: number },
) => {
  for (const p of sample) {
    const ids = async (url: string, headers: Record<string, string> = {}) => {
      const response = await fetch(url, { headers });
      if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
      return ((await response.json()) as { items: { id: number }[] }).items.map((c) => c.id).sort((a, b) => a - b);
    };
    const api = await ids(`http://127.0.0.1:${ports.platform}/api/user-courses`, { authorization: `JWT ${tokens.get(p.id)}` });
    const bare = await ids(`http://127.0.0.1:${ports.plain}/plain/user-courses/${p.id}`);
    const seeded = (seed.seen.get(p.id) as SeedCourse[]).map((c) => c.id).sort((a, b) => a - b);
    if (JSON.stringify(api) !== JSON.stringify(bare) || JSON.stringify(api) !== JSON.stringify(seeded)) {
      const only = (a: number[], b: number[]) => a.filter((id) => !b.includes(id)).join(',');
      throw new Error(
        `course lists differ for user ${p.id}: api only [${only(api, seeded)}], seed only [${only(seeded, api)}], plain only [${only(bare, seeded)}], seed not in plain [${only(seeded, bare)}]`,
      );
    }
  }
};

/** Both servers give the same records (block, opened, done, video seconds, quiz attempts and score, NPS) for each of `sample`'s started courses. */
export const checkRecordsAgree = async (
  seed: Seen,
  sample: readonly Participant[],
  tokens: Map<number, string>,
  ports: { platform: number; plain: number },
) => {
  type Row = {
    block_id: number;
    opened: boolean;
    done: boolean;
    videoSeconds: number | string;
    quizAttempts: number;
    quizScore: number | string | null;
    npsScore: number | null;
  };
  const rows = async (url: string, headers: Record<string, string> = {}) => {
    const response = await fetch(url, { headers });
    if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
    return ((await response.json()) as { items: Row[] }).items.map((r) => [
      r.block_id,
      r.opened,
      r.done,
      Number(r.videoSeconds),
      r.quizAttempts,
      r.quizScore === null ? null : Number(r.quizScore),
      r.npsScore,
    ]);
  };
  let compared = 0;
  for (const p of sample) {
    for (const courseId of [...(seed.started.get(p.id) ?? [])].slice(0, 3)) {
      const api = await rows(`http://127.0.0.1:${ports.platform}/api/record?course_id=${courseId}`, { authorization: `JWT ${tokens.get(p.id)}` });
      const bare = await rows(`http://127.0.0.1:${ports.plain}/plain/record/${p.id}/${courseId}`);
      if (JSON.stringify(api) !== JSON.stringify(bare) || api.length === 0)
        throw new Error(`records differ for user ${p.id}, course ${courseId}: ${JSON.stringify({ api, bare })}`);
      compared++;
    }
  }
  if (compared === 0) throw new Error('no started course in the sample to compare records of');
};

/** Issue 7: each statistics endpoint, by its row's label and its path for a course. */
export const STATS_ENDPOINTS = [
  ['GET /api/courses/{id}/nps/{blockId}/overview', (c: SeedCourse) => `/api/courses/${c.id}/nps/${c.blocks.nps}/overview`],
  ['GET /api/courses/{id}/nps/{blockId}/communities?kind=unit', (c: SeedCourse) => `/api/courses/${c.id}/nps/${c.blocks.nps}/communities?kind=unit`],
  ['GET /api/courses/{id}/success', (c: SeedCourse) => `/api/courses/${c.id}/success`],
  ['GET /api/courses/{id}/costs?bucket=day', (c: SeedCourse) => `/api/courses/${c.id}/costs?bucket=day`],
  ['GET /api/stats', () => '/api/stats'],
] as const;

/** `count` requests to one statistics endpoint for random courses, as the admin. */
export const statsRequests = (
  courses: readonly SeedCourse[],
  adminToken: string,
  rnd: () => number,
  count: number,
  label: string,
  path: (c: SeedCourse) => string,
): Request[] =>
  Array.from({ length: count }, () => {
    const c = courses[Math.floor(rnd() * courses.length)] as SeedCourse;
    return { label, path: path(c), token: adminToken };
  });

/**
 * Answer to figure: an NPS answer appended to a participant's enrollment stream, then the overview
 * polled every 20 ms until its answer count moved; one sample per participant, one after another.
 * Returns the delays in ms, sorted.
 */
export const answerToFigure = async (store: EventStore, seed: Seen, participants: readonly Participant[], port: number, adminToken: string) => {
  const delays: number[] = [];
  for (const p of participants) {
    const c = (seed.seen.get(p.id) as SeedCourse[])[0] as SeedCourse;
    const url = `http://127.0.0.1:${port}/api/courses/${c.id}/nps/${c.blocks.nps}/overview`;
    const count = async () =>
      ((await (await fetch(url, { headers: { authorization: `JWT ${adminToken}` } })).json()) as { nps: { answers: number; promoters: number } }).nps;
    const before = await count();
    const stream = `enrollment-${c.id}_${p.id}`;
    const read = await store.readStream(stream);
    const answeredAt = performance.now();
    await store.append(
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
  return delays.sort((a, b) => a - b);
};

/**
 * `BENCH_CPU_PROFILE=<dir>`: a CPU profile of the server process (this one) during each platform
 * row, written as <dir>/<row>.cpuprofile (open in Chrome DevTools): where a row's time goes.
 */
export const profiled = async <T>(name: string, run: () => Promise<T>): Promise<T> => {
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
