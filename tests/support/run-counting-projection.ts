// Child process for the "killed mid-batch" test: runs the counting projection until killed.
import { createEventCodec } from '../../infrastructure/event-store/event-codec.ts';
import { createPostgresEventStore } from '../../infrastructure/event-store/postgres/postgres-event-store.ts';
import { silentLog } from '../../infrastructure/logging/log.port.ts';
import { openDatabase } from '../../infrastructure/postgres/database.ts';
import { createProjectionRunner } from '../../infrastructure/projections/projection-runner.ts';
import { countingProjection } from './counting-projection.ts';
import { testEvents } from './test-events.ts';

const connectionString = process.argv[2] as string;
const db = await openDatabase(connectionString, { poolSize: 4, applicationName: 'killed-runner' });
const store = createPostgresEventStore({ pool: db.pg, connect: db.connect, codec: createEventCodec(testEvents) });
const runner = createProjectionRunner({
  db,
  store,
  log: silentLog,
  projections: [countingProjection({ sleepWhen: (n) => (n === -1 ? 3 : 0) })],
  batchSize: 50,
  idlePollMs: 100,
  standbyPollMs: 100,
});
await runner.start();
process.stdout.write('started\n');
