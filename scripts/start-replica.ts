// `npm run replica`: a PostgreSQL streaming replica of the platform's primary on this machine
// (infrastructure/postgres/replica.ts, decision 0067), running until Ctrl-C. Then start the platform with
// DATABASE_READ_URL set to the address it prints.
//
//   PRIMARY_URL   a superuser's connection string of the primary (default: the embedded server of
//                 `npm start`, postgres://postgres:medilearn-local@127.0.0.1:EMBEDDED_PG_PORT/medilearn)
//   REPLICA_DIR   the replica's directory (default DATA_DIR/replica, DATA_DIR default ./.data)
//   REPLICA_PORT  its port (default EMBEDDED_PG_PORT + 1, i.e. 54330)
//   REPLICA_FRESH=true  a new base backup even when REPLICA_DIR already holds a replica
import { join } from 'node:path';
import { createLogger } from '../infrastructure/main/logger.ts';
import { startReplica } from '../infrastructure/postgres/replica.ts';

const env = process.env;
const embeddedPort = Number(env.EMBEDDED_PG_PORT ?? 54_329);
const primary = env.PRIMARY_URL ?? `postgres://postgres:medilearn-local@127.0.0.1:${embeddedPort}/medilearn`;
const dataDir = env.REPLICA_DIR ?? join(env.DATA_DIR ?? './.data', 'replica');
const port = Number(env.REPLICA_PORT ?? embeddedPort + 1);
const log = createLogger('info');

const replica = await startReplica({ primary, dataDir, port, log, fresh: env.REPLICA_FRESH === 'true' });
process.stdout.write(`\nThe replica is streaming from the primary.\nStart the platform with\n  DATABASE_READ_URL=${replica.connectionString()}\n\n`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await replica.stop();
  process.stdout.write('replica stopped\n');
  process.exit(0);
};
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());
// Stays up while the server runs; a server that ends on its own ends the script.
const watch = setInterval(() => {
  if (!replica.running() && !stopping) {
    process.stderr.write('the replica PostgreSQL ended\n');
    process.exit(1);
  }
}, 1000);
void watch;
