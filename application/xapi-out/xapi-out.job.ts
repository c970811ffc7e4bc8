import { randomUUID } from 'node:crypto';
import { type CourseEvent, courseDecider, courseStream } from '../../domain/courses/course.ts';
import { fold } from '../../domain/shared/decider.ts';
import { courseFactsOf } from '../../domain/xapi-out/course-facts.ts';
import { type CourseFacts, enrollmentOf, STATED_EVENT_TYPES, statementsOf } from '../../domain/xapi-out/learning-statements.ts';
import { comparePositions, type EventStore, type RecordedEvent } from '../../infrastructure/event-store/event-store.port.ts';
import type { JobHandler, Jobs } from '../../infrastructure/jobs/jobs.port.ts';
import type { Log } from '../../infrastructure/logging/log.port.ts';
import type { Projection } from '../../infrastructure/projections/projection.port.ts';
import type { LrsDestination, StatementSender } from '../../infrastructure/xapi/statement-sender.port.ts';
import {
  type ClaimedDelivery,
  claimDue,
  collectFor,
  type DeliveryRow,
  ensureDestination,
  hasDue,
  markNotSent,
  markSent,
  type XapiOutDb,
} from '../../projections/xapi-out/xapi-out.queries.ts';
import { xapiUuid } from './statement-id.ts';
import { statementProblems } from './validate-statement.ts';

export const XAPI_OUT_QUEUE = 'xapi-out.forward';
/** The platform-wide LRS (XAPI_LRS_URL) in the delivery log; per-company LRSs would be `company-<id>`. */
export const PLATFORM_DESTINATION = 'platform';

/** How the forwarding paces itself; the tests shorten the lease. */
export type XapiOutPace = {
  /** Events read from the log at once. */
  readonly readBatch: number;
  /** Statements claimed at once, and sent this many side by side. */
  readonly sendBatch: number;
  readonly sendAtOnce: number;
  /** How long a worker holds the statements it claimed before another may take them (it died). */
  readonly leaseSeconds: number;
  /** How long one run goes on before it hands over to the next (queued at once if work is left). */
  readonly runSeconds: number;
};

/**
 * A claimed batch must be sent within its lease even when the LRS answers slowly: 20 statements, 4 at a
 * time, each given up after 15 s, take at most 75 s, under the 120 s lease. (50 took up to 195 s: a
 * slow LRS let the next run take the same statements again while the first still sent them.)
 */
export const XAPI_OUT_PACE: XapiOutPace = { readBatch: 500, sendBatch: 20, sendAtOnce: 4, leaseSeconds: 120, runSeconds: 50 };

/** Attempts before a statement the LRS could not take (down, 5xx) is recorded as failed; about seven hours in all. */
export const MAX_ATTEMPTS = 12;
/** The wait before the next attempt: 30 s, doubling, at most an hour. */
export const retryDelaySeconds = (attempts: number) => Math.min(3600, 30 * 2 ** Math.max(0, attempts - 1));

export type XapiOutJobDeps = {
  readonly store: EventStore;
  readonly db: XapiOutDb;
  readonly log: Log;
  readonly publicUrl: string;
  /** The platform-wide LRS; null: nothing is forwarded. */
  readonly destination: LrsDestination | null;
  readonly send: StatementSender;
  readonly pace: XapiOutPace;
};

const READ_TYPES = new Set([...STATED_EVENT_TYPES, 'UserErased']);

const isErasure = (event: RecordedEvent) => event.type === 'UserErased' && /^user-\d+$/.test(event.streamName);

/** Courses as statements name them, read once per run (a name changed meanwhile shows in the next run). */
const courseCache = (store: EventStore) => {
  const known = new Map<number, Promise<CourseFacts | null>>();
  return (courseId: number) => {
    let found = known.get(courseId);
    if (!found) {
      found = store.readStream(courseStream(courseId)).then(({ events }) => {
        const state = fold(
          courseDecider,
          events.map((e) => ({ type: e.type, data: e.data }) as CourseEvent),
        );
        return state.status === 'none' ? null : courseFactsOf(state);
      });
      known.set(courseId, found);
    }
    return found;
  };
};

/**
 * Reads the log past the destination's cursor and records the statements of learning events as
 * waiting, batch by batch; the rows and the cursor commit together, and one collector at a time
 * holds a destination, so each statement is recorded once however many workers run or die. During
 * a backfill, statements of events up to where it started are queued again.
 */
export const collectStatements = async (deps: XapiOutJobDeps, destination: string, deadline: number): Promise<boolean> => {
  const course = courseCache(deps.store);
  for (;;) {
    const outcome = await collectFor(deps.db, destination, async (c) => {
      const read = await deps.store.readAll(c.cursor, deps.pace.readBatch);
      const last = read.events.at(-1);
      if (!last) {
        // A backfill with nothing left to read is over.
        if (c.replay && comparePositions(c.cursor, c.replay.until) >= 0) await c.advance(c.cursor);
        return { more: false };
      }
      const events = read.events.filter((e) => READ_TYPES.has(e.type));
      const learning = events.flatMap((e) => {
        const enrollment = e.type === 'UserErased' ? null : enrollmentOf(e.streamName);
        return enrollment ? [{ event: e, ...enrollment }] : [];
      });
      const names = await c.actorNames(learning.map((l) => l.userId));
      const again: DeliveryRow[] = [];
      const fresh: DeliveryRow[] = [];
      for (const { event, courseId, userId } of learning) {
        const actorName = names.get(userId);
        if (!actorName) continue;
        const mapped = statementsOf(
          { eventId: event.eventId, type: event.type, data: event.data, streamName: event.streamName, createdAt: event.createdAt.toISOString() },
          { publicUrl: deps.publicUrl, actorName, course: await course(courseId), uuid: xapiUuid },
        );
        const replayed =
          c.replay !== null &&
          comparePositions(event.position, c.replay.until) <= 0 &&
          (c.replay.from === null || event.createdAt.getTime() >= Date.parse(c.replay.from));
        for (const { verb, statement } of mapped) {
          (replayed ? again : fresh).push({
            statementId: statement.id,
            eventId: event.eventId,
            position: event.position,
            eventType: event.type,
            verb,
            courseId,
            userId,
            eventAt: statement.timestamp,
            statement,
          });
        }
      }
      await c.record(fresh, false);
      await c.record(again, true);
      await c.forget(events.filter(isErasure).map((e) => Number(e.streamName.slice('user-'.length))));
      await c.advance(last.position);
      return { more: read.hasMore };
    });
    // Another worker is collecting for this destination: it records what this one would have.
    if (outcome === null || !outcome.more) return false;
    if (Date.now() > deadline) return true;
  }
};

/** Sends one claimed statement and records the outcome (only the lease holder's record counts). */
const deliverOne = async (deps: XapiOutJobDeps, lrs: LrsDestination, destination: string, worker: string, claimed: ClaimedDelivery) => {
  const problems = statementProblems(claimed.statement);
  if (problems.length > 0) {
    // Never sent: an invalid statement is a mistake in the mapping, and the LRS would refuse it anyway.
    deps.log.error({ statementId: claimed.statementId, problems }, 'invalid xAPI statement not sent');
    const error = `Neveljavna izjava xAPI: ${problems.join('; ')}`;
    await markNotSent(deps.db, destination, claimed.statementId, worker, { error, httpStatus: null, final: true, retryInSeconds: 0 });
    return;
  }
  const outcome = await deps.send(lrs, claimed.statementId, claimed.statement);
  if (outcome.kind === 'delivered') {
    await markSent(deps.db, destination, claimed.statementId, worker, outcome.status);
    return;
  }
  const final = outcome.kind === 'refused' || claimed.attempts >= MAX_ATTEMPTS;
  if (final) deps.log.warn({ statementId: claimed.statementId, status: outcome.status, error: outcome.error }, 'xAPI statement not delivered');
  await markNotSent(deps.db, destination, claimed.statementId, worker, {
    error: outcome.error,
    httpStatus: outcome.status,
    final,
    retryInSeconds: retryDelaySeconds(claimed.attempts),
  });
};

/** Sends what is due, a batch at a time, until nothing is due or the run's time is up (answers whether work is left). */
export const deliverStatements = async (deps: XapiOutJobDeps, lrs: LrsDestination, destination: string, deadline: number): Promise<boolean> => {
  const worker = randomUUID();
  for (;;) {
    const claimed = await claimDue(deps.db, destination, worker, deps.pace.sendBatch, deps.pace.leaseSeconds);
    if (claimed.length === 0) return false;
    for (let i = 0; i < claimed.length; i += deps.pace.sendAtOnce) {
      await Promise.all(claimed.slice(i, i + deps.pace.sendAtOnce).map((row) => deliverOne(deps, lrs, destination, worker, row)));
    }
    if (Date.now() > deadline) return hasDue(deps.db, destination);
  }
};

/**
 * One run of the forwarding: record the statements of new learning events, then send what is due.
 * Runs every minute (retries come due), after learning events (the reactor below), and again at once
 * while work is left. Any number of runs at once, in any number of processes, send each statement once.
 */
export const forwardStatements = async (deps: XapiOutJobDeps): Promise<boolean> => {
  const lrs = deps.destination;
  if (!lrs) return false;
  await ensureDestination(deps.db, PLATFORM_DESTINATION);
  const deadline = Date.now() + deps.pace.runSeconds * 1000;
  const moreToRead = await collectStatements(deps, PLATFORM_DESTINATION, deadline);
  const moreToSend = await deliverStatements(deps, lrs, PLATFORM_DESTINATION, deadline);
  return moreToRead || moreToSend;
};

export const forwardJob =
  (deps: XapiOutJobDeps, jobs: Pick<Jobs, 'send'>): JobHandler =>
  async () => {
    if (await forwardStatements(deps)) await jobs.send(XAPI_OUT_QUEUE, {}, { id: randomUUID() });
  };

/** Learning events older than this do not wake the forwarding (the runner replaying history); the minute's run finds them. */
const RECENT_MS = 10 * 60 * 1000;

/**
 * Learning events wake the forwarding (DESIGN §10: reactors queue jobs): one run per batch that holds
 * a recent one, its id made from the batch's last event, so a batch applied again queues nothing new.
 */
export const xapiOutReactor = (jobs: Pick<Jobs, 'send'>): Projection => ({
  name: 'xapi_out_jobs',
  version: 1,
  tables: [],
  setup: () => [],
  handles: [...READ_TYPES],
  apply: async (_context, events) => {
    const last = events.at(-1);
    if (!last || !events.some((e) => Date.now() - e.createdAt.getTime() < RECENT_MS)) return;
    await jobs.send(XAPI_OUT_QUEUE, {}, { id: xapiUuid(`forward/${last.eventId}`) });
  },
});
