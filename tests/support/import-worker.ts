// A platform process of its own for tests that kill one: `node tests/support/import-worker.ts <database url>`.
// It runs the projection runner and every job worker (imports among them) as `npm start` does, without
// serving HTTP, and prints "ready" once its workers are registered. SIGKILL ends it as a crash would.
import { loadConfig } from '../../infrastructure/config/config.ts';
import { createEventCodec } from '../../infrastructure/event-store/event-codec.ts';
import { createPostgresEventStore } from '../../infrastructure/event-store/postgres/postgres-event-store.ts';
import { startJobs } from '../../infrastructure/jobs/pg-boss-jobs.ts';
import { silentLog } from '../../infrastructure/logging/log.port.ts';
import { EVENT_DEFINITIONS } from '../../infrastructure/main/event-definitions.ts';
import { createLogger } from '../../infrastructure/main/logger.ts';
import { buildPlatform } from '../../infrastructure/main/platform.ts';
import { openDatabase } from '../../infrastructure/postgres/database.ts';

const url = process.argv[2];
if (!url) throw new Error('usage: import-worker.ts <database url>');
const db = await openDatabase(url, { poolSize: 20, applicationName: 'import-worker' });
const store = createPostgresEventStore({ pool: db.pg, connect: db.connect, codec: createEventCodec(EVENT_DEFINITIONS) });
// Jobs whose worker fell silent are looked for every second (the platform's default is a minute).
const jobs = await startJobs({ connectionString: url, log: silentLog, pollingIntervalSeconds: 0.5, monitorIntervalSeconds: 1 });
const config = loadConfig({ DEMO_DATA: 'false', UI_DIST_DIR: '/nonexistent', PORT: '0' });
const platform = await buildPlatform({ config, db, store, logger: createLogger('silent'), log: silentLog, jobs });
await platform.runner.start();
process.stdout.write('ready\n');
