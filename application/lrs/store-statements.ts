import { createHash, randomUUID } from 'node:crypto';
import { cmi5VerbOf, isCmi5Defined } from '../../domain/lrs/cmi5-rules.ts';
import { lrsClientStatementDecider, lrsClientStatementStream } from '../../domain/lrs/lrs-client-statement.ts';
import {
  type LrsRegistrationEvent,
  lrsRegistrationDecider,
  lrsRegistrationStream,
  type PreparedStatement,
  statementConflict,
} from '../../domain/lrs/lrs-registration.ts';
import type { StoredStatementData } from '../../domain/lrs/lrs-statement.ts';
import { comparableStatement, isObject, type JsonObject, summarise } from '../../domain/lrs/xapi.ts';
import type { Cmi5Outcome, PackageLaunch } from '../../domain/packages/package-launch.ts';
import { fold } from '../../domain/shared/decider.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import type { EventMetadata } from '../../infrastructure/event-store/event-store.port.ts';
import { storedFingerprints } from '../../projections/lrs/lrs.queries.ts';
import { handleCommand } from '../shared/handle-command.ts';
import { clientAuthority, type LrsDeps, launchFacts, lmsAuthority } from './lrs.ts';
import { assertValidStatements } from './statement-validation.ts';

/** Who writes: an AU under its launch, or the outside client. */
export type StatementWriter = { readonly kind: 'launch'; readonly launch: PackageLaunch } | { readonly kind: 'client'; readonly key: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const badRequest = (message: string, field: string | null = null) => new DomainError('400', message, { status: 400, ...(field ? { field } : {}) });
export const isStatementId = (value: string) => UUID.test(value);

/** A statement's fingerprint: what another statement sent with its id must equal (domain/lrs/xapi.ts comparableStatement). */
const fingerprintOf = (statement: JsonObject) => createHash('sha256').update(comparableStatement(statement)).digest('base64url');

/**
 * xAPI §2.2: the statements as the LRS stores them. Each is checked first (all of them: a batch is
 * stored whole or not at all), then gets its id (the one the PUT names, or a new UUID), `stored`
 * (a millisecond apart within a batch, so the batch keeps its order), `authority`, `version`, and
 * the stored time as `timestamp` when it had none.
 */
const prepare = (bodies: readonly unknown[], options: { batch: boolean; id: string | null; authority: JsonObject; now: Date }): PreparedStatement[] => {
  if (bodies.length === 0) throw badRequest('Zahteva ne vsebuje nobene izjave.');
  if (bodies.length > 500) throw badRequest('Ena zahteva lahko vsebuje največ 500 izjav.');
  for (const body of bodies) if (!isObject(body)) throw badRequest('Izjava mora biti objekt JSON.');
  assertValidStatements(bodies, options.batch);
  const seen = new Set<string>();
  return (bodies as JsonObject[]).map((body, index) => {
    const given = typeof body.id === 'string' ? body.id.toLowerCase() : null;
    if (options.id !== null && given !== null && given !== options.id) throw badRequest('Id izjave se ne ujema s parametrom statementId.', 'statementId');
    const id = options.id ?? given ?? randomUUID();
    if (seen.has(id)) throw badRequest('Ista izjava je v zahtevi navedena dvakrat.', 'id');
    seen.add(id);
    const stored = new Date(options.now.getTime() + index).toISOString();
    const statement = { ...body, id, timestamp: body.timestamp ?? stored, stored, authority: options.authority, version: body.version ?? '1.0.0' };
    return { id, fingerprint: fingerprintOf(body), stored, statement };
  });
};

/**
 * Statements stored before under another stream (another launch, or a client): xAPI ids are one
 * space. The read model answers for those; a statement of this very stream is decided by the stream.
 */
const refuseForeignConflicts = async (deps: Pick<LrsDeps, 'db'>, statements: readonly PreparedStatement[]) => {
  const known = await storedFingerprints(
    deps.db,
    statements.map((s) => s.id),
  );
  for (const s of statements) if (known.has(s.id) && known.get(s.id) !== s.fingerprint) throw statementConflict();
  return known;
};

/** The cmi5 outcomes of stored statements (their cmi5 defined verbs), in the order stored. */
export const outcomesOf = (events: readonly LrsRegistrationEvent[]): Cmi5Outcome[] =>
  events.flatMap((event) =>
    event.type === 'LrsStatementStored' && event.data.cmi5Verb !== null
      ? [
          {
            verb: event.data.cmi5Verb,
            scaled: event.data.scaled,
            durationSeconds: event.data.durationSeconds,
            statementId: event.data.statementId,
            sessionId: event.data.sessionId,
          },
        ]
      : [],
  );

/**
 * Tells the courses feature each outcome of a launch's statements (it applies moveOn to the
 * enrollment). The statements are stored by then: a refusal of the courses feature (the block is no
 * longer there, the course was withdrawn) is logged, not the AU's failure; any other failure is, so
 * the AU sends the statements again, which stores nothing twice and tells the outcome again.
 */
export const recordOutcomes = async (deps: Pick<LrsDeps, 'recordCmi5Outcome' | 'log'>, launch: PackageLaunch, outcomes: readonly Cmi5Outcome[]) => {
  for (const outcome of outcomes) {
    try {
      await deps.recordCmi5Outcome(launch, outcome);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      deps.log.warn({ registration: launch.registration, statementId: outcome.statementId, code: error.code }, 'cmi5 outcome not recorded');
    }
  }
};

/**
 * Statements of the batch the registration already held (a retry): their outcomes are told again
 * (the courses feature ignores a statement it knows), so a retry heals an outcome that was lost.
 */
const resentOutcomes = (prepared: readonly PreparedStatement[], storedNow: ReadonlySet<string>): Cmi5Outcome[] =>
  prepared.flatMap((p) => {
    if (storedNow.has(p.id) || !isCmi5Defined(p.statement)) return [];
    const summary = summarise(p.statement);
    const verb = cmi5VerbOf(summary.verb);
    return verb === null ? [] : [{ verb, scaled: summary.scaled, durationSeconds: summary.durationSeconds, statementId: p.id, sessionId: summary.sessionId }];
  });

const storeForLaunch = async (deps: LrsDeps, launch: PackageLaunch, prepared: PreparedStatement[], metadata: EventMetadata) => {
  const { facts } = await launchFacts(deps, launch);
  await refuseForeignConflicts(deps, prepared);
  const result = await handleCommand(deps.store, {
    streamName: lrsRegistrationStream(facts.registration),
    decider: lrsRegistrationDecider,
    command: { type: 'StoreStatements', launch: facts, statements: prepared },
    metadata,
  });
  const storedNow = new Set(result.events.flatMap((e) => (e.type === 'LrsStatementStored' ? [e.data.statementId] : [])));
  await recordOutcomes(deps, launch, [...outcomesOf(result.events), ...resentOutcomes(prepared, storedNow)]);
  return result.position;
};

const clientData = (p: PreparedStatement): StoredStatementData => {
  const summary = summarise(p.statement);
  return {
    statementId: p.id,
    source: 'client',
    registration: summary.registration,
    sessionId: summary.sessionId,
    userId: null,
    courseId: null,
    blockId: null,
    unitIds: [],
    companyIds: [],
    verb: summary.verb,
    actorKey: summary.actorKey,
    activityId: summary.activityId,
    voids: summary.voids,
    cmi5Verb: null,
    scaled: summary.scaled,
    durationSeconds: summary.durationSeconds,
    fingerprint: p.fingerprint,
    stored: p.stored,
    statement: JSON.stringify(p.statement),
  };
};

/**
 * The outside client's statements, each in its own stream. Every stream is read (and every conflict
 * found) before the first is written, so a batch with a conflicting statement stores none of it.
 */
const storeForClient = async (deps: LrsDeps, prepared: PreparedStatement[], metadata: EventMetadata) => {
  const known = await refuseForeignConflicts(deps, prepared);
  for (const p of prepared) {
    const read = await deps.store.readStream(lrsClientStatementStream(p.id));
    const state = fold(
      lrsClientStatementDecider,
      read.events.map((e) => ({ type: 'LrsStatementStored' as const, data: e.data as StoredStatementData })),
    );
    if (state.status === 'stored' && state.fingerprint !== p.fingerprint) throw statementConflict();
  }
  let position = null;
  for (const p of prepared) {
    // Stored by a launch with the same content: nothing to add.
    if (known.has(p.id)) continue;
    const result = await handleCommand(deps.store, {
      streamName: lrsClientStatementStream(p.id),
      decider: lrsClientStatementDecider,
      command: { type: 'StoreClientStatement', data: clientData(p) },
      metadata,
    });
    position = result.position ?? position;
  }
  return position;
};

/**
 * `PUT /xapi/statements?statementId=` (one statement, its id in the query) and `POST /xapi/statements`
 * (one or a list): checked, completed and stored; answers the ids in the order sent.
 */
export const storeStatements = async (
  deps: LrsDeps,
  writer: StatementWriter,
  body: unknown,
  options: { statementId: string | null; metadata: EventMetadata },
) => {
  if (options.statementId !== null && !isStatementId(options.statementId)) throw badRequest('Parameter statementId mora biti UUID.', 'statementId');
  if (options.statementId !== null && Array.isArray(body)) throw badRequest('PUT sprejme eno izjavo.');
  const batch = Array.isArray(body);
  const authority = writer.kind === 'launch' ? lmsAuthority(deps) : clientAuthority(deps, writer.key);
  const prepared = prepare(batch ? body : [body], { batch, id: options.statementId?.toLowerCase() ?? null, authority, now: deps.now() });
  const position =
    writer.kind === 'launch' ? await storeForLaunch(deps, writer.launch, prepared, options.metadata) : await storeForClient(deps, prepared, options.metadata);
  return { ids: prepared.map((p) => p.id), position };
};
