import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { giveRequiredConsents } from '../../application/consents/consents.ts';
import { registerUser } from '../../application/users/register-user.ts';
import type { RoleAssignment } from '../../domain/permissions/can.ts';
import { loadConfig } from '../../infrastructure/config/config.ts';
import { createEventCodec } from '../../infrastructure/event-store/event-codec.ts';
import { type AllPosition, formatPosition, parsePosition } from '../../infrastructure/event-store/event-store.port.ts';
import { createPostgresEventStore } from '../../infrastructure/event-store/postgres/postgres-event-store.ts';
import { startJobs } from '../../infrastructure/jobs/pg-boss-jobs.ts';
import { silentLog } from '../../infrastructure/logging/log.port.ts';
import { loadDemoData } from '../../infrastructure/main/demo-data.ts';
import { EVENT_DEFINITIONS } from '../../infrastructure/main/event-definitions.ts';
import { createLogger } from '../../infrastructure/main/logger.ts';
import { buildPlatform, type Platform, PROJECTIONS } from '../../infrastructure/main/platform.ts';
import { openDatabase } from '../../infrastructure/postgres/database.ts';
import { createTestDatabase } from './test-database.ts';

export const TEST_PASSWORD = 'Geslo1234!';

const ALL_READ_MODELS = PROJECTIONS.map((projection) => projection.name);

const openJoined = async (connectionString: string) => {
  const opened = await openDatabase(connectionString, { poolSize: 10 });
  return { ...opened, drop: () => opened.close() };
};

/**
 * The platform as `npm start` wires it, on a database of its own, with the projection runner
 * running; requests go through `app.inject`. `env` overrides configuration.
 */
export const startTestPlatform = async (env: Record<string, string> = {}, options: { jobs?: boolean; logLines?: string[]; joinDatabase?: string } = {}) => {
  // `joinDatabase`: a second platform on another's database, with pools, caches and a runner of its own,
  // as another API process would be (decision 0035); its close leaves the database to its owner.
  const joined = options.joinDatabase;
  const db = joined ? await openJoined(joined) : await createTestDatabase();
  // The local object store (S3-upload feature) of this platform only, removed on close.
  const objects = await mkdtemp(join(tmpdir(), 'medilearn-objects-'));
  const config = loadConfig({
    OBJECT_STORE_DIR: objects,
    // The consent key and anchor log of this platform only (decision 0052).
    CONSENT_KEY_FILE: join(objects, 'keys', 'consent-signing.pem'),
    CONSENT_ANCHOR_FILE: join(objects, 'anchors', 'consent-checkpoints.jsonl'),
    DEMO_DATA: 'false',
    AUTH_RATE_LIMIT_PER_MINUTE: '1000',
    AUTH_ADDRESS_RATE_LIMIT_PER_MINUTE: '100000',
    // Every request of a test comes from one address: hourly budgets as high as the limits' own tests do not ask for.
    RENDERS_PER_HOUR: '100000',
    EXPORTS_PER_HOUR: '100000',
    // Without a job queue a test's exports stay initiated: they would fill a person's running exports.
    EXPORTS_RUNNING_PER_PERSON: '100',
    COMMENTS_PER_HOUR: '100000',
    MAILS_PER_HOUR: '100000',
    SURVEY_BALLOTS_PER_HOUR: '100000',
    UI_DIST_DIR: '/nonexistent',
    // Generous: a loaded CI machine's projections may lag a read by more than the default 2 s.
    READ_WAIT_MS: '5000',
    ...env,
  });
  const store = createPostgresEventStore({ pool: db.pg, connect: db.connect, codec: createEventCodec(EVENT_DEFINITIONS) });
  // Background jobs (pg-boss, polled every half second) only where a test needs mail sent.
  // A test that reads the logs gets every line, at every level, as the process would write it.
  const lines = options.logLines;
  const logger = lines ? createLogger('trace', { write: (line: string) => void lines.push(line) }) : createLogger('silent');
  const log = lines ? logger : silentLog;
  const jobs = options.jobs ? await startJobs({ connectionString: db.connectionString, log, pollingIntervalSeconds: 0.5 }) : null;
  const platform = await buildPlatform({ config, db, store, logger, log, jobs });
  await platform.runner.start();
  await platform.app.ready();

  const settle = async (position: AllPosition | null) => {
    if (position) await platform.runner.waitFor(['users', 'organisation', 'consents'], position, 10_000);
  };

  /** A user holding every required consent, unless the test asks for one without (`consents: false`). */
  const createUser = async (username: string, roles: RoleAssignment[] = [], password: string | null = TEST_PASSWORD, options: { consents?: boolean } = {}) => {
    const result = await registerUser(platform, { username, email: `${username}@test.si`, firstName: 'Test', lastName: username, password }, roles, {
      actorId: null,
    });
    const consents =
      options.consents === false
        ? null
        : await giveRequiredConsents({ store: platform.store, now: () => new Date() }, result.userId, 'import', { actorId: null });
    await settle(consents?.position ?? result.position);
    return result.userId;
  };

  const login = async (usernameOrEmail: string, password = TEST_PASSWORD) => {
    const response = await platform.app.inject({ method: 'POST', url: '/api/auth/login', payload: { usernameOrEmail, password } });
    if (response.statusCode !== 200) throw new Error(`login failed: ${response.statusCode} ${response.body}`);
    const position = response.headers['x-event-position'];
    return { token: (response.json() as { authToken: string }).authToken, position: typeof position === 'string' ? position : null };
  };

  /** The demo organisation, users (password DEMO_PASSWORD), courses, academy and posts of `npm start`. */
  const loadDemo = async () =>
    loadDemoData({
      store: platform.store,
      ids: platform.ids,
      passwords: platform.passwords,
      db,
      log: silentLog,
      settle: async (position) => {
        if (position) await platform.runner.waitFor(ALL_READ_MODELS, position, 30_000);
      },
      features: config.features,
    });

  /** Waits until every read model has applied a write (after an `X-Event-Position` answer). */
  const settleAll = async (position: AllPosition | string | null | undefined) => {
    const parsed = typeof position === 'string' ? parsePosition(position) : position;
    if (parsed) await platform.runner.waitFor(ALL_READ_MODELS, parsed, 30_000);
  };

  return {
    ...platform,
    platform: platform as Platform,
    config,
    /** The job queue, when the test asked for one. */
    jobs,
    settle,
    settleAll,
    loadDemo,
    createUser,
    login,
    minPosition: (position: AllPosition) => formatPosition(position),
    /** The event store under the platform's protection of people's data: what was written before it existed. */
    unprotectedStore: store,
    close: async () => {
      await platform.app.close();
      await platform.runner.stop();
      await jobs?.stop();
      await store.close();
      await db.drop();
      await rm(objects, { recursive: true, force: true });
    },
  };
};

export type TestPlatform = Awaited<ReturnType<typeof startTestPlatform>>;
