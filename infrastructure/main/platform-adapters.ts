import { hkdfSync } from 'node:crypto';
import { forgetAllStates } from '../../application/shared/stream-states.ts';
import { loadCheckpointSigner } from '../anchors/ed25519-checkpoint-signer.ts';
import { createFileAnchorLog } from '../anchors/file-anchor-log.ts';
import { createPostgresCheckpointLeaves } from '../anchors/postgres-checkpoint-leaves.ts';
import { createAesSecretSealer } from '../auth/aes-secret-sealer.ts';
import { createArgon2PasswordHasher } from '../auth/argon2-password-hasher.ts';
import { createJwtPurposeTokens } from '../auth/jwt-purpose-tokens.ts';
import { resolveJwtSecret } from '../auth/jwt-secret.ts';
import { createJwtSessionTokens } from '../auth/jwt-session-tokens.ts';
import { createPostgresAttemptLimiter } from '../auth/postgres-attempt-limiter.ts';
import { createSocialProviders } from '../auth/social-providers.ts';
import { createFileDropChamberReporter, forgetDroppedCredits } from '../chambers/file-drop-chamber-reporter.ts';
import { createHttpChamberReporter, routeChamberReports } from '../chambers/http-chamber-reporter.ts';
import type { Config } from '../config/config.ts';
import type { EventStore } from '../event-store/event-store.port.ts';
import { createNotificationListener } from '../event-store/postgres/notification-listener.ts';
import { createDirectoryObjectStore } from '../files/directory-object-store.ts';
import { createPostgresFileStore } from '../files/postgres-file-store.ts';
import { createPostgresIdAllocator } from '../ids/postgres-id-allocator.ts';
import type { Log } from '../logging/log.port.ts';
import { createOutbox, createOutboxMailer } from '../mail/outbox-mailer.ts';
import { createSmtpMailer } from '../mail/smtp-mailer.ts';
import { oneAtATime } from '../packages/bounded.ts';
import { createPackageLaunchStore } from '../packages/package-launch-store.ts';
import { createPackageStore } from '../packages/package-store.ts';
import { PACKAGE_LIMITS, readPackageZip } from '../packages/package-zip.ts';
import { createRenderPool, pooledRenderers } from '../pdf/render-pool.ts';
import { resolvePersonalDataSecret } from '../personal-data/personal-data-secret.ts';
import type { PersonalKeys } from '../personal-data/personal-keys.port.ts';
import { createPostgresPersonalKeys, PERSONAL_KEY_ERASED_CHANNEL } from '../personal-data/postgres-personal-keys.ts';
import { protectExistingEvents } from '../personal-data/protect-existing-events.ts';
import { createPersonalDataProtection, createProtectingEventStore } from '../personal-data/protecting-event-store.ts';
import type { Database } from '../postgres/database.ts';
import { resolveVapidKeys } from '../push/vapid-keys.ts';
import { createWebPushSender } from '../push/web-push-sender.ts';
import { createExceljsSpreadsheet } from '../reports/exceljs-spreadsheet.ts';
import { createLocalVideoHost } from '../video/local-video-host.ts';
import { putStatement } from '../xapi/http-statement-sender.ts';
import { createWorkbookReader } from '../xlsx/workbook-reader.ts';
import { EVENT_DEFINITIONS } from './event-definitions.ts';

/**
 * The concrete adapters every feature shares, built once per process: what the composition root
 * hands the feature modules as ports. `close` releases what they hold (listeners, render workers).
 */
export const buildPlatformAdapters = async ({ config, db, store, log }: { config: Config; db: Database; store: EventStore; log: Log }) => {
  // Every slice reads and writes people's data through the protecting store, so it stays erasable (decision 0019).
  const personalSecret = await resolvePersonalDataSecret(db.pg);
  // An erasure in any API process evicts the key from every process's cache at once (decision 0035).
  const keyErasures = createNotificationListener({
    connect: db.connect,
    channel: PERSONAL_KEY_ERASED_CHANNEL,
    onError: (err) => log.warn({ err }, 'personal key LISTEN connection error'),
  });
  const keys = createPostgresPersonalKeys(db.pg, createAesSecretSealer(personalSecret), Date.now, { erasures: keyErasures });
  // This process forgets its kept stream states as the key goes, not only when the announcement comes back.
  const personalKeys: PersonalKeys = {
    ...keys,
    erase: async (userId) => {
      await keys.erase(userId);
      forgetAllStates();
    },
  };
  const protection = createPersonalDataProtection({
    definitions: EVENT_DEFINITIONS,
    keys: personalKeys,
    streamKey: Buffer.from(hkdfSync('sha256', personalSecret, 'medilearn', 'claim-stream-names-v1', 32)),
  });
  await protectExistingEvents(db.pg, protection, log);
  const protectedStore = createProtectingEventStore(store, protection);
  // Commands read on from the stream states this process kept; those may hold what an erasure just made unreadable.
  keyErasures.subscribe(() => forgetAllStates());
  const platformSecret = await resolveJwtSecret(db.pg, config.jwtSecret);
  const limiter = createPostgresAttemptLimiter(db.pg);
  const files = createPostgresFileStore(db.pg, { objects: createDirectoryObjectStore(config.objectStoreDir), uploadToObjects: config.features.s3Upload });
  // Documents are drawn in worker threads, a bounded queue, a bounded share per person (decision 0049).
  const renderPool = createRenderPool({ workers: config.renders.workers, maxQueued: config.renders.queue, perOwner: config.renders.perPerson });
  const social = createSocialProviders(config);
  return {
    store: protectedStore,
    personalKeys,
    protection,
    ids: createPostgresIdAllocator(db.pg),
    passwords: await createArgon2PasswordHasher(),
    tokens: createJwtSessionTokens({ secret: platformSecret, ttlSeconds: config.jwtTtlSeconds }),
    sealer: createAesSecretSealer(platformSecret),
    purposeTokens: createJwtPurposeTokens(platformSecret),
    // Attempts and budgets counted in PostgreSQL, shared by every process (guessing, costly work).
    limiter,
    attempts: { limiter, perAccount: config.authRateLimitPerMinute, perAddress: config.authAddressRateLimitPerMinute },
    // Mail goes through SMTP when configured, else into the outbox an admin reads (decision 0017).
    mailer: config.smtpUrl ? createSmtpMailer({ url: config.smtpUrl, from: config.mailFrom }) : createOutboxMailer(db.pg),
    outbox: createOutbox(db.pg),
    // Push notifications by standard Web Push with the platform's own VAPID keys (decision 0024).
    push: createWebPushSender({
      keys: await resolveVapidKeys(db.pg, config.vapidKeys),
      subject: config.vapidSubject,
      allowedOrigins: config.pushEndpointOrigins,
    }),
    // Uploads go to the object store while the S3-upload feature is on; files stored either way stay readable.
    files,
    videos: createLocalVideoHost(files),
    // SCORM and cmi5 packages and their launches (issue 35).
    packages: createPackageStore(db.pg, files),
    packageLaunches: createPackageLaunchStore(db.pg),
    // xAPI out (decision 0061): statements go to the outside LRS over HTTP.
    sendStatement: putStatement,
    // At most two packages unpacked at once in a process: each may hold up to five times PACKAGE_MAX_BYTES in memory.
    unpackPackage: oneAtATime(2, (zip: Buffer, maxTotalBytes: number) =>
      readPackageZip(zip, { ...PACKAGE_LIMITS, maxTotalBytes: Math.min(PACKAGE_LIMITS.maxTotalBytes, maxTotalBytes) }),
    ),
    spreadsheet: createExceljsSpreadsheet(),
    workbooks: createWorkbookReader(),
    renderers: pooledRenderers(renderPool),
    // Signed checkpoints of the consent log, anchored outside the database (decision 0052).
    consentProof: {
      leaves: createPostgresCheckpointLeaves(db.pg),
      signer: await loadCheckpointSigner({ pem: config.consentProof.keyPem, file: config.consentProof.keyFile }),
      anchors: createFileAnchorLog(config.consentProof.anchorFile),
      now: () => new Date(),
    },
    // Credit points to the chambers (issue 17 item 6, decision 0030): HTTP where a chamber has an address, else the file drop.
    chamberReporter: routeChamberReports(
      Object.fromEntries(Object.entries(config.chambers.urls).map(([chamber, url]) => [chamber, createHttpChamberReporter(url)])),
      createFileDropChamberReporter(config.chambers.dropDir),
    ),
    forgetChamberFiles: (userId: number) => forgetDroppedCredits(config.chambers.dropDir, userId),
    socialProviders: social.providers,
    localOidc: social.local,
    close: async () => {
      await renderPool.close();
      await keyErasures.close();
    },
  };
};
