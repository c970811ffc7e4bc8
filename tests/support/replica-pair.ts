import { rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { type Log, silentLog } from '../../infrastructure/logging/log.port.ts';
import { type EmbeddedServer, startEmbeddedPostgres } from '../../infrastructure/postgres/embedded-postgres.ts';
import { migrateDatabase } from '../../infrastructure/postgres/migrate.ts';
import { type Replica, startReplica } from '../../infrastructure/postgres/replica.ts';

/** A port nobody listens on now (the kernel's pick). */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });

export type ReplicaPair = {
  readonly primary: EmbeddedServer;
  /** The migrated platform database on the primary (DATABASE_URL). */
  readonly primaryUrl: string;
  readonly replica: Replica;
  /** The same database on the replica (DATABASE_READ_URL). */
  readonly replicaUrl: string;
  /** Stops both servers and removes their directories. */
  readonly close: () => Promise<void>;
};

/**
 * A primary PostgreSQL of its own (not the shared test server: a base backup copies a whole cluster)
 * with a migrated `medilearn` database, and a streaming replica of it (decision 0067). Each has a
 * free port and a directory under `.data/` that `close` removes.
 */
export const startReplicaPair = async (options: { name: string; log?: Log }): Promise<ReplicaPair> => {
  const log = options.log ?? silentLog;
  const root = join(import.meta.dirname, '..', '..', '.data', `${options.name}-${process.pid}`);
  await rm(root, { recursive: true, force: true });
  const primary = await startEmbeddedPostgres({ dataDir: join(root, 'primary'), port: await freePort(), log, database: 'medilearn' });
  let replica: Replica | null = null;
  try {
    const primaryUrl = primary.connectionString('medilearn');
    await migrateDatabase(primaryUrl);
    replica = await startReplica({ primary: primaryUrl, dataDir: join(root, 'replica'), port: await freePort(), log });
    await replica.caughtUp();
    const started = replica;
    return {
      primary,
      primaryUrl,
      replica: started,
      replicaUrl: started.connectionString('medilearn'),
      close: async () => {
        await started.stop().catch(() => undefined);
        await primary.stop();
        await rm(root, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await replica?.stop().catch(() => undefined);
    await primary.stop().catch(() => undefined);
    throw error;
  }
};
