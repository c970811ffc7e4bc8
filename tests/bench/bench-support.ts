import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { z } from 'zod';
import { defineEvent } from '../../domain/shared/event.ts';
import { createEventCodec } from '../../infrastructure/event-store/event-codec.ts';
import type { EventStore } from '../../infrastructure/event-store/event-store.port.ts';
import { createPostgresEventStore } from '../../infrastructure/event-store/postgres/postgres-event-store.ts';
import { silentLog } from '../../infrastructure/logging/log.port.ts';
import { EVENT_DEFINITIONS } from '../../infrastructure/main/event-definitions.ts';
import { type Database, openDatabase } from '../../infrastructure/postgres/database.ts';
import { type EmbeddedServer, startEmbeddedPostgres } from '../../infrastructure/postgres/embedded-postgres.ts';
import { migrateDatabase } from '../../infrastructure/postgres/migrate.ts';

/** An event type only benchmarks write: a realistic payload of about 200 bytes. */
export const benchEvent = defineEvent('BenchEventHappened', z.object({ n: z.number(), course: z.number(), note: z.string() }));
export const benchPayload = (n: number) => ({ n, course: n % 97, note: 'Udeleženec je odprl blok s kvizom in odgovoril na vprašanje o interakcijah zdravil.' });

export type BenchServer = { server: EmbeddedServer | null; adminUrl: string; stop(): Promise<void> };

/** One PostgreSQL for the whole run: DATABASE_URL, or an embedded server (fsync on) in .data/bench-<pid>. */
export const startBenchServer = async (): Promise<BenchServer> => {
  if (process.env.DATABASE_URL) return { server: null, adminUrl: process.env.DATABASE_URL, stop: async () => undefined };
  const dataDir = join(import.meta.dirname, '..', '..', '.data', `bench-${process.pid}`);
  const server = await startEmbeddedPostgres({ dataDir, port: 56_000 + (process.pid % 4000), log: silentLog, database: 'postgres' });
  return {
    server,
    adminUrl: server.connectionString('postgres'),
    stop: async () => {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
};

export type BenchDb = Database & { store: EventStore; drop(): Promise<void> };

/** A fresh, migrated database on the bench server, with a PostgreSQL event store over it. */
export const createBenchDb = async (
  adminUrl: string,
  options: { poolSize?: number; warmConnections?: number; maxInFlight?: number; maxBatch?: number; parallelBatchEvents?: number } = {},
): Promise<BenchDb> => {
  const name = `bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  await migrateDatabase(url.toString());
  const db = await openDatabase(url.toString(), { poolSize: options.poolSize ?? 40, warmConnections: options.warmConnections, applicationName: 'bench' });
  const store = createPostgresEventStore({
    pool: db.pg,
    connect: db.connect,
    codec: createEventCodec([...EVENT_DEFINITIONS, benchEvent]),
    maxInFlight: options.maxInFlight,
    maxBatch: options.maxBatch,
    parallelBatchEvents: options.parallelBatchEvents,
  });
  return {
    ...db,
    store,
    drop: async () => {
      await store.close();
      await db.close();
      const a = new pg.Client({ connectionString: adminUrl });
      await a.connect();
      await a.query(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
};

/**
 * Writes events straight into the log, one append per event (as most commands append one), for
 * benches that measure reading, not writing. `rows` is a SELECT of stream_name, stream_revision,
 * event_id, event_type, schema_version, data, metadata and created_at; positions follow its order.
 */
export const seedEventsSql = (rows: string) => `
  insert into es.appends (global_position, stream_name, first_revision, positions, event_ids, event_types, schema_versions, data, metadata, created_at)
  select p, stream_name, stream_revision, array[p], array[event_id], array[event_type], array[schema_version], array[data::json], array[metadata::json], created_at
    from (select nextval('es.global_position_seq') as p, r.* from (${rows}) r) s`;

export const seconds = () => Number(process.env.BENCH_SECONDS ?? 5);

/** Runs `worker` on `concurrency` loops for `durationMs`; returns operations completed per second. */
export const runFor = async (concurrency: number, durationMs: number, worker: (index: number) => Promise<number>) => {
  const deadline = performance.now() + durationMs;
  let operations = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, index) => {
      while (performance.now() < deadline) {
        // Not `operations += await ...`: that reads the counter before the await and loses updates.
        const done = await worker(index);
        operations += done;
      }
    }),
  );
  return operations / ((performance.now() - started) / 1000);
};

export const percentile = (values: number[], p: number) => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
};

export const fmt = (value: number, digits = 0) => value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

export type Figures = { rps: number; p50: number; p99: number; non2xx: number; errors: number; total: number };

/** HTTP load from another process (tests/bench/load-client.ts, autocannon), so it does not share the server's event loop. */
export const load = async (job: object): Promise<Figures> => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--disable-warning=ExperimentalWarning', join(import.meta.dirname, 'load-client.ts'), JSON.stringify(job)],
    { maxBuffer: 1 << 20 },
  );
  return JSON.parse(stdout) as Figures;
};
