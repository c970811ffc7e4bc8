import { existsSync } from 'node:fs';
import { EventStoreDBClient } from '@eventstore/db-client';
import { describe, it } from 'vitest';
import { createEsdbEventStore } from '../../infrastructure/event-store/esdb/esdb-event-store.ts';
import { createEventCodec } from '../../infrastructure/event-store/event-codec.ts';
import { eventStoreContract } from './event-store.contract.ts';

/**
 * The same contract against EventStoreDB/KurrentDB: ESDB_URL (what CI sets; EVENTSTORE_URL, the
 * platform's own variable, is read too), e.g. `esdb://localhost:2113?tls=false` from docker-compose.yml,
 * or a testcontainer when a Docker engine answers. With ESDB_URL set the suite always runs.
 */
const url = process.env.ESDB_URL || process.env.EVENTSTORE_URL || undefined;
const dockerSocket = '/var/run/docker.sock';

const startContainer = async (): Promise<{ url: string; stop(): Promise<void> }> => {
  const { GenericContainer, Wait } = await import('testcontainers');
  const container = await new GenericContainer('docker.kurrent.io/eventstore/eventstore:24.10')
    .withEnvironment({ EVENTSTORE_INSECURE: 'true', EVENTSTORE_RUN_PROJECTIONS: 'None', EVENTSTORE_MEM_DB: 'true' })
    .withExposedPorts(2113)
    .withWaitStrategy(Wait.forHttp('/health/live', 2113).forStatusCode(204))
    .start();
  return { url: `esdb://${container.getHost()}:${container.getMappedPort(2113)}?tls=false`, stop: async () => void (await container.stop()) };
};

const dockerAnswers = async () => {
  if (!existsSync(dockerSocket)) return false;
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    await getContainerRuntimeClient();
    return true;
  } catch {
    return false;
  }
};

if (url || (await dockerAnswers())) {
  eventStoreContract('esdb', async () => {
    const container = url ? null : await startContainer();
    const connection = url ?? (container as { url: string }).url;
    return {
      create: async (definitions) => createEsdbEventStore({ client: EventStoreDBClient.connectionString(connection), codec: createEventCodec(definitions) }),
      dispose: async () => container?.stop(),
    };
  });
} else {
  const message =
    'SKIPPED: EventStoreDB contract suite. ESDB_URL (or EVENTSTORE_URL) is not set and no Docker engine answers (docker compose up eventstore, then ESDB_URL=esdb://localhost:2113?tls=false npm test).';
  console.warn(message);
  describe('event store contract: esdb', () => {
    it.skip(message, () => undefined);
  });
}
