import { z } from 'zod';
import { agentKey } from '../../domain/lrs/xapi.ts';
import type { PackageLaunch } from '../../domain/packages/package-launch.ts';
import { can, canSomewhere, communityReach, type Subject } from '../../domain/permissions/can.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import { findStatement, findStatements, type StatementFilter, type StatementReach, statementCourses } from '../../projections/lrs/lrs.queries.ts';
import { companiesOfUnits, courseReachable } from '../../projections/stats/stats.queries.ts';
import type { LrsDeps } from './lrs.ts';
import { parseJsonParameter } from './state-documents.ts';
import { isStatementId } from './store-statements.ts';

/** Who reads statements: an AU (its registration), the outside client (clients' statements), a report reader (their reach). */
export type StatementReader =
  | { readonly kind: 'launch'; readonly launch: PackageLaunch }
  | { readonly kind: 'client' }
  | { readonly kind: 'reader'; readonly subject: Subject };

/** The query parameters of `GET /xapi/statements` (xAPI §2.3.3), as text. */
export type StatementsQuery = {
  readonly statementId?: string | undefined;
  readonly voidedStatementId?: string | undefined;
  readonly agent?: string | undefined;
  readonly verb?: string | undefined;
  readonly activity?: string | undefined;
  readonly registration?: string | undefined;
  readonly since?: string | undefined;
  readonly until?: string | undefined;
  readonly limit?: string | undefined;
  readonly ascending?: string | undefined;
  readonly more?: string | undefined;
  readonly format?: string | undefined;
  readonly attachments?: string | undefined;
  readonly related_activities?: string | undefined;
  readonly related_agents?: string | undefined;
};

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 500;

const badRequest = (message: string, field: string) => new DomainError('400', message, { status: 400, field });
const forbidden = () => new DomainError('403', 'Nimate pravic za branje izjav.', { status: 403 });

/**
 * Those who read the course reports read the statements too, as far as the reports show them
 * (application/reports/course-report.ts reportReader): 1064 or 1056 system-wide read every
 * statement; 1059 in some units reads the statements of the learners of those units in courses
 * their companies reach. Nobody else reads any.
 */
export const readerReach = async (deps: Pick<LrsDeps, 'db'>, subject: Subject): Promise<StatementReach> => {
  if (can(subject, 1064, { kind: 'system' }) || can(subject, 1056, { kind: 'system' })) return { kind: 'all' };
  if (!canSomewhere(subject, 1059)) throw forbidden();
  const reach = communityReach(subject, 1059);
  const companies = await companiesOfUnits(deps.db, reach.unitIds, reach.companyIds);
  const courseIds: number[] = [];
  for (const courseId of await statementCourses(deps.db)) if (await courseReachable(deps.db, courseId, companies)) courseIds.push(courseId);
  return { kind: 'community', courseIds, unitIds: reach.unitIds, companyIds: reach.companyIds };
};

const reachOf = async (deps: LrsDeps, reader: StatementReader): Promise<StatementReach> => {
  switch (reader.kind) {
    case 'launch':
      return { kind: 'launch', registration: reader.launch.registration.toLowerCase() };
    case 'client':
      return { kind: 'client' };
    case 'reader':
      return readerReach(deps, reader.subject);
    default: {
      const unreachable: never = reader;
      return unreachable;
    }
  }
};

/** The continuation (`more`) holds the whole query and where the page stopped; the reach is worked out anew on every page. */
const isoInstant = z.iso.datetime();
const continuation = z.object({
  agentKey: z.string().max(4000).optional(),
  verb: z.string().max(4000).optional(),
  activity: z.string().max(4000).optional(),
  registration: z.string().max(64).optional(),
  since: isoInstant.optional(),
  until: isoInstant.optional(),
  ascending: z.boolean(),
  limit: z.number().int().min(1).max(MAX_LIMIT),
  after: z.object({ stored: isoInstant, id: z.string().max(64) }),
});

const encodeMore = (filter: z.infer<typeof continuation>) => `/xapi/statements?more=${Buffer.from(JSON.stringify(filter)).toString('base64url')}`;
const decodeMore = (token: string): StatementFilter => {
  try {
    return continuation.parse(JSON.parse(Buffer.from(token, 'base64url').toString('utf8')));
  } catch {
    throw badRequest('Parameter more ni veljaven.', 'more');
  }
};

const instant = (value: string | undefined, field: string) => {
  if (value === undefined) return undefined;
  const time = Date.parse(value);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(time)) throw badRequest(`Parameter ${field} mora biti čas ISO 8601.`, field);
  return new Date(time).toISOString();
};

const flag = (value: string | undefined, field: string) => {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  throw badRequest(`Parameter ${field} je true ali false.`, field);
};

/** The query parameters as a filter; a parameter the LRS does not answer (related_*) is refused rather than ignored. */
const filterOf = (query: StatementsQuery): StatementFilter => {
  if (query.more !== undefined) return decodeMore(query.more);
  if (flag(query.related_activities, 'related_activities') || flag(query.related_agents, 'related_agents')) {
    throw badRequest('Parametra related_activities in related_agents nista podprta.', query.related_activities ? 'related_activities' : 'related_agents');
  }
  if (flag(query.attachments, 'attachments')) throw badRequest('Priponke niso podprte.', 'attachments');
  let key: string | undefined;
  if (query.agent !== undefined) {
    key = agentKey(parseJsonParameter(query.agent, 'agent')) ?? undefined;
    if (key === undefined) throw badRequest('Parameter agent mora navesti agenta z identifikatorjem.', 'agent');
  }
  const limit = query.limit === undefined ? DEFAULT_LIMIT : Number(query.limit);
  if (!Number.isInteger(limit) || limit < 0) throw badRequest('Parameter limit mora biti nenegativno celo število.', 'limit');
  if (query.registration !== undefined && !isStatementId(query.registration)) throw badRequest('Parameter registration mora biti UUID.', 'registration');
  return {
    agentKey: key,
    verb: query.verb,
    activity: query.activity,
    registration: query.registration,
    since: instant(query.since, 'since'),
    until: instant(query.until, 'until'),
    ascending: flag(query.ascending, 'ascending'),
    // xAPI: 0 asks for as many as the server gives.
    limit: limit === 0 ? MAX_LIMIT : Math.min(limit, MAX_LIMIT),
  };
};

/** `GET /xapi/statements`: one statement (statementId, voidedStatementId) or a page of them with the continuation. */
export const readStatements = async (deps: LrsDeps, reader: StatementReader, query: StatementsQuery) => {
  const reach = await reachOf(deps, reader);
  // A client or an AU reads right after it wrote: the read model is given the moment it needs.
  await deps.readModels.catchUp(['lrs']);
  const single = query.statementId ?? query.voidedStatementId;
  if (single !== undefined) {
    const others = Object.entries(query).filter(
      ([key, value]) => value !== undefined && !['statementId', 'voidedStatementId', 'format', 'attachments'].includes(key),
    );
    if (others.length > 0 || (query.statementId !== undefined && query.voidedStatementId !== undefined)) {
      throw badRequest('Ob statementId ali voidedStatementId so dovoljeni le parametri format in attachments.', others[0]?.[0] ?? 'statementId');
    }
    if (!isStatementId(single)) throw badRequest('Id izjave mora biti UUID.', query.statementId !== undefined ? 'statementId' : 'voidedStatementId');
    const found = await findStatement(deps.db, reach, single, query.voidedStatementId !== undefined);
    return { kind: 'one' as const, statement: found?.statement ?? null };
  }
  const filter = filterOf(query);
  const page = await findStatements(deps.db, reach, filter);
  const last = page.rows.at(-1);
  const { after: _after, ...rest } = filter;
  return {
    kind: 'list' as const,
    statements: page.rows.map((row) => row.statement),
    more: page.more && last ? encodeMore({ ...rest, after: { stored: last.stored, id: last.statement_id } }) : '',
  };
};
