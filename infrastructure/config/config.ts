import { isIP } from 'node:net';
import { join } from 'node:path';
import { z } from 'zod';
import { KNOWN_PUSH_SERVICES } from '../../domain/push/push.rules.ts';
import type { FeatureFlags } from '../../domain/shared/features.ts';

/**
 * The whole configuration: one zod-parsed object from the environment (never NODE_ENV).
 * README.md lists every variable; keep the two in step.
 */
const flag = (defaultValue: boolean) => z.stringbool().default(defaultValue);

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  /** API processes `npm start` runs on one PostgreSQL (node:cluster, one port; decision 0035). */
  API_PROCESSES: z.coerce.number().int().min(1).max(64).default(1),
  /** What this process runs (decision 0066): api (HTTP, projections, reactors; jobs only sent), jobs (queue workers only), all. */
  PROCESS_ROLE: z.enum(['api', 'jobs', 'all'], { error: 'must be api, jobs or all' }).default('all'),
  /** Job processes the supervisor forks beside API_PROCESSES api processes; 0: every process is `all` (decision 0066). */
  JOB_PROCESSES: z.coerce.number().int().min(0).max(64).default(0),
  /** The longest wait before the supervisor starts a job process again after job processes kept ending (doubling from 1 s). */
  JOB_RESTART_MAX_DELAY_MS: z.coerce.number().int().min(1000).max(3_600_000).default(60_000),
  /** How often a job process looks for jobs whose process fell silent or expired (pg-boss monitor; default 60 s). */
  JOB_MONITOR_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(600).optional(),
  /** Replaces the heartbeat of the queues that have one (exports 30 s, imports 10 s): how soon a dead process's job runs again. */
  JOB_HEARTBEAT_SECONDS: z.coerce.number().int().min(10).max(3600).optional(),
  DATA_DIR: z.string().default('./.data'),
  OBJECT_STORE_DIR: z.string().optional(),
  /** Where credit points for chambers without an address go as files (decision 0030). */
  CHAMBER_DROP_DIR: z.string().optional(),
  /** A chamber's HTTP address for credit points (decision 0030); unset: the file drop. */
  CHAMBER_1_URL: z.url().optional(),
  CHAMBER_2_URL: z.url().optional(),
  CHAMBER_3_URL: z.url().optional(),
  /** The first wait before a refused chamber report is sent again (then doubling); decision 0030. */
  CHAMBER_RETRY_DELAY_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  VIDEO_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(200 * 1024 * 1024),
  /** SCORM and cmi5 packages (issue 35): the largest zip accepted. */
  PACKAGE_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(200 * 1024 * 1024),
  /** The separate origin package code runs on (issue 35, decision 0059): its port, and its public address. */
  CONTENT_PORT: z.coerce.number().int().min(0).max(65_535).optional(),
  CONTENT_ORIGIN: z.string().url().optional(),
  /** xAPI out (issue 35): the external LRS statements are forwarded to, and its Basic credentials; unset: none sent. */
  XAPI_LRS_URL: z.string().url().optional(),
  XAPI_LRS_KEY: z.string().optional(),
  XAPI_LRS_SECRET: z.string().optional(),
  /** Credentials an outside system writes statements into the platform's own LRS with (Basic key:secret); unset: only launches write. */
  LRS_CLIENT_KEY: z.string().min(8).optional(),
  LRS_CLIENT_SECRET: z.string().min(16).optional(),
  DATABASE_URL: z.string().optional(),
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1024).max(65_535).default(54_329),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(2).max(200).default(20),
  /** Streaming replicas GET routes read from (comma-separated connection strings; decision 0067); unset: all on DATABASE_URL. */
  DATABASE_READ_URL: z.string().optional(),
  /** Reads leave a replica whose replay lags more than this; the health check runs every REPLICA_CHECK_MS. */
  REPLICA_MAX_LAG_MS: z.coerce.number().int().min(0).max(3_600_000).default(5000),
  REPLICA_CHECK_MS: z.coerce.number().int().min(50).max(60_000).default(1000),
  /** A statement on a replica past this is run again on the primary (a read stuck on replay's locks or a hung connection); 0: no limit. */
  REPLICA_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(5000),
  EVENT_STORE: z.enum(['postgres', 'esdb']).default('postgres'),
  EVENTSTORE_URL: z.string().optional(),
  /** The same as EVENTSTORE_URL (the name CI uses for the contract suite); EVENTSTORE_URL wins when both are set. */
  ESDB_URL: z.string().optional(),
  JWT_SECRET: z.string().min(32).optional(),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Medilearn <no-reply@medilearn.si>'),
  PUBLIC_URL: z.string().url().optional(),
  VAPID_PUBLIC_KEY: z.string().min(80).optional(),
  VAPID_PRIVATE_KEY: z.string().min(40).optional(),
  VAPID_SUBJECT: z
    .string()
    .regex(/^(mailto:|https:\/\/)\S+$/)
    .optional(),
  PUSH_ENDPOINT_ORIGINS: z.string().optional(),
  OIDC_LOCAL_PROVIDER: flag(false),
  GOOGLE_OIDC_ISSUER: z.string().url().optional(),
  GOOGLE_OIDC_CLIENT_ID: z.string().optional(),
  GOOGLE_OIDC_CLIENT_SECRET: z.string().optional(),
  FACEBOOK_OIDC_ISSUER: z.string().url().optional(),
  FACEBOOK_OIDC_CLIENT_ID: z.string().optional(),
  FACEBOOK_OIDC_CLIENT_SECRET: z.string().optional(),
  JWT_TTL_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(7 * 24 * 3600),
  LOGIN_TOKEN_TTL_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(7 * 24 * 3600),
  DEMO_DATA: flag(true),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  AUTH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(10),
  AUTH_ADDRESS_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(30),
  LIVE_STREAMS_PER_USER: z.coerce.number().int().min(1).max(100).default(4),
  // Documents drawn on request (decision 0049): worker threads, documents waiting in all, per person at once,
  // and per person per hour (certificates, reports, personal data, consent histories); exports per person.
  RENDER_WORKERS: z.coerce.number().int().min(1).max(16).default(2),
  RENDER_QUEUE: z.coerce.number().int().min(1).max(1000).default(16),
  RENDERS_PER_PERSON: z.coerce.number().int().min(1).max(100).default(2),
  RENDERS_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(120),
  EXPORTS_RUNNING_PER_PERSON: z.coerce.number().int().min(1).max(100).default(3),
  EXPORTS_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(30),
  COMMENTS_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(60),
  // Registrations, confirmation resends and e-mail changes: mail to an address the caller names, per address or account.
  MAILS_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(10),
  // Ballots of public surveys handed to anonymous browsers, per address per hour.
  SURVEY_BALLOTS_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(30),
  // The consent proof (decision 0052): the Ed25519 key (PKCS#8 PEM) or the file it is kept in, and the anchor log. Never in PostgreSQL.
  CONSENT_SIGNING_KEY: z.string().optional(),
  CONSENT_KEY_FILE: z.string().optional(),
  CONSENT_ANCHOR_FILE: z.string().optional(),
  // How often the consent gate looks for a newer signed checkpoint (ms).
  CONSENT_CHECKPOINT_REFRESH_MS: z.coerce.number().int().min(0).max(3_600_000).default(10_000),
  READ_WAIT_MS: z.coerce.number().int().min(0).max(30_000).default(2000),
  /**
   * Behind a balancer (decision 0068): whose X-Forwarded-For to believe, as the balancers' addresses
   * or CIDRs (comma-separated) or a hop count. Unset: none, so a client cannot name its own address
   * to slip the per-address sign-in limit. "true" (believe anyone) is refused for that reason.
   */
  TRUST_PROXY: z
    .string()
    .trim()
    .optional()
    .refine(
      (v) =>
        v === undefined ||
        v === '' ||
        /^\d{1,2}$/.test(v) ||
        v.split(',').every((part) => {
          const [address = '', bits, ...rest] = part.trim().split('/');
          const family = isIP(address);
          // An address, or a network whose prefix fits its family (a /99 would only fail inside Fastify).
          return family !== 0 && rest.length === 0 && (bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128)));
        }),
      { message: 'TRUST_PROXY: naslovi ali omrežja balancerjev (npr. 10.0.0.5,10.0.1.0/24) ali število skokov' },
    ),
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(1024 * 1024),
  UI_DIST_DIR: z.string().default('./ui/dist'),
  FEATURE_VIMEO_UPLOAD: flag(true),
  FEATURE_S3_UPLOAD: flag(false),
  FEATURE_ZOOM: flag(false),
  FEATURE_INTERACTR: flag(true),
  FEATURE_LIVE_COURSES: flag(true),
  FEATURE_NEWSLETTERS: flag(true),
  FEATURE_DELETE_ACCOUNT: flag(false),
  FEATURE_EXTERNAL_ID: flag(true),
});

export type Config = {
  readonly port: number;
  readonly host: string;
  /** How many API processes `npm start` runs (1: this process serves; more: a supervisor forks them). */
  readonly apiProcesses: number;
  /** What this process runs (decision 0066): 'api' sends jobs and never works them, 'jobs' works them and serves no HTTP. */
  readonly processRole: ProcessRole;
  /** Job processes a supervisor forks (0: its processes are all `all`, as before decision 0066). */
  readonly jobProcesses: number;
  /** A crash-looping job process is started again after 1 s, 2 s, 4 s, ... up to this; the api processes serve on. */
  readonly jobRestartMaxDelayMs: number;
  /** pg-boss's monitor interval and a heartbeat for every queue that has one; undefined: pg-boss's and the queues' own. */
  readonly jobTiming: { readonly monitorIntervalSeconds: number | undefined; readonly heartbeatSeconds: number | undefined };
  readonly dataDir: string;
  /** Where uploads go with the S3-upload feature on (the local object store). */
  readonly objectStoreDir: string;
  readonly videoMaxBytes: number;
  /** SCORM/cmi5 packages (issue 35): the largest zip, where package code is served from (its port and public origin). */
  readonly packages: { readonly maxBytes: number; readonly contentPort: number; readonly contentOrigin: string };
  /** xAPI out (issue 35): the external LRS and its credentials; null: statements are not forwarded. */
  readonly xapiOut: { readonly url: string; readonly key: string; readonly secret: string } | null;
  /** Basic credentials an outside system may write statements into the platform's LRS with; null: none. */
  readonly lrsClient: { readonly key: string; readonly secret: string } | null;
  /** Credit points to chambers (decision 0030): chambers with an address get them over HTTP, the others as files here. */
  readonly chambers: { readonly dropDir: string; readonly urls: Partial<Record<1 | 2 | 3, string>>; readonly retryDelaySeconds: number };
  readonly databaseUrl: string | undefined;
  readonly embeddedPgPort: number;
  readonly databasePoolSize: number;
  /** Read replicas (decision 0067): GET routes' queries go to them while they answer and keep up. */
  readonly readReplicas: { readonly urls: readonly string[]; readonly maxLagMs: number; readonly checkEveryMs: number; readonly statementTimeoutMs: number };
  readonly eventStore: 'postgres' | 'esdb';
  readonly eventStoreUrl: string | undefined;
  readonly jwtSecret: string | undefined;
  /** Mail through this SMTP server; unset: the local outbox an admin reads (decision 0017). */
  readonly smtpUrl: string | undefined;
  readonly mailFrom: string;
  /** Where links in mail point (the UI's origin). */
  readonly publicUrl: string;
  /** The VAPID key pair of Web Push when configured; unset: generated once and kept in the database. */
  readonly vapidKeys: { readonly publicKey: string; readonly privateKey: string } | undefined;
  /** Who push services may contact about the platform's messages (RFC 8292 `sub`). */
  readonly vapidSubject: string;
  /** The push services' origins the platform posts to (`https://*.notify.windows.com` for any host below). */
  readonly pushEndpointOrigins: readonly string[];
  /** A local OpenID provider at /oidc standing in for Google and Facebook (development, demo). */
  readonly oidcLocalProvider: boolean;
  /** Social sign-in providers configured (spec §1 google, facebook): issuer, client id and secret. */
  readonly socialProviders: Partial<Record<'google' | 'facebook', { issuer: string; clientId: string; clientSecret: string }>>;
  readonly jwtTtlSeconds: number;
  readonly loginTokenTtlSeconds: number;
  readonly demoData: boolean;
  readonly logLevel: z.infer<typeof schema>['LOG_LEVEL'];
  readonly authRateLimitPerMinute: number;
  readonly authAddressRateLimitPerMinute: number;
  readonly liveStreamsPerUser: number;
  readonly renders: { readonly workers: number; readonly queue: number; readonly perPerson: number; readonly perHour: number };
  readonly exportsPerPerson: { readonly running: number; readonly perHour: number };
  readonly commentsPerHour: number;
  readonly mailsPerHour: number;
  readonly surveyBallotsPerHour: number;
  readonly consentProof: { readonly keyPem: string | null; readonly keyFile: string; readonly anchorFile: string; readonly refreshMs: number };
  readonly readWaitMs: number;
  /** Fastify's trustProxy: false, a hop count, or the balancers' addresses. */
  readonly trustProxy: false | number | string[];
  readonly bodyLimitBytes: number;
  readonly uiDistDir: string;
  readonly features: FeatureFlags;
};

export type ProcessRole = 'api' | 'jobs' | 'all';

export class ConfigError extends Error {}

/**
 * Where package code is served (decision 0059). Its origin must be on another host than the platform's:
 * cookies are a host's, whatever the port, so package code on the platform's host (another port) could
 * read a cookie the platform's pages set there. The demo's default is the platform's port + 1 on the
 * other name of this machine (127.0.0.1 for localhost, localhost otherwise).
 */
const contentPackages = (e: z.output<typeof schema>) => {
  const publicUrl = new URL(e.PUBLIC_URL ?? `http://localhost:${e.PORT}`);
  const contentPort = e.CONTENT_PORT ?? (e.PORT === 0 ? 0 : e.PORT + 1);
  const otherHost = publicUrl.hostname === 'localhost' ? '127.0.0.1' : 'localhost';
  const contentOrigin = (e.CONTENT_ORIGIN ?? `http://${otherHost}:${contentPort}`).replace(/\/+$/, '');
  if (new URL(contentOrigin).hostname === publicUrl.hostname)
    throw new ConfigError(`CONTENT_ORIGIN must be on another host than PUBLIC_URL (${publicUrl.hostname}): package code would share its cookies`);
  return { maxBytes: e.PACKAGE_MAX_BYTES, contentPort, contentOrigin };
};

export const loadConfig = (env: Record<string, string | undefined> = process.env): Config => {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const eventStoreUrl = e.EVENTSTORE_URL || e.ESDB_URL || undefined;
  if (e.EVENT_STORE === 'esdb' && !eventStoreUrl) throw new ConfigError('EVENT_STORE=esdb needs EVENTSTORE_URL (or ESDB_URL)');
  if (Boolean(e.VAPID_PUBLIC_KEY) !== Boolean(e.VAPID_PRIVATE_KEY)) throw new ConfigError('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together');
  // One process's role, or a supervisor that gives each of its processes one: never both (decision 0066).
  if (e.PROCESS_ROLE !== 'all' && (e.API_PROCESSES > 1 || e.JOB_PROCESSES > 0))
    throw new ConfigError(
      `PROCESS_ROLE=${e.PROCESS_ROLE} is the role of one process; with API_PROCESSES or JOB_PROCESSES the supervisor gives each process its role: set one or the other`,
    );
  const mailAddress = /<([^>]+)>/.exec(e.MAIL_FROM)?.[1] ?? e.MAIL_FROM.trim();
  return {
    port: e.PORT,
    host: e.HOST,
    apiProcesses: e.API_PROCESSES,
    processRole: e.PROCESS_ROLE,
    jobProcesses: e.JOB_PROCESSES,
    jobRestartMaxDelayMs: e.JOB_RESTART_MAX_DELAY_MS,
    jobTiming: { monitorIntervalSeconds: e.JOB_MONITOR_INTERVAL_SECONDS, heartbeatSeconds: e.JOB_HEARTBEAT_SECONDS },
    dataDir: e.DATA_DIR,
    objectStoreDir: e.OBJECT_STORE_DIR ?? join(e.DATA_DIR, 'objects'),
    videoMaxBytes: e.VIDEO_MAX_BYTES,
    packages: contentPackages(e),
    xapiOut: e.XAPI_LRS_URL ? { url: e.XAPI_LRS_URL.replace(/\/+$/, ''), key: e.XAPI_LRS_KEY ?? '', secret: e.XAPI_LRS_SECRET ?? '' } : null,
    lrsClient: e.LRS_CLIENT_KEY && e.LRS_CLIENT_SECRET ? { key: e.LRS_CLIENT_KEY, secret: e.LRS_CLIENT_SECRET } : null,
    chambers: {
      dropDir: e.CHAMBER_DROP_DIR ?? join(e.DATA_DIR, 'chambers'),
      retryDelaySeconds: e.CHAMBER_RETRY_DELAY_SECONDS,
      urls: {
        ...(e.CHAMBER_1_URL ? { 1: e.CHAMBER_1_URL } : {}),
        ...(e.CHAMBER_2_URL ? { 2: e.CHAMBER_2_URL } : {}),
        ...(e.CHAMBER_3_URL ? { 3: e.CHAMBER_3_URL } : {}),
      },
    },
    databaseUrl: e.DATABASE_URL || undefined,
    embeddedPgPort: e.EMBEDDED_PG_PORT,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    readReplicas: {
      urls: (e.DATABASE_READ_URL ?? '')
        .split(',')
        .map((url) => url.trim())
        .filter(Boolean),
      maxLagMs: e.REPLICA_MAX_LAG_MS,
      checkEveryMs: e.REPLICA_CHECK_MS,
      statementTimeoutMs: e.REPLICA_STATEMENT_TIMEOUT_MS,
    },
    eventStore: e.EVENT_STORE,
    eventStoreUrl,
    jwtSecret: e.JWT_SECRET,
    smtpUrl: e.SMTP_URL || undefined,
    mailFrom: e.MAIL_FROM,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    vapidKeys: e.VAPID_PUBLIC_KEY && e.VAPID_PRIVATE_KEY ? { publicKey: e.VAPID_PUBLIC_KEY, privateKey: e.VAPID_PRIVATE_KEY } : undefined,
    vapidSubject: e.VAPID_SUBJECT ?? `mailto:${mailAddress}`,
    pushEndpointOrigins: e.PUSH_ENDPOINT_ORIGINS
      ? e.PUSH_ENDPOINT_ORIGINS.split(',')
          .map((origin) => origin.trim())
          .filter(Boolean)
      : KNOWN_PUSH_SERVICES,
    oidcLocalProvider: e.OIDC_LOCAL_PROVIDER,
    socialProviders: {
      ...(e.GOOGLE_OIDC_ISSUER && e.GOOGLE_OIDC_CLIENT_ID && e.GOOGLE_OIDC_CLIENT_SECRET
        ? { google: { issuer: e.GOOGLE_OIDC_ISSUER, clientId: e.GOOGLE_OIDC_CLIENT_ID, clientSecret: e.GOOGLE_OIDC_CLIENT_SECRET } }
        : {}),
      ...(e.FACEBOOK_OIDC_ISSUER && e.FACEBOOK_OIDC_CLIENT_ID && e.FACEBOOK_OIDC_CLIENT_SECRET
        ? { facebook: { issuer: e.FACEBOOK_OIDC_ISSUER, clientId: e.FACEBOOK_OIDC_CLIENT_ID, clientSecret: e.FACEBOOK_OIDC_CLIENT_SECRET } }
        : {}),
    },
    jwtTtlSeconds: e.JWT_TTL_SECONDS,
    loginTokenTtlSeconds: e.LOGIN_TOKEN_TTL_SECONDS,
    demoData: e.DEMO_DATA,
    logLevel: e.LOG_LEVEL,
    authRateLimitPerMinute: e.AUTH_RATE_LIMIT_PER_MINUTE,
    authAddressRateLimitPerMinute: e.AUTH_ADDRESS_RATE_LIMIT_PER_MINUTE,
    liveStreamsPerUser: e.LIVE_STREAMS_PER_USER,
    renders: { workers: e.RENDER_WORKERS, queue: e.RENDER_QUEUE, perPerson: e.RENDERS_PER_PERSON, perHour: e.RENDERS_PER_HOUR },
    exportsPerPerson: { running: e.EXPORTS_RUNNING_PER_PERSON, perHour: e.EXPORTS_PER_HOUR },
    commentsPerHour: e.COMMENTS_PER_HOUR,
    mailsPerHour: e.MAILS_PER_HOUR,
    surveyBallotsPerHour: e.SURVEY_BALLOTS_PER_HOUR,
    consentProof: {
      keyPem: e.CONSENT_SIGNING_KEY ?? null,
      keyFile: e.CONSENT_KEY_FILE ?? join(e.DATA_DIR, 'keys', 'consent-signing.pem'),
      anchorFile: e.CONSENT_ANCHOR_FILE ?? join(e.DATA_DIR, 'anchors', 'consent-checkpoints.jsonl'),
      refreshMs: e.CONSENT_CHECKPOINT_REFRESH_MS,
    },
    readWaitMs: e.READ_WAIT_MS,
    trustProxy: !e.TRUST_PROXY ? false : /^\d+$/.test(e.TRUST_PROXY) ? Number(e.TRUST_PROXY) : e.TRUST_PROXY.split(',').map((part) => part.trim()),
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    uiDistDir: e.UI_DIST_DIR,
    features: {
      vimeoUpload: e.FEATURE_VIMEO_UPLOAD,
      s3Upload: e.FEATURE_S3_UPLOAD,
      zoom: e.FEATURE_ZOOM,
      interactr: e.FEATURE_INTERACTR,
      liveCourses: e.FEATURE_LIVE_COURSES,
      newsletters: e.FEATURE_NEWSLETTERS,
      deleteAccount: e.FEATURE_DELETE_ACCOUNT,
      externalId: e.FEATURE_EXTERNAL_ID,
    },
  };
};
