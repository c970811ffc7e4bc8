import { type DatabasePool, type DatabaseTransactionConnection, sql } from 'slonik';
import { z } from 'zod';
import { DELIVERY_STATUSES, type DeliveryStatus } from '../../domain/xapi-out/xapi-out.rules.ts';
import { type AllPosition, comparePositions, formatPosition, START } from '../../infrastructure/event-store/event-store.port.ts';

/**
 * The xAPI delivery log and its destinations (issue 35 item 5, decision 0061): plain tables
 * (migration 0017), written by the forwarding job and read by the admin's delivery page.
 */
export type XapiOutDb = DatabasePool;

/**
 * The xAPI routes' permission: 1064 (generate reports, the admin data menu). Forwarding every person's
 * learning records to an LRS is the platform's reporting, and the delivery page shows and restarts it
 * for the whole platform, so it takes the platform-wide reporting permission rather than a community one.
 */
export const XAPI_OUT_PERMISSION = 1064;

const positionOf = (commit: string, prepare: string): AllPosition => ({ commit: BigInt(commit), prepare: BigInt(prepare) });

const destinationRow = z.object({
  cursor_commit: z.string(),
  cursor_prepare: z.string(),
  replay_until_commit: z.string().nullable(),
  replay_until_prepare: z.string().nullable(),
  replay_from: z.string().nullable(),
});

/** A backfill running: events up to `until` are read again, those from `from` on (a date; null: all) queued again. */
export type Replay = { readonly until: AllPosition; readonly from: string | null };

/** A destination as the collector finds it. */
export type DestinationState = { readonly cursor: AllPosition; readonly replay: Replay | null };

const stateOf = (row: z.infer<typeof destinationRow>): DestinationState => ({
  cursor: positionOf(row.cursor_commit, row.cursor_prepare),
  replay:
    row.replay_until_commit !== null && row.replay_until_prepare !== null
      ? { until: positionOf(row.replay_until_commit, row.replay_until_prepare), from: row.replay_from }
      : null,
});

const DESTINATION_COLUMNS = sql.fragment`cursor_commit::text, cursor_prepare::text, replay_until_commit::text, replay_until_prepare::text, replay_from`;

/** Makes the destination known (a new one reads the log from its start: an LRS set up later receives the whole history once). */
export const ensureDestination = async (db: XapiOutDb, id: string) => {
  await db.query(sql.unsafe`insert into public.xapi_out_destinations (id) values (${id}) on conflict (id) do nothing`);
};

/** A statement to record in the log. */
export type DeliveryRow = {
  readonly statementId: string;
  readonly eventId: string;
  readonly position: AllPosition;
  readonly eventType: string;
  readonly verb: string;
  readonly courseId: number | null;
  readonly userId: number | null;
  readonly eventAt: string;
  readonly statement: unknown;
};

/** What a collector may do while it holds a destination (one at a time; see `collectFor`). */
export type Collecting = DestinationState & {
  /** Each person's opaque name, made on first use; null for a person erased (nothing of them is sent). */
  readonly actorNames: (userIds: readonly number[]) => Promise<ReadonlyMap<number, string | null>>;
  /** Records statements as waiting; `again` (a backfill) sends those already recorded once more. */
  readonly record: (rows: readonly DeliveryRow[], again: boolean) => Promise<void>;
  /** People erased: their names are dropped and what of theirs still waits is not sent. */
  readonly forget: (userIds: readonly number[]) => Promise<void>;
  /** The log was read up to here; a backfill that reached its end is over. */
  readonly advance: (to: AllPosition) => Promise<void>;
};

const insertRows = (tx: DatabaseTransactionConnection, destination: string, rows: readonly DeliveryRow[], again: boolean) => {
  const json = JSON.stringify(
    rows.map((r) => ({
      statement_id: r.statementId,
      event_id: r.eventId,
      position_commit: r.position.commit.toString(),
      position_prepare: r.position.prepare.toString(),
      event_type: r.eventType,
      verb: r.verb,
      course_id: r.courseId,
      user_id: r.userId,
      event_at: r.eventAt,
      statement: r.statement,
    })),
  );
  // A backfill queues again what was sent or failed; a row being sent right now keeps its lease, so no second worker takes it meanwhile.
  const conflict = again
    ? sql.fragment`do update set status = 'pending', attempts = 0, next_attempt_at = now(), last_error = null, updated_at = now()`
    : sql.fragment`do nothing`;
  return tx.query(sql.unsafe`
    insert into public.xapi_out_deliveries
      (destination, statement_id, event_id, position_commit, position_prepare, event_type, verb, course_id, user_id, event_at, statement)
    select ${destination}, r.statement_id, r.event_id, r.position_commit::bigint, r.position_prepare::bigint, r.event_type, r.verb, r.course_id, r.user_id, r.event_at, r.statement
      from jsonb_to_recordset(${json}::jsonb) as r(
        statement_id uuid, event_id uuid, position_commit text, position_prepare text, event_type text, verb text,
        course_id integer, user_id integer, event_at timestamptz, statement jsonb)
    on conflict (destination, statement_id) ${conflict}`);
};

/**
 * Runs `work` while holding the destination's row: one collector at a time per destination (another
 * finds it taken and answers null at once), and what `work` records commits together with the
 * cursor it advanced, so a collector that dies leaves neither rows nor a cursor behind.
 */
export const collectFor = async <T>(db: XapiOutDb, destination: string, work: (collecting: Collecting) => Promise<T>): Promise<T | null> =>
  db.transaction(async (tx) => {
    const row = await tx.maybeOne(
      sql.type(destinationRow)`select ${DESTINATION_COLUMNS} from public.xapi_out_destinations where id = ${destination} for update skip locked`,
    );
    if (!row) return null;
    const state = stateOf(row);
    return work({
      ...state,
      actorNames: async (userIds) => {
        const ids = [...new Set(userIds)];
        if (ids.length === 0) return new Map();
        await tx.query(sql.unsafe`
          insert into public.xapi_out_actors (user_id, name) select id, gen_random_uuid() from unnest(${sql.array(ids, 'int4')}::int4[]) as id
          on conflict (user_id) do nothing`);
        const found = await tx.any(
          sql.type(z.object({ user_id: z.number(), name: z.string().nullable() }))`
            select user_id, name::text from public.xapi_out_actors where user_id = any(${sql.array(ids, 'int4')})`,
        );
        return new Map(found.map((a) => [a.user_id, a.name]));
      },
      record: async (rows, again) => {
        if (rows.length > 0) await insertRows(tx, destination, rows, again);
      },
      forget: async (userIds) => {
        if (userIds.length === 0) return;
        const ids = sql.array([...new Set(userIds)], 'int4');
        await tx.query(sql.unsafe`
          insert into public.xapi_out_actors (user_id, name) select id, null from unnest(${ids}::int4[]) as id
          on conflict (user_id) do update set name = null`);
        // One being sent at this moment may still arrive; nothing of theirs is sent after it.
        await tx.query(sql.unsafe`delete from public.xapi_out_deliveries where user_id = any(${ids}) and status <> 'sent'`);
        // What was sent stays in the log as a fact of the wire (id, status, attempts), but nothing that leads back
        // to the person: not their id, nor the statement with their opaque name and answers (decision 0061).
        await tx.query(
          sql.unsafe`update public.xapi_out_deliveries set user_id = null, statement = '{}'::jsonb where user_id = any(${ids}) and status = 'sent'`,
        );
      },
      advance: async (to) => {
        const ended = state.replay !== null && comparePositions(to, state.replay.until) >= 0;
        await tx.query(sql.unsafe`
          update public.xapi_out_destinations
             set cursor_commit = ${to.commit.toString()}::bigint, cursor_prepare = ${to.prepare.toString()}::bigint, updated_at = now()
                 ${ended ? sql.fragment`, replay_until_commit = null, replay_until_prepare = null, replay_from = null` : sql.fragment``}
           where id = ${destination}`);
      },
    });
  });

const claimedRow = z.object({ statement_id: z.string(), statement: z.unknown(), attempts: z.number() });
export type ClaimedDelivery = { readonly statementId: string; readonly statement: unknown; readonly attempts: number };

/**
 * Takes up to `limit` statements due for sending, leased to `worker` for `leaseSeconds`: rows another
 * worker is sending are skipped (SKIP LOCKED while claiming, the lease after), so two workers never
 * send one statement at once; a worker that dies leaves its lease to run out, and the row is taken
 * again. Each claim is an attempt.
 */
export const claimDue = async (db: XapiOutDb, destination: string, worker: string, limit: number, leaseSeconds: number): Promise<ClaimedDelivery[]> => {
  const rows = await db.any(sql.type(claimedRow)`
    with due as (
      select destination, statement_id from public.xapi_out_deliveries
       where destination = ${destination} and status = 'pending' and next_attempt_at <= now()
         and (claimed_until is null or claimed_until < now())
       order by next_attempt_at, position_commit, position_prepare
       limit ${limit}
       for update skip locked)
    update public.xapi_out_deliveries d
       set claimed_by = ${worker}, claimed_until = now() + make_interval(secs => ${leaseSeconds}), attempts = d.attempts + 1, updated_at = now()
      from due
     where d.destination = due.destination and d.statement_id = due.statement_id
    returning d.statement_id::text, d.statement, d.attempts`);
  return rows.map((r) => ({ statementId: r.statement_id, statement: r.statement, attempts: r.attempts }));
};

/** The LRS has it (it answered 2xx, or 409: it already held one with this id). Only the worker holding the lease records it. */
export const markSent = async (db: XapiOutDb, destination: string, statementId: string, worker: string, httpStatus: number) => {
  await db.query(sql.unsafe`
    update public.xapi_out_deliveries
       set status = 'sent', sent_at = now(), last_status = ${httpStatus}, last_error = null, accepted = accepted + 1,
           claimed_by = null, claimed_until = null, updated_at = now()
     where destination = ${destination} and statement_id = ${statementId} and claimed_by = ${worker}`);
};

/** Not delivered: tried again after `retryInSeconds`, or (`final`) recorded as failed for good. */
export const markNotSent = async (
  db: XapiOutDb,
  destination: string,
  statementId: string,
  worker: string,
  outcome: { readonly error: string; readonly httpStatus: number | null; readonly final: boolean; readonly retryInSeconds: number },
) => {
  await db.query(sql.unsafe`
    update public.xapi_out_deliveries
       set status = ${outcome.final ? 'failed' : 'pending'}, last_error = ${outcome.error.slice(0, 1000)}, last_status = ${outcome.httpStatus},
           next_attempt_at = now() + make_interval(secs => ${outcome.retryInSeconds}), claimed_by = null, claimed_until = null, updated_at = now()
     where destination = ${destination} and statement_id = ${statementId} and claimed_by = ${worker}`);
};

/** Whether statements are due now (the job goes on rather than waiting for its next run). */
export const hasDue = async (db: XapiOutDb, destination: string) =>
  (await db.maybeOneFirst(sql.type(z.object({ due: z.boolean() }))`
    select true as due from public.xapi_out_deliveries
     where destination = ${destination} and status = 'pending' and next_attempt_at <= now() and (claimed_until is null or claimed_until < now())
     limit 1`)) ?? false;

// ------------------------------------------------------------------ the admin's delivery page

export const deliveryItem = z.object({
  statementId: z.string(),
  eventType: z.string(),
  verb: z.string(),
  courseId: z.number().nullable(),
  courseTitle: z.string().nullable(),
  /** The event's position in the log (`<commit>-<prepare>`): a backfill may start from it. */
  position: z.string(),
  eventAt: z.string(),
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.number(),
  lastError: z.string().nullable(),
  lastStatus: z.number().nullable(),
  sentAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  /** How often the LRS accepted it (more than once after a backfill; the LRS keeps it once). */
  accepted: z.number(),
});
export type DeliveryItem = z.infer<typeof deliveryItem>;

/** A page of the log, newest events first, optionally of one status. */
export const listDeliveries = async (
  db: XapiOutDb,
  destination: string,
  filter: { readonly status?: DeliveryStatus; readonly page: number; readonly pageSize: number },
) => {
  const where = sql.fragment`d.destination = ${destination} ${filter.status ? sql.fragment`and d.status = ${filter.status}` : sql.fragment``}`;
  const items = await db.any(sql.type(deliveryItem)`
    select d.statement_id::text as "statementId", d.event_type as "eventType", d.verb, d.course_id as "courseId",
           (select c.title from rm.courses c where c.id = d.course_id) as "courseTitle",
           d.position_commit::text || '-' || d.position_prepare::text as position, d.event_at as "eventAt", d.status, d.attempts,
           d.last_error as "lastError", d.last_status as "lastStatus", d.sent_at as "sentAt",
           case when d.status = 'pending' then d.next_attempt_at end as "nextAttemptAt", d.accepted
      from public.xapi_out_deliveries d
     where ${where}
     order by d.position_commit desc, d.position_prepare desc, d.statement_id
     limit ${filter.pageSize} offset ${(filter.page - 1) * filter.pageSize}`);
  const total = await db.oneFirst(sql.type(z.object({ total: z.number() }))`select count(*)::int as total from public.xapi_out_deliveries d where ${where}`);
  return { items: [...items], total };
};

export const destinationSummary = z.object({
  /** How far the log was read for it. */
  readUpTo: z.string(),
  counts: z.object({ pending: z.number(), sent: z.number(), failed: z.number() }),
  backfill: z.object({ until: z.string(), from: z.string().nullable(), requestedAt: z.string().nullable() }).nullable(),
});
export type DestinationSummary = z.infer<typeof destinationSummary>;

/** A destination's progress and its log's counts by status; null when it has not been used yet. */
export const summariseDestination = async (db: XapiOutDb, destination: string): Promise<DestinationSummary | null> => {
  const row = await db.maybeOne(
    sql.type(destinationRow.extend({ replay_requested_at: z.string().nullable() }))`
      select ${DESTINATION_COLUMNS}, replay_requested_at from public.xapi_out_destinations where id = ${destination}`,
  );
  if (!row) return null;
  const counts = await db.any(
    sql.type(z.object({ status: z.enum(DELIVERY_STATUSES), n: z.number() }))`
      select status, count(*)::int as n from public.xapi_out_deliveries where destination = ${destination} group by status`,
  );
  const state = stateOf(row);
  const count = (status: DeliveryStatus) => counts.find((c) => c.status === status)?.n ?? 0;
  return {
    readUpTo: formatPosition(state.cursor),
    counts: { pending: count('pending'), sent: count('sent'), failed: count('failed') },
    backfill: state.replay ? { until: formatPosition(state.replay.until), from: state.replay.from, requestedAt: row.replay_requested_at } : null,
  };
};

/** How far before a backfill's day its reading starts: events are ordered by their transaction, not their time, so a little earlier. */
const DAY_MARGIN = sql.fragment`interval '1 hour'`;

/**
 * Starts a backfill (a replay of the log): the destination's cursor goes back to `from` (a position:
 * that event on; a time: the last statement recorded before it, a margin earlier) and what lies
 * between it and where the cursor was is queued again. Answers null when a backfill is running already
 * (one at a time), or the destination is unknown.
 */
export const startBackfill = async (
  db: XapiOutDb,
  destination: string,
  from: { readonly position: AllPosition } | { readonly at: Date },
  requestedBy: number,
): Promise<{ readonly from: AllPosition; readonly until: AllPosition } | 'running' | null> =>
  db.transaction(async (tx) => {
    const row = await tx.maybeOne(
      sql.type(destinationRow)`select ${DESTINATION_COLUMNS} from public.xapi_out_destinations where id = ${destination} for update`,
    );
    if (!row) return null;
    const state = stateOf(row);
    if (state.replay) return 'running';
    let start: AllPosition;
    if ('position' in from) {
      // The cursor is exclusive: reading resumes just before the position, so the event at it is read again.
      start = from.position.prepare > 0n ? { commit: from.position.commit, prepare: from.position.prepare - 1n } : START;
    } else {
      const before = await tx.maybeOne(
        sql.type(z.object({ c: z.string(), p: z.string() }))`
          select position_commit::text as c, position_prepare::text as p from public.xapi_out_deliveries
           where destination = ${destination} and event_at < ${from.at.toISOString()}::timestamptz - ${DAY_MARGIN}
           order by position_commit desc, position_prepare desc limit 1`,
      );
      start = before ? positionOf(before.c, before.p) : START;
    }
    // Nothing read yet past the start: nothing to send again.
    if (comparePositions(start, state.cursor) >= 0) return { from: state.cursor, until: state.cursor };
    await tx.query(sql.unsafe`
      update public.xapi_out_destinations
         set cursor_commit = ${start.commit.toString()}::bigint, cursor_prepare = ${start.prepare.toString()}::bigint,
             replay_until_commit = ${state.cursor.commit.toString()}::bigint, replay_until_prepare = ${state.cursor.prepare.toString()}::bigint,
             replay_from = ${'at' in from ? from.at.toISOString() : null}::timestamptz,
             replay_requested_at = now(), replay_requested_by = ${requestedBy}, updated_at = now()
       where id = ${destination}`);
    return { from: start, until: state.cursor };
  });
