import pg from 'pg';
import { createPool, type DatabasePool, type Interceptor, SchemaValidationError } from 'slonik';

/**
 * Two pools on one database. The event store's hot path uses `pg` directly (one prepared statement
 * per append batch, connections kept after expected errors). Read models, projections and
 * migrations use slonik for its SQL tag (identifiers, unnest, fragments) and typed results.
 */
export type Database = {
  readonly connectionString: string;
  readonly pg: pg.Pool;
  readonly slonik: DatabasePool;
  /** A dedicated connection outside the pools (LISTEN, advisory locks held for a session). */
  readonly connect: () => Promise<pg.Client>;
  readonly close: () => Promise<void>;
};

// int8 ids and counts fit in a JS number; timestamps travel as ISO strings to the API.
pg.types.setTypeParser(20, (value) => Number(value));

/** Runs the zod schema of `sql.type(schema)` on every row: slonik does not do it by itself. */
const resultParser: Interceptor = {
  name: 'result-parser',
  transformRow: (context, query, row, fields) => {
    const parser = context.resultParser;
    if (!parser) return row;
    const result = parser['~standard'].validate(row);
    if (result instanceof Promise) throw new Error('Async result parsers are not supported');
    if (result.issues) throw new SchemaValidationError(query, row, result.issues);
    void fields;
    return result.value as typeof row;
  },
};

export const openDatabase = async (
  connectionString: string,
  options: {
    poolSize?: number;
    applicationName?: string;
    /**
     * `pg` pool connections opened before the pool is handed out and never closed for idleness.
     * A pool that grows under a burst pays a backend start and a SCRAM exchange per connection in
     * the middle of it (the lag bench saw 38 opened at once and 137 ms lags); and one that drops
     * idle connections after 10 s pays it again after every quiet spell (decision 0045).
     */
    warmConnections?: number;
    /** How long a new connection may take; unset: pg's none and slonik's 5 s. A read replica's is short, so a dead one is left quickly. */
    connectionTimeoutMs?: number;
    /**
     * Each statement's limit, unset: none. A read replica's (decision 0067): the server cancels a
     * statement past it (a query waiting on replay's locks), and the `pg` pool gives up on an answer
     * a second later (a connection that hangs, where no cancel can arrive).
     */
    statementTimeoutMs?: number;
  } = {},
): Promise<Database> => {
  const applicationName = options.applicationName ?? 'medilearn';
  const max = options.poolSize ?? 10;
  const warm = Math.min(options.warmConnections ?? 0, max);
  const pgPool = new pg.Pool({
    connectionString,
    max,
    min: warm,
    application_name: applicationName,
    ...(options.connectionTimeoutMs ? { connectionTimeoutMillis: options.connectionTimeoutMs } : {}),
    ...(options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs, query_timeout: options.statementTimeoutMs + 1000 } : {}),
  });
  // An idle client that loses its connection emits here; without a listener the process would crash.
  pgPool.on('error', () => undefined);
  if (warm > 0) {
    try {
      const clients = await Promise.all(Array.from({ length: warm }, () => pgPool.connect()));
      for (const client of clients) client.release();
    } catch (error) {
      // Not a half-open pool left behind by a failed start.
      await pgPool.end().catch(() => undefined);
      throw error;
    }
  }
  const slonikUrl = new URL(connectionString);
  slonikUrl.searchParams.set('application_name', applicationName);
  const slonik = await createPool(slonikUrl.toString(), {
    maxPoolSize: options.poolSize ?? 10,
    interceptors: [resultParser],
    statementTimeout: options.statementTimeoutMs || 'DISABLE_TIMEOUT',
    idleTimeout: 30_000,
    captureStackTrace: false,
    ...(options.connectionTimeoutMs ? { connectionTimeout: options.connectionTimeoutMs } : {}),
    // Our sessions keep no state between uses, so the default DISCARD ALL round trip is skipped.
    resetConnection: async () => undefined,
    typeParsers: [
      { name: 'int8', parse: (value) => Number(value) },
      { name: 'numeric', parse: (value) => Number(value) },
      { name: 'timestamptz', parse: (value) => new Date(value).toISOString() },
      { name: 'timestamp', parse: (value) => value },
      { name: 'date', parse: (value) => value },
    ],
  });
  return {
    connectionString,
    pg: pgPool,
    slonik,
    connect: async () => {
      const client = new pg.Client({ connectionString, application_name: applicationName });
      client.on('error', () => undefined);
      await client.connect();
      return client;
    },
    close: async () => {
      await Promise.allSettled([pgPool.end(), slonik.end()]);
    },
  };
};
