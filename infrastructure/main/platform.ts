import type { FastifyBaseLogger } from 'fastify';
import { chambersModule } from '../../application/chambers/chambers.module.ts';
import { consentPorts, consentsModule } from '../../application/consents/consents.module.ts';
import { approvalTrailModule } from '../../application/courses/approval-trail.module.ts';
import { cmi5Outcomes, coursesModule } from '../../application/courses/courses.module.ts';
import { exportsModule } from '../../application/exports/exports.module.ts';
import { filesModule } from '../../application/files/files.module.ts';
import { importsModule } from '../../application/imports/imports.module.ts';
import { lrsModule, lrsPorts } from '../../application/lrs/lrs.module.ts';
import { mailModule } from '../../application/mail/mail.module.ts';
import { newsModule } from '../../application/news/news.module.ts';
import { newslettersModule } from '../../application/newsletters/newsletters.module.ts';
import { organisationModule } from '../../application/organisation/organisation.module.ts';
import { pushModule } from '../../application/push/push.module.ts';
import { reportsModule } from '../../application/reports/reports.module.ts';
import { requestsModule } from '../../application/shared/requests.module.ts';
import { surveysModule } from '../../application/surveys/surveys.module.ts';
import { requestSubjects, userAccounts, usersModule } from '../../application/users/users.module.ts';
import { xapiOutModule } from '../../application/xapi-out/xapi-out.module.ts';
import { statsModule } from '../../projections/stats/stats.module.ts';
import { mountLocalOidc } from '../auth/social-providers.ts';
import type { Config } from '../config/config.ts';
import type { EventStore } from '../event-store/event-store.port.ts';
import { createHttpApp } from '../http/app.ts';
import { registerLiveRoutes } from '../http/live.routes.ts';
import { createMetrics } from '../http/metrics.ts';
import { registerStaticUi } from '../http/static-ui.ts';
import { registerSystemRoutes } from '../http/system.routes.ts';
import type { Jobs } from '../jobs/jobs.port.ts';
import type { Log } from '../logging/log.port.ts';
import { createContentServer } from '../packages/content-server.ts';
import type { Database } from '../postgres/database.ts';
import { openReadRouting } from '../postgres/read-routing.ts';
import { createProjectionRunner } from '../projections/projection-runner.ts';
import { createReadModelChanges } from '../projections/read-model-changes.ts';
import { createReadModels } from '../projections/read-models.ts';
import { erasureOutsideTheLog } from './erasure-outside-the-log.ts';
import { buildPlatformAdapters } from './platform-adapters.ts';
import { APP_VERSION } from './version.ts';

/** Package uploads a person may make in an hour (each is checked entry by entry and stored file by file). */
const PACKAGE_UPLOADS_PER_HOUR = 60;

/** The platform's features (DESIGN.md §2, decision 0058): a new feature is its folders and one line here. */
export const FEATURE_MODULES = [
  usersModule,
  organisationModule,
  coursesModule,
  approvalTrailModule,
  consentsModule,
  statsModule,
  newslettersModule,
  newsModule,
  mailModule,
  importsModule,
  pushModule,
  reportsModule,
  exportsModule,
  chambersModule,
  filesModule,
  surveysModule,
  lrsModule,
  xapiOutModule,
] as const;

/** Every read model the runner keeps (and `npm run projections:rebuild` rebuilds). */
export const PROJECTIONS = FEATURE_MODULES.flatMap((module) => module.projections);
const READ_MODELS = PROJECTIONS.map((projection) => projection.name);

/**
 * The composition root, shared by `npm start` and the API tests: the adapters are built once, each
 * feature module takes the ports it needs from them, and only here do concrete adapters meet features.
 */
export const buildPlatform = async (options: {
  config: Config;
  db: Database;
  store: EventStore;
  logger: FastifyBaseLogger;
  log: Log;
  /** Background jobs (pg-boss). Without them (most API tests) nothing is mailed. */
  jobs: Jobs | null;
}) => {
  const { config, db, logger, log, jobs } = options;
  const adapters = await buildPlatformAdapters({ config, db, log, store: options.store });
  const { store } = adapters;
  const reactors = jobs ? FEATURE_MODULES.flatMap((module) => module.reactors?.(jobs) ?? []) : [];
  const runner = createProjectionRunner({ db, store, projections: [...PROJECTIONS, ...reactors], log });
  // DATABASE_READ_URL (decision 0067): GET requests' queries, and their read-your-writes waits, on a replica; a job process serves none.
  const replicas = config.processRole === 'jobs' ? { ...config.readReplicas, urls: [] } : config.readReplicas;
  const reads = await openReadRouting({ primary: db, replicas, poolSize: config.databasePoolSize, log });
  const freshness = reads ? reads.freshness(runner) : runner;
  // A record named right after it was made may be a moment ahead of the read models that know it.
  const readModels = createReadModels(freshness, store, READ_MODELS, config.readWaitMs);
  const erasure = erasureOutsideTheLog({ db, projections: PROJECTIONS, outbox: adapters.outbox, forgetChamberFiles: adapters.forgetChamberFiles, readModels });
  // The ports every module takes what it needs from (each module's `Needs` type says what).
  const base = {
    ...adapters,
    db: reads?.slonik ?? db.slonik,
    pg: reads?.pg ?? db.pg,
    now: () => new Date(),
    log,
    readModels,
    erasure,
    settings: config,
    loginTokenTtlSeconds: config.loginTokenTtlSeconds,
  };
  // What features offer one another, each built by the feature that owns it.
  const consents = consentPorts(base);
  const accountNeeds = { ...base, recordConsents: consents.record };
  // A cmi5 AU's statements move its block on (issue 35): the LRS tells the packages feature.
  // The LRS prepares a cmi5 launch (LMS.LaunchData, the "launched" statement) for the courses feature.
  const packageOutcomes = cmi5Outcomes(base);
  const lrs = lrsPorts({ ...base, recordCmi5Outcome: packageOutcomes.recordCmi5Outcome });
  const ports = {
    ...accountNeeds,
    userAccounts: userAccounts(accountNeeds),
    recordCmi5Outcome: packageOutcomes.recordCmi5Outcome,
    prepareCmi5Launch: lrs.prepareCmi5Launch,
  };

  const app = await createHttpApp({
    logger,
    bodyLimitBytes: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    tokens: adapters.tokens,
    // The runner's stamp says what the primary holds: a subject read on a replica is not kept under it.
    ...requestSubjects({ pg: base.pg, changeStamp: (names) => (reads?.onReplica() ? null : runner.changeStamp(names)), consentGate: consents.gate }),
    freshness,
    requestScope: reads?.requestScope,
    readWaitMs: config.readWaitMs,
    version: APP_VERSION,
    features: config.features,
    references: requestsModule.references(ports),
    limiter: adapters.limiter,
    // A package upload holds up to five times PACKAGE_MAX_BYTES unpacked in memory: one at a time per person (issue 35).
    expensiveAtOnce: { render: config.renders.perPerson, package: 1 },
    expensivePerHour: {
      render: config.renders.perHour,
      export: config.exportsPerPerson.perHour,
      comment: config.commentsPerHour,
      mail: config.mailsPerHour,
      package: PACKAGE_UPLOADS_PER_HOUR,
    },
    catchUp: () => readModels.catchUp(),
    frameOrigins: [config.packages.contentOrigin],
  });
  const metrics = createMetrics(app);
  registerSystemRoutes(app, {
    // Bounded, queue wait included: a balancer's check (2 s) hears "unavailable" rather than nothing.
    checkDatabase: () =>
      Promise.race([
        db.pg.query('select 1').then((result) => result.rowCount === 1),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 1500).unref()),
      ]),
    metrics: async () =>
      (await metrics({ projections: () => runner.status(), head: () => store.headPosition(), role: config.processRole })) + (reads?.metrics() ?? ''),
    features: config.features,
    version: APP_VERSION,
  });
  for (const module of FEATURE_MODULES) {
    const wiring = module.wire(ports);
    if (jobs) for (const job of wiring.jobs?.(jobs) ?? []) await jobs.register(job.queue, job.handler, job.options);
    await wiring.routes(app);
  }
  await mountLocalOidc(app, adapters.localOidc);
  const changes = createReadModelChanges(db.pg);
  registerLiveRoutes(app, { changes, streamsPerUser: config.liveStreamsPerUser });
  app.addHook('onClose', async () => {
    changes.close();
    await adapters.close();
  });
  await registerStaticUi(app, { distDir: config.uiDistDir });
  // Package code's own origin (issue 35, decision 0059): served by a second server, listened on beside the API.
  const contentApp = await createContentServer({
    launches: adapters.packageLaunches,
    packages: adapters.packages,
    platformOrigin: new URL(config.publicUrl).origin,
    logger,
  });
  app.addHook('onClose', async () => contentApp.close());
  app.addHook('onClose', async () => reads?.close());

  const { personalKeys, protection, ids, passwords, tokens } = adapters;
  return { app, contentApp, runner, store, db, ids, passwords, tokens, personalKeys, protection, reads };
};

/** What `npm start`, the API tests and the benchmarks get: the server, the runner and the adapters they seed through. */
export type Platform = Awaited<ReturnType<typeof buildPlatform>>;
