import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';

export type LrsReadDb = DatabasePool;

/**
 * Whose statements a caller of `GET /xapi/statements` reads:
 * - `all`: a report reader with a system permission (every statement);
 * - `community`: a report reader of some units: their learners' statements (the person stood in one
 *   of those units or companies when the statement was stored) in courses their companies reach;
 * - `client`: the outside client: the statements clients wrote;
 * - `launch`: an AU: its own registration's statements.
 */
export type StatementReach =
  | { readonly kind: 'all' }
  | { readonly kind: 'community'; readonly courseIds: readonly number[]; readonly unitIds: readonly number[]; readonly companyIds: readonly number[] }
  | { readonly kind: 'client' }
  | { readonly kind: 'launch'; readonly registration: string };

/** The query parameters of xAPI §2.3.3 the LRS answers (the agent already as its key). */
export type StatementFilter = {
  readonly agentKey?: string | undefined;
  readonly verb?: string | undefined;
  readonly activity?: string | undefined;
  readonly registration?: string | undefined;
  readonly since?: string | undefined;
  readonly until?: string | undefined;
  readonly ascending: boolean;
  readonly limit: number;
  /** Where the previous page stopped (its last statement's stored time and id). */
  readonly after?: { readonly stored: string; readonly id: string } | undefined;
};

const inReach = (reach: StatementReach) => {
  switch (reach.kind) {
    case 'all':
      return sql.fragment`true`;
    case 'client':
      return sql.fragment`s.source = 'client'`;
    case 'launch':
      return sql.fragment`s.registration = ${reach.registration}`;
    case 'community':
      return sql.fragment`s.user_id is not null and s.course_id = any(${sql.array([...reach.courseIds], 'int4')})
        and (s.unit_ids && ${sql.array([...reach.unitIds], 'int4')} or s.company_ids && ${sql.array([...reach.companyIds], 'int4')})`;
    default: {
      const unreachable: never = reach;
      return unreachable;
    }
  }
};

const row = z.object({ statement_id: z.string(), stored: z.string(), statement: z.record(z.string(), z.unknown()) });
const stored = sql.fragment`to_char(s.stored at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** One page of statements (at most `limit`, and whether there are more), newest stored first unless `ascending`. */
export const findStatements = async (db: LrsReadDb, reach: StatementReach, filter: StatementFilter) => {
  const conditions = [sql.fragment`not s.voided`, inReach(reach)];
  if (filter.agentKey !== undefined) conditions.push(sql.fragment`s.actor_key = ${filter.agentKey}`);
  if (filter.verb !== undefined) conditions.push(sql.fragment`s.verb = ${filter.verb}`);
  if (filter.activity !== undefined) conditions.push(sql.fragment`s.activity_id = ${filter.activity}`);
  if (filter.registration !== undefined) conditions.push(sql.fragment`s.registration = ${filter.registration.toLowerCase()}`);
  if (filter.since !== undefined) conditions.push(sql.fragment`s.stored > ${filter.since}::timestamptz`);
  if (filter.until !== undefined) conditions.push(sql.fragment`s.stored <= ${filter.until}::timestamptz`);
  if (filter.after) {
    conditions.push(
      filter.ascending
        ? sql.fragment`(s.stored, s.statement_id) > (${filter.after.stored}::timestamptz, ${filter.after.id})`
        : sql.fragment`(s.stored, s.statement_id) < (${filter.after.stored}::timestamptz, ${filter.after.id})`,
    );
  }
  const order = filter.ascending ? sql.fragment`s.stored asc, s.statement_id asc` : sql.fragment`s.stored desc, s.statement_id desc`;
  const rows = await db.any(sql.type(row)`
    select s.statement_id, ${stored} as stored, s.statement from rm.lrs_statements s
     where ${sql.join(conditions, sql.fragment` and `)}
     order by ${order} limit ${filter.limit + 1}`);
  return { rows: rows.slice(0, filter.limit), more: rows.length > filter.limit };
};

/** One statement by id (xAPI §2.3.3 statementId / voidedStatementId): only a voided one when `voided`, else only one that is not. */
export const findStatement = async (db: LrsReadDb, reach: StatementReach, statementId: string, voided: boolean) =>
  db.maybeOne(sql.type(row)`
    select s.statement_id, ${stored} as stored, s.statement from rm.lrs_statements s
     where s.statement_id = ${statementId.toLowerCase()} and s.voided = ${voided} and ${inReach(reach)}`);

/** Statement ids already stored (by any launch or client), with what a statement sent again with them must equal. */
export const storedFingerprints = async (db: LrsReadDb, statementIds: readonly string[]) => {
  if (statementIds.length === 0) return new Map<string, string>();
  const rows = await db.any(
    sql.type(z.object({ statement_id: z.string(), fingerprint: z.string() }))`
      select statement_id, fingerprint from rm.lrs_statements where statement_id = any(${sql.array([...statementIds], 'text')})`,
  );
  return new Map(rows.map((r) => [r.statement_id, r.fingerprint]));
};

/** The courses learners' statements belong to (a community reader's reach is decided course by course). */
export const statementCourses = async (db: LrsReadDb) =>
  db.anyFirst(sql.type(z.object({ course_id: z.number() }))`select distinct course_id from rm.lrs_statements where course_id is not null order by course_id`);
