import { hkdfSync, randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import {
  CHAMBER_CREDIT_QUEUE,
  CHAMBER_RETRY_LIMIT,
  CHAMBER_SWEEP_QUEUE,
  chamberCreditsReactor,
  reportChamberCredit,
  sweepChamberCredits,
} from '../../application/chambers/chamber-credits.job.ts';
import { CONSENT_CHECKPOINT_QUEUE, takeConsentCheckpoint } from '../../application/consents/consent-checkpoints.ts';
import { createConsentGate } from '../../application/consents/consent-gate.ts';
import { registerConsentRoutes } from '../../application/consents/consents.routes.ts';
import { giveConsents } from '../../application/consents/consents.ts';
import {
  courseNotificationsReactor,
  expandNotification,
  mailNotification,
  NOTIFICATION_EXPAND_QUEUE,
  NOTIFICATION_MAIL_QUEUE,
  NOTIFICATION_PUSH_QUEUE,
  NOTIFICATION_TICK_QUEUE,
  openCoursesWithNotifications,
  pushNotification,
} from '../../application/courses/course-notifications.job.ts';
import { runNotificationTick } from '../../application/courses/course-notifications.ts';
import { registerCourseRoutes } from '../../application/courses/courses.routes.ts';
import {
  discardExportFiles,
  EXPORT_DISCARD_QUEUE,
  EXPORT_HEARTBEAT_SECONDS,
  EXPORT_QUEUE,
  EXPORT_RETRY_LIMIT,
  exportsReactor,
  runExport,
} from '../../application/exports/export.job.ts';
import { registerExportRoutes } from '../../application/exports/exports.routes.ts';
import { registerFileRoutes } from '../../application/files/files.routes.ts';
import { registerImportRoutes } from '../../application/imports/imports.routes.ts';
import { IMPORT_QUEUE, IMPORT_RETRY_LIMIT, importJobsReactor, runImport } from '../../application/imports/user-import.job.ts';
import { registerMailRoutes } from '../../application/mail/mail.routes.ts';
import { registerNewsRoutes } from '../../application/news/news.routes.ts';
import { registerNewsletterRoutes } from '../../application/newsletters/newsletters.routes.ts';
import { registerOrganisationRoutes } from '../../application/organisation/organisation.routes.ts';
import { registerPushRoutes } from '../../application/push/push.routes.ts';
import { registerCourseReportRoutes } from '../../application/reports/course-reports.routes.ts';
import { createReferenceResolvers } from '../../application/shared/references.ts';
import { registerSurveyRoutes } from '../../application/surveys/surveys.routes.ts';
import type { AuthDeps } from '../../application/users/auth.deps.ts';
import { registerAuthRoutes } from '../../application/users/auth.routes.ts';
import { registerIdentityRoutes } from '../../application/users/identity.routes.ts';
import { sendIdentityMail } from '../../application/users/identity-mail.job.ts';
import { IDENTITY_MAIL_QUEUE, identityMailReactor } from '../../application/users/identity-mail.reactor.ts';
import { registerPersonalDataRoutes } from '../../application/users/personal-data.routes.ts';
import { registerProfileRoutes } from '../../application/users/profile.routes.ts';
import { registerSocialRoutes } from '../../application/users/social.routes.ts';
import type { SocialDeps } from '../../application/users/social-sign-in.ts';
import { registerUserAdminRoutes } from '../../application/users/user-admin.routes.ts';
import { createUserByAdmin, sendWelcome, updateUserByAdmin } from '../../application/users/user-admin.ts';
import { SOCIAL_PLATFORMS } from '../../domain/users/user.ts';
import { registerChamberCreditRoutes } from '../../projections/chambers/chamber-credits.routes.ts';
import { registerCertificateRoutes } from '../../projections/courses/certificates.routes.ts';
import { registerCourseReadRoutes } from '../../projections/courses/courses.routes.ts';
import { registerPublicCourseRoutes } from '../../projections/courses/public-courses.routes.ts';
import { registerExportReadRoutes } from '../../projections/exports/exports.routes.ts';
import { registerImportReadRoutes } from '../../projections/imports/imports.routes.ts';
import { registerOrganisationReadRoutes } from '../../projections/organisation/organisation.routes.ts';
import { registerStatsReadRoutes } from '../../projections/stats/stats.routes.ts';
import { createAuthSubjectCache } from '../../projections/users/auth-subject-cache.ts';
import { registerUserAdminReadRoutes } from '../../projections/users/user-admin.routes.ts';
import { findAuthSubject, userNames } from '../../projections/users/users.queries.ts';
import { registerUsersReadRoutes } from '../../projections/users/users.routes.ts';
import { loadCheckpointSigner } from '../anchors/ed25519-checkpoint-signer.ts';
import { createFileAnchorLog } from '../anchors/file-anchor-log.ts';
import { createPostgresCheckpointLeaves } from '../anchors/postgres-checkpoint-leaves.ts';
import { createAesSecretSealer } from '../auth/aes-secret-sealer.ts';
import { createArgon2PasswordHasher } from '../auth/argon2-password-hasher.ts';
import { createJwtPurposeTokens } from '../auth/jwt-purpose-tokens.ts';
import { resolveJwtSecret } from '../auth/jwt-secret.ts';
import { createJwtSessionTokens } from '../auth/jwt-session-tokens.ts';
import { createLocalOidcProvider } from '../auth/local-oidc-provider.ts';
import { createOidcSocialProvider } from '../auth/oidc-social-provider.ts';
import type { PasswordHasher } from '../auth/password-hasher.port.ts';
import { createPostgresAttemptLimiter } from '../auth/postgres-attempt-limiter.ts';
import type { SessionTokens } from '../auth/tokens.port.ts';
import { createFileDropChamberReporter, forgetDroppedCredits } from '../chambers/file-drop-chamber-reporter.ts';
import { createHttpChamberReporter, routeChamberReports } from '../chambers/http-chamber-reporter.ts';
import type { Config } from '../config/config.ts';
import type { EventStore } from '../event-store/event-store.port.ts';
import { createNotificationListener } from '../event-store/postgres/notification-listener.ts';
import { createDirectoryObjectStore } from '../files/directory-object-store.ts';
import { createPostgresFileStore } from '../files/postgres-file-store.ts';
import { createHttpApp } from '../http/app.ts';
import type { HttpApp } from '../http/http.port.ts';
import { registerLiveRoutes } from '../http/live.routes.ts';
import { createMetrics } from '../http/metrics.ts';
import { registerStaticUi } from '../http/static-ui.ts';
import { registerSystemRoutes } from '../http/system.routes.ts';
import type { IdAllocator } from '../ids/id-allocator.port.ts';
import { createPostgresIdAllocator } from '../ids/postgres-id-allocator.ts';
import type { Jobs } from '../jobs/jobs.port.ts';
import type { Log } from '../logging/log.port.ts';
import { createOutbox, createOutboxMailer } from '../mail/outbox-mailer.ts';
import { createSmtpMailer } from '../mail/smtp-mailer.ts';
import { createRenderPool, pooledRenderers } from '../pdf/render-pool.ts';
import { createErasureCompaction } from '../personal-data/erasure-compaction.ts';
import { resolvePersonalDataSecret } from '../personal-data/personal-data-secret.ts';
import type { PersonalKeys } from '../personal-data/personal-keys.port.ts';
import { createPostgresPersonalKeys, PERSONAL_KEY_ERASED_CHANNEL } from '../personal-data/postgres-personal-keys.ts';
import { protectExistingEvents } from '../personal-data/protect-existing-events.ts';
import { createPersonalDataProtection, createProtectingEventStore, type PersonalDataProtection } from '../personal-data/protecting-event-store.ts';
import type { Database } from '../postgres/database.ts';
import { createProjectionRunner, type ProjectionRunner } from '../projections/projection-runner.ts';
import { createReadModelChanges } from '../projections/read-model-changes.ts';
import { resolveVapidKeys } from '../push/vapid-keys.ts';
import { createWebPushSender } from '../push/web-push-sender.ts';
import { createExceljsSpreadsheet } from '../reports/exceljs-spreadsheet.ts';
import { createLocalVideoHost } from '../video/local-video-host.ts';
import { createWorkbookReader } from '../xlsx/workbook-reader.ts';
import { EVENT_DEFINITIONS } from './event-definitions.ts';
import { PROJECTIONS } from './projections.ts';
import { APP_VERSION } from './version.ts';

/** Every read model: a reference missing from one may be a moment behind its write. */
const READ_MODELS = PROJECTIONS.map((projection) => projection.name);

/** The read models the acting user of a request (roles, consents, session ended) is read from. */
const SUBJECT_READ_MODELS = ['users', 'consents'] as const;

export type Platform = {
  readonly app: HttpApp;
  readonly runner: ProjectionRunner;
  readonly store: EventStore;
  readonly personalKeys: PersonalKeys;
  readonly protection: PersonalDataProtection;
  readonly db: Database;
  readonly ids: IdAllocator;
  readonly passwords: PasswordHasher;
  readonly tokens: SessionTokens;
  readonly auth: AuthDeps;
};

/**
 * The composition root's wiring, shared by `npm start` and the API tests: concrete adapters go
 * into the slices, projections and routes here and nowhere else.
 */
export const buildPlatform = async (options: {
  config: Config;
  db: Database;
  store: EventStore;
  logger: FastifyBaseLogger;
  log: Log;
  /** Background jobs (pg-boss). Without them (most API tests) nothing is mailed. */
  jobs: Jobs | null;
}): Promise<Platform> => {
  const { config, db, logger, log, jobs } = options;
  // Every slice reads and writes people's data through this store, so it stays erasable (decision 0019).
  const personalSecret = await resolvePersonalDataSecret(db.pg);
  // An erasure in any API process evicts the key from every process's cache at once (decision 0035).
  const keyErasures = createNotificationListener({
    connect: db.connect,
    channel: PERSONAL_KEY_ERASED_CHANNEL,
    onError: (err) => log.warn({ err }, 'personal key LISTEN connection error'),
  });
  const personalKeys = createPostgresPersonalKeys(db.pg, createAesSecretSealer(personalSecret), Date.now, { erasures: keyErasures });
  const protection = createPersonalDataProtection({
    definitions: EVENT_DEFINITIONS,
    keys: personalKeys,
    streamKey: Buffer.from(hkdfSync('sha256', personalSecret, 'medilearn', 'claim-stream-names-v1', 32)),
  });
  await protectExistingEvents(db.pg, protection, log);
  const store = createProtectingEventStore(options.store, protection);
  const passwords = await createArgon2PasswordHasher();
  const platformSecret = await resolveJwtSecret(db.pg, config.jwtSecret);
  const tokens = createJwtSessionTokens({ secret: platformSecret, ttlSeconds: config.jwtTtlSeconds });
  const sealer = createAesSecretSealer(platformSecret);
  const purposeTokens = createJwtPurposeTokens(platformSecret);
  const ids = createPostgresIdAllocator(db.pg);
  // Mail goes through SMTP when configured, else into the outbox an admin reads (decision 0017).
  const mailer = config.smtpUrl ? createSmtpMailer({ url: config.smtpUrl, from: config.mailFrom }) : createOutboxMailer(db.pg);
  // Push notifications by standard Web Push with the platform's own VAPID keys (decision 0024).
  const push = createWebPushSender({
    keys: await resolveVapidKeys(db.pg, config.vapidKeys),
    subject: config.vapidSubject,
    allowedOrigins: config.pushEndpointOrigins,
  });
  const reactors = jobs
    ? [identityMailReactor(jobs), courseNotificationsReactor(jobs), exportsReactor(jobs), importJobsReactor(jobs), chamberCreditsReactor(jobs)]
    : [];
  const runner = createProjectionRunner({ db, store, projections: [...PROJECTIONS, ...reactors], log });
  if (jobs) {
    await jobs.register(IDENTITY_MAIL_QUEUE, sendIdentityMail({ store, mailer, log, sealer, publicUrl: config.publicUrl, now: () => new Date() }), {
      retryLimit: 5,
      retryDelaySeconds: 5,
    });
    // Course notifications (issue 16): recipients, one mail job per person, and the hourly schedule of automatic ones.
    const notifications = { store, mailer, log, db: db.slonik, jobs, publicUrl: config.publicUrl, now: () => new Date(), push };
    await jobs.register(NOTIFICATION_EXPAND_QUEUE, expandNotification(notifications), { retryLimit: 5, retryDelaySeconds: 5 });
    await jobs.register(NOTIFICATION_MAIL_QUEUE, mailNotification(notifications), { retryLimit: 5, retryDelaySeconds: 5 });
    await jobs.register(NOTIFICATION_PUSH_QUEUE, pushNotification(notifications), { retryLimit: 5, retryDelaySeconds: 5 });
    const courseDeps = { store, ids, db: db.slonik, now: () => new Date(), features: config.features };
    // Credit points to the chambers (issue 17 item 6, decision 0030): HTTP where a chamber has an address, else the file drop.
    const chamberUrls = config.chambers.urls;
    const reporter = routeChamberReports(
      Object.fromEntries(Object.entries(chamberUrls).map(([chamber, url]) => [chamber, createHttpChamberReporter(url)])),
      createFileDropChamberReporter(config.chambers.dropDir),
    );
    const chamberDeps = { store, db: db.slonik, reporter, jobs, log, now: () => new Date() };
    await jobs.register(CHAMBER_CREDIT_QUEUE, reportChamberCredit(chamberDeps), {
      retryLimit: CHAMBER_RETRY_LIMIT,
      retryDelaySeconds: config.chambers.retryDelaySeconds,
    });
    await jobs.register(CHAMBER_SWEEP_QUEUE, sweepChamberCredits(chamberDeps), { cron: '*/30 * * * *', retryLimit: 2 });
    await jobs.register(NOTIFICATION_TICK_QUEUE, async () => void (await runNotificationTick(courseDeps, await openCoursesWithNotifications(db.slonik))), {
      cron: '0 * * * *',
      retryLimit: 2,
    });
  }

  const authSubject = createAuthSubjectCache({
    stamp: () => runner.changeStamp(SUBJECT_READ_MODELS),
    load: (userId, sessionId) => findAuthSubject(db.pg, userId, sessionId),
  });
  // Attempts and budgets counted in PostgreSQL, shared by every process (guessing, costly work).
  const limiter = createPostgresAttemptLimiter(db.pg);
  // Uploads go to the object store while the S3-upload feature is on; files stored either way stay readable.
  const files = createPostgresFileStore(db.pg, { objects: createDirectoryObjectStore(config.objectStoreDir), uploadToObjects: config.features.s3Upload });
  // Signed checkpoints of the consent log, anchored outside the database (decision 0052).
  const consentProof = {
    leaves: createPostgresCheckpointLeaves(db.pg),
    signer: await loadCheckpointSigner({ pem: config.consentProof.keyPem, file: config.consentProof.keyFile }),
    anchors: createFileAnchorLog(config.consentProof.anchorFile),
    now: () => new Date(),
  };
  const consentGate = createConsentGate({ store, proof: consentProof, refreshMs: config.consentProof.refreshMs, now: () => new Date() });
  /** Waits (bounded) until every read model holds every event stored so far. */
  const catchUp = async () => {
    const head = await store.headPosition();
    if (head) await runner.waitFor(READ_MODELS, head, config.readWaitMs);
  };
  const app = await createHttpApp({
    logger,
    bodyLimitBytes: config.bodyLimitBytes,
    tokens,
    // The consent gate fails closed against the signed checkpoint (decision 0052).
    loadSubject: async (claims) => {
      const found = await authSubject(claims.userId, claims.sessionId);
      if (!found) return found;
      const missing = await consentGate.missingFromReadModel(claims.userId, { missing: found.missingConsents, ...found.consentStream });
      return missing === found.missingConsents ? found : { ...found, missingConsents: missing };
    },
    // The read model may not have a consent given a moment ago: before refusing (422086), the events decide.
    confirmMissingConsents: (userId) => consentGate.missingFromLog(userId),
    subjectReadModels: SUBJECT_READ_MODELS,
    freshness: runner,
    readWaitMs: config.readWaitMs,
    version: APP_VERSION,
    features: config.features,
    references: createReferenceResolvers({ db: db.slonik, files }),
    limiter,
    expensiveAtOnce: { render: config.renders.perPerson },
    expensivePerHour: { render: config.renders.perHour, export: config.exportsPerPerson.perHour, comment: config.commentsPerHour, mail: config.mailsPerHour },
    // A record named right after it was made may be a moment ahead of the read models that know it.
    catchUp,
  });
  const metrics = createMetrics(app);
  // Exports (issue 17 item 2, decision 0026): a job per export, resumed by pg-boss after a crash; files through the file port.
  const spreadsheet = createExceljsSpreadsheet();
  if (jobs) {
    const exportDeps = { store, db: db.slonik, files, spreadsheet, log, now: () => new Date(), retryLimit: EXPORT_RETRY_LIMIT };
    await jobs.register(EXPORT_QUEUE, runExport(exportDeps), {
      retryLimit: EXPORT_RETRY_LIMIT,
      retryDelaySeconds: 5,
      heartbeatSeconds: EXPORT_HEARTBEAT_SECONDS,
    });
    await jobs.register(EXPORT_DISCARD_QUEUE, discardExportFiles(exportDeps), { retryLimit: 10, retryDelaySeconds: 10 });
  }
  registerExportRoutes(app, { store, ids, db: db.slonik, files, runningPerPerson: config.exportsPerPerson.running, catchUp });
  registerExportReadRoutes(app, { db: db.slonik });
  registerChamberCreditRoutes(app, { db: db.slonik });

  // A reference (a company, a unit) missing from the read model may only be a moment behind its write.
  const organisationCatchUp = async () => {
    const head = await store.headPosition();
    if (head) await runner.waitFor(['organisation'], head, config.readWaitMs);
  };
  const auth: AuthDeps = {
    store,
    ids,
    db: db.slonik,
    passwords,
    tokens,
    purposeTokens,
    sealer,
    now: () => new Date(),
    loginTokenTtlSeconds: config.loginTokenTtlSeconds,
    attempts: {
      limiter,
      perAccount: config.authRateLimitPerMinute,
      perAddress: config.authAddressRateLimitPerMinute,
    },
    recordConsents: (userId, consents, origin, metadata) => giveConsents({ store, now: () => new Date() }, userId, consents, origin, metadata),
    catchUpOrganisation: organisationCatchUp,
  };

  registerSystemRoutes(app, {
    checkDatabase: async () => (await db.pg.query('select 1')).rowCount === 1,
    metrics: () => metrics({ projections: () => runner.status(), head: () => store.headPosition() }),
    features: config.features,
    version: APP_VERSION,
  });
  registerAuthRoutes(app, auth);
  registerIdentityRoutes(app, auth);
  // Social sign-in: the configured providers; with the local provider on, it stands in for any not configured.
  const socialClients = SOCIAL_PLATFORMS.map((platform) => ({
    platform,
    clientId: `medilearn-${platform}`,
    clientSecret: randomBytes(24).toString('base64url'),
  }));
  const local = config.oidcLocalProvider
    ? createLocalOidcProvider({
        issuer: `${config.publicUrl}/oidc`,
        clients: socialClients.map((c) => ({
          clientId: c.clientId,
          clientSecret: c.clientSecret,
          redirectUris: [`${config.publicUrl}/api/auth/social/${c.platform}/callback`],
        })),
      })
    : null;
  if (local) {
    // Served by this server under /oidc (not an /api route: the provider speaks for itself). Its
    // sign-in form posts url-encoded bodies the provider reads from the stream itself, so in this
    // scope no parser consumes them (and the platform's JSON-only body rule never sees one).
    await app.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
      scope.all(`${local.mountPath}/*`, (request, reply) => {
        reply.hijack();
        local.handle(request.raw, reply.raw);
      });
    });
  }
  const providers: SocialDeps['providers'] = {};
  for (const client of socialClients) {
    const configured = config.socialProviders[client.platform];
    if (configured) providers[client.platform] = createOidcSocialProvider({ platform: client.platform, ...configured });
    else if (local)
      providers[client.platform] = createOidcSocialProvider({
        platform: client.platform,
        issuer: `${config.publicUrl}/oidc`,
        clientId: client.clientId,
        clientSecret: client.clientSecret,
      });
  }
  registerSocialRoutes(app, {
    ...auth,
    providers,
    publicUrl: config.publicUrl,
    settle: async (position) => {
      if (position) await runner.waitFor(['users'], position, config.readWaitMs);
    },
  });
  registerUsersReadRoutes(app, { db: db.pg });
  registerUserAdminReadRoutes(app, { db: db.slonik });
  registerUserAdminRoutes(app, { ...auth, spreadsheet: createExceljsSpreadsheet(), publicUrl: config.publicUrl });
  // Users imports (issue 17, decision 0025): users are made and changed through the users feature's own slices.
  const imports = {
    store,
    ids,
    db: db.slonik,
    files,
    workbooks: createWorkbookReader(),
    spreadsheet: createExceljsSpreadsheet(),
    log,
    catchUp: async () => {
      const head = await store.headPosition();
      if (head) await runner.waitFor(['users', 'organisation'], head, Math.max(config.readWaitMs, 10_000));
    },
    users: {
      create: (fields: Parameters<typeof createUserByAdmin>[1], metadata: Parameters<typeof createUserByAdmin>[2]) =>
        createUserByAdmin(auth, fields, metadata, { origin: 'import' }),
      update: (userId: number, fields: Parameters<typeof updateUserByAdmin>[2], metadata: Parameters<typeof updateUserByAdmin>[3]) =>
        updateUserByAdmin(auth, userId, fields, metadata),
      sendWelcome: (userId: number, metadata: Parameters<typeof sendWelcome>[2]) => sendWelcome(auth, userId, metadata),
    },
  };
  await registerImportRoutes(app, imports);
  registerImportReadRoutes(app, { db: db.slonik });
  // A killed or crashed run falls silent and is taken up again by another worker (or this one after a restart).
  if (jobs) await jobs.register(IMPORT_QUEUE, runImport(imports), { retryLimit: IMPORT_RETRY_LIMIT, retryDelaySeconds: 5, heartbeatSeconds: 10 });
  const outbox = createOutbox(db.pg);
  if (jobs) await jobs.register(CONSENT_CHECKPOINT_QUEUE, async () => void (await takeConsentCheckpoint(consentProof)), { cron: '*/5 * * * *', retryLimit: 2 });
  // The read models that rewrite an erased person's rows, and the platform's own tables that held her (decision 0051).
  const compactAfterErasure = createErasureCompaction(
    db.pg,
    PROJECTIONS.filter((projection) => projection.handles.includes('UserErased')).flatMap((projection) => projection.tables),
    ['public.mail_outbox', 'public.personal_keys'],
  );
  // Documents are drawn in worker threads, a bounded queue, a bounded share per person (decision 0049).
  const renderPool = createRenderPool({ workers: config.renders.workers, maxQueued: config.renders.queue, perOwner: config.renders.perPerson });
  app.addHook('onClose', () => renderPool.close());
  const rendered = pooledRenderers(renderPool);
  registerPersonalDataRoutes(app, {
    store,
    db: db.slonik,
    documents: rendered.documents,
    now: () => new Date(),
    keys: personalKeys,
    forgetMail: (addresses) => outbox.forget(addresses),
    forgetChamberFiles: (userId) => forgetDroppedCredits(config.chambers.dropDir, userId),
    compact: async () => {
      await catchUp();
      await compactAfterErasure();
    },
  });
  registerProfileRoutes(app, { store, db: db.slonik, passwords, attempts: auth.attempts });
  registerSurveyRoutes(app, {
    store,
    db: db.slonik,
    now: () => new Date(),
    attempts: auth.attempts,
    ballots: purposeTokens,
    ballotsPerHour: config.surveyBallotsPerHour,
  });
  registerOrganisationRoutes(app, { store, ids, db: db.slonik }, { files, features: config.features });
  registerOrganisationReadRoutes(app, { db: db.slonik, features: config.features });
  registerCourseRoutes(app, { store, ids, db: db.slonik, now: () => new Date(), features: config.features }, { files });
  registerCourseReadRoutes(app, {
    db: db.slonik,
    now: () => new Date(),
    certificates: rendered.certificates,
    files,
    features: config.features,
    publicUrl: config.publicUrl,
  });
  // A certificate's public verification (issue 18 item 3, decision 0032): by its number, limited per address.
  registerCertificateRoutes(app, { db: db.slonik, limiter: auth.attempts.limiter });
  // The embeddable /glp page's list (issue 17 item 7, decision 0031): public, limited per address.
  registerPublicCourseRoutes(app, { db: db.slonik, now: () => new Date(), limiter: auth.attempts.limiter, features: config.features });
  registerFileRoutes(app, { files, db: db.slonik, videos: createLocalVideoHost(files), videoMaxBytes: config.videoMaxBytes });
  registerStatsReadRoutes(app, { db: db.slonik });
  // Course reports (issue 17 item 3, decision 0027): the log, the figures as of each report's date, the PDF.
  registerCourseReportRoutes(app, { store, ids, db: db.slonik, reports: db.slonik, now: () => new Date(), documents: rendered.reportDocuments });
  registerNewsletterRoutes(app, { store, ids, db: db.slonik });
  registerNewsRoutes(app, { store, ids, db: db.slonik, now: () => new Date() });
  registerMailRoutes(app, { outbox, db: db.slonik, smtp: Boolean(config.smtpUrl) });
  registerPushRoutes(app, { store, db: db.slonik, push });
  const changes = createReadModelChanges(db.pg);
  app.addHook('onClose', async () => {
    changes.close();
    await keyErasures.close();
  });
  registerLiveRoutes(app, { changes, streamsPerUser: config.liveStreamsPerUser });
  registerConsentRoutes(app, {
    store,
    now: () => new Date(),
    db: db.pg,
    proof: consentProof,
    reports: rendered.consentReports,
    userNames: (ids) => userNames(db.pg, ids),
  });
  await registerStaticUi(app, { distDir: config.uiDistDir });

  return { app, runner, store, db, ids, passwords, tokens, auth, personalKeys, protection };
};
