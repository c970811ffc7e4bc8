import cluster from 'node:cluster';
import { EventStoreDBClient } from '@eventstore/db-client';
import { Context, Effect, Layer } from 'effect';
import type { Logger } from 'pino';
import { sql } from 'slonik';
import { type Config, loadConfig } from '../config/config.ts';
import { createEsdbEventStore } from '../event-store/esdb/esdb-event-store.ts';
import { createEventCodec } from '../event-store/event-codec.ts';
import type { EventStore } from '../event-store/event-store.port.ts';
import { createPostgresEventStore } from '../event-store/postgres/postgres-event-store.ts';
import type { Jobs } from '../jobs/jobs.port.ts';
import { startJobs } from '../jobs/pg-boss-jobs.ts';
import { type Database, openDatabase } from '../postgres/database.ts';
import { startMigratedDatabase } from '../postgres/migrated-database.ts';
import { DEMO_LOGINS, DEMO_PASSWORD, loadDemoData } from './demo-data.ts';
import { EVENT_DEFINITIONS } from './event-definitions.ts';
import { createLogger } from './logger.ts';
import { buildPlatform, type Platform } from './platform.ts';

/**
 * The process as scoped layers: configuration, logger, database (embedded PostgreSQL when no
 * DATABASE_URL), event store, platform wiring, projection runner, jobs, HTTP server. Each layer
 * releases what it acquired when the process is interrupted (SIGINT/SIGTERM), in reverse order.
 */
export class AppConfig extends Context.Service<AppConfig, Config>()('medilearn/Config') {}
export class AppLogger extends Context.Service<AppLogger, Logger>()('medilearn/Logger') {}
export class AppDatabase extends Context.Service<AppDatabase, Database>()('medilearn/Database') {}
export class AppEventStore extends Context.Service<AppEventStore, EventStore>()('medilearn/EventStore') {}
export class AppPlatform extends Context.Service<AppPlatform, Platform>()('medilearn/Platform') {}
export class AppJobs extends Context.Service<AppJobs, Jobs>()('medilearn/Jobs') {}

const attempt = <A>(what: string, run: () => Promise<A>) =>
  Effect.tryPromise({ try: run, catch: (cause) => new Error(`${what}: ${(cause as Error)?.message ?? String(cause)}`, { cause }) });

export const ConfigLayer = Layer.effect(AppConfig, Effect.try({ try: () => loadConfig(), catch: (cause) => cause as Error }));

export const LoggerLayer = Layer.effect(
  AppLogger,
  Effect.gen(function* () {
    const config = yield* AppConfig;
    return createLogger(config.logLevel);
  }),
);

export const DatabaseLayer = Layer.effect(
  AppDatabase,
  Effect.gen(function* () {
    const config = yield* AppConfig;
    const logger = yield* AppLogger;
    // Its errors name the step that failed (the embedded server or the migrations). While it waits for
    // an external database a shutdown need not wait for it; an embedded server it starts is stopped last.
    const starting = Effect.tryPromise({ try: () => startMigratedDatabase(config, logger), catch: (cause) => cause as Error });
    const { connectionString } = yield* Effect.acquireRelease(config.databaseUrl ? Effect.interruptible(starting) : starting, ({ embedded }) =>
      embedded ? Effect.promise(() => embedded.stop()).pipe(Effect.tap(() => Effect.sync(() => logger.info('embedded PostgreSQL stopped')))) : Effect.void,
    );
    return yield* Effect.acquireRelease(
      // Named by process, so pg_stat_activity and pg_locks tell which process holds which projection (decision 0035).
      // The event store's pool is opened whole and kept (decision 0045).
      attempt('Database pools', () =>
        openDatabase(connectionString, {
          poolSize: config.databasePoolSize,
          warmConnections: config.databasePoolSize,
          applicationName: `medilearn:${process.pid}`,
        }),
      ),
      (db) => Effect.promise(() => db.close()),
    );
  }),
);

export const EventStoreLayer = Layer.effect(
  AppEventStore,
  Effect.gen(function* () {
    const config = yield* AppConfig;
    const db = yield* AppDatabase;
    const logger = yield* AppLogger;
    const codec = createEventCodec(EVENT_DEFINITIONS);
    const create = (): EventStore =>
      config.eventStore === 'esdb'
        ? createEsdbEventStore({
            client: EventStoreDBClient.connectionString(config.eventStoreUrl as string),
            codec,
            onSubscriptionError: (err) => logger.warn({ err }, 'EventStoreDB subscription error'),
          })
        : createPostgresEventStore({
            pool: db.pg,
            connect: db.connect,
            codec,
            onListenError: (err) => logger.warn({ err }, 'event store LISTEN connection error'),
          });
    return yield* Effect.acquireRelease(Effect.sync(create), (store) => Effect.promise(() => store.close()));
  }),
);

export const PlatformLayer = Layer.effect(
  AppPlatform,
  Effect.gen(function* () {
    const config = yield* AppConfig;
    const db = yield* AppDatabase;
    const store = yield* AppEventStore;
    const logger = yield* AppLogger;
    const jobs = yield* AppJobs;
    return yield* attempt('Platform wiring', () => buildPlatform({ config, db, store, logger, log: logger, jobs }));
  }),
);

/** Projections follow the store from here on; stopping waits for the batch in flight. */
export const RunnerLayer = Layer.effectDiscard(
  Effect.gen(function* () {
    const config = yield* AppConfig;
    const platform = yield* AppPlatform;
    // A job process runs no projection (decision 0066): its jobs read the read models and wait for none.
    if (config.processRole === 'jobs') return;
    yield* Effect.acquireRelease(
      attempt('Projection runner', () => platform.runner.start()),
      () => Effect.promise(() => platform.runner.stop()),
    );
  }),
);

export const DemoDataLayer = Layer.effectDiscard(
  Effect.gen(function* () {
    const config = yield* AppConfig;
    const platform = yield* AppPlatform;
    const logger = yield* AppLogger;
    // Demo data waits for its read models: an api (or all) process loads it, where the runner runs.
    if (!config.demoData || config.processRole === 'jobs') return;
    yield* attempt('Demo data', () =>
      loadDemoData({
        store: platform.store,
        ids: platform.ids,
        passwords: platform.passwords,
        db: platform.db,
        log: logger,
        settle: async (position) => {
          if (position) await platform.runner.waitFor(['organisation', 'users', 'courses', 'academies', 'posts', 'consents'], position, 30_000);
        },
        features: config.features,
      }),
    );
  }),
);

export const JobsLayer = Layer.effect(
  AppJobs,
  Effect.gen(function* () {
    const config = yield* AppConfig;
    const db = yield* AppDatabase;
    const logger = yield* AppLogger;
    // An api process only sends (decision 0066): its registrations create queues, never workers or schedules.
    const timing = config.jobTiming;
    const options = {
      connectionString: db.connectionString,
      log: logger,
      sendOnly: config.processRole === 'api',
      ...(timing.monitorIntervalSeconds ? { monitorIntervalSeconds: timing.monitorIntervalSeconds } : {}),
      ...(timing.heartbeatSeconds ? { heartbeatSeconds: timing.heartbeatSeconds } : {}),
    };
    const jobs = yield* Effect.acquireRelease(
      attempt('Job queue', () => startJobs(options)),
      (j) => Effect.promise(() => j.stop()),
    );
    // Schemas of retired projection generations are dropped by the switch; this catches any a crash left behind.
    yield* attempt('Job registration', () =>
      jobs.register(
        'projections.drop-retired-generations',
        async () => {
          const retired = await db.slonik.anyFirst(sql.unsafe`
            select n.nspname from pg_namespace n
              join projections.generations g on n.nspname = 'rm_' || g.name || '_' || g.generation
             where g.status = 'retired'`);
          for (const schema of retired) await db.slonik.query(sql.unsafe`drop schema if exists ${sql.identifier([String(schema)])} cascade`);
        },
        { cron: '17 * * * *' },
      ),
    );
    return jobs;
  }),
);

export const ServerLayer = Layer.effectDiscard(
  Effect.gen(function* () {
    const config = yield* AppConfig;
    const platform = yield* AppPlatform;
    const logger = yield* AppLogger;
    if (config.processRole === 'jobs') return yield* jobProcessReady(platform, logger);
    yield* Effect.acquireRelease(
      attempt('HTTP server', () => platform.app.listen({ port: config.port, host: config.host })),
      () => Effect.promise(() => platform.app.close()).pipe(Effect.tap(() => Effect.sync(() => logger.info('HTTP server closed')))),
    );
    // Package code's origin (issue 35): its own port, closed with the API's server.
    yield* attempt('Content server', () => platform.contentApp.listen({ port: config.packages.contentPort, host: config.host }));
    const address = platform.app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const url = `http://localhost:${port}`;
    // Several API processes (API_PROCESSES): the first prints the banner, the others one line.
    if (cluster.isWorker && cluster.worker?.id !== 1) {
      logger.info({ port, pid: process.pid }, 'API process is listening');
      return;
    }
    const lines = [`Medilearn is running at ${url}`, `SCORM and cmi5 package content is served from ${config.packages.contentOrigin}`];
    if (config.demoData) {
      lines.push(`Demo logins (password ${DEMO_PASSWORD}):`);
      for (const login of DEMO_LOGINS) lines.push(`  ${login.username.padEnd(12)} ${login.role}`);
    }
    process.stdout.write(`\n${lines.join('\n')}\n\n`);
  }),
);

/**
 * A job process listens on no port (decision 0066): its workers started with the platform's wiring.
 * The app is never listened on, but closing it still releases the adapters (its onClose hooks).
 * Cluster workers tell the supervisor they are ready, as a listening API process does by listening.
 */
const jobProcessReady = (platform: Platform, logger: Logger) =>
  Effect.gen(function* () {
    yield* Effect.acquireRelease(
      attempt('Job process', async () => {
        await platform.app.ready();
      }),
      () => Effect.promise(() => platform.app.close()).pipe(Effect.tap(() => Effect.sync(() => logger.info('job process stopped')))),
    );
    if (cluster.isWorker) {
      logger.info({ pid: process.pid }, 'job process is working the queues');
      process.send?.({ medilearn: 'jobs-ready' });
      return;
    }
    process.stdout.write(`\nMedilearn job process ${process.pid} is working the queues (no HTTP)\n\n`);
  });

/** Everything `npm start` runs, in dependency order. */
export const MainLayer = ServerLayer.pipe(
  Layer.provideMerge(DemoDataLayer),
  Layer.provideMerge(RunnerLayer),
  Layer.provideMerge(PlatformLayer),
  // Jobs start before the platform: its reactors queue mail and its workers send it.
  Layer.provideMerge(JobsLayer),
  Layer.provideMerge(EventStoreLayer),
  Layer.provideMerge(DatabaseLayer),
  Layer.provideMerge(LoggerLayer),
  Layer.provideMerge(ConfigLayer),
);
