// The replica bench's plain baseline as a process of its own (replica.bench.ts): the courses bench's
// bare Fastify routes (courses-plain.ts, the same rows by hand-written SQL) on a plain pg pool over
// DATABASE_READ_URL, the streaming replica. `node replica-plain-process.ts` prints {"port":n} once it
// listens; SIGTERM ends it.

import pg from 'pg';
import { startPlain } from './courses-plain.ts';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_READ_URL, max: Number(process.env.DATABASE_POOL_SIZE ?? 10) });
const plain = await startPlain(pool);
process.stdout.write(`${JSON.stringify({ port: plain.port })}\n`);
process.once('SIGTERM', async () => {
  await plain.app.close();
  await pool.end();
  process.exit(0);
});
