import pg from 'pg';
import { expect } from 'vitest';
import { ROLE } from '../../domain/permissions/roles.ts';
import { type ReplicaPair, startReplicaPair } from './replica-pair.ts';
import { startTestPlatform, type TestPlatform } from './test-platform.ts';

export type ReadReplicaSpec = {
  readonly pair: ReplicaPair;
  /** The platform on the pair: it writes to the primary and routes its reads to the replica. */
  readonly platform: TestPlatform;
  /** An admin's token (signed in as `skrbnik`). */
  readonly token: string;
  /** Creates a course tag as the admin (the write the specs read back): its id and its event's position (X-Event-Position). */
  readonly createTag: (name: string) => Promise<{ id: number; position: string }>;
  /** Closes the platform, then stops both servers. */
  readonly close: () => Promise<void>;
};

/**
 * What every read replica spec starts from (decision 0067): a primary and a streaming replica of it
 * (replica-pair.ts), the platform on both with the replica checked every 100 ms, and an admin signed
 * in. `env` adds the spec's own limits (REPLICA_MAX_LAG_MS, READ_WAIT_MS, ...). `name` names the
 * pair's directory under `.data/`, so specs running at once do not share one.
 */
export const startReadReplicaSpec = async (name: string, env: Record<string, string> = {}): Promise<ReadReplicaSpec> => {
  const pair = await startReplicaPair({ name });
  let platform: TestPlatform | null = null;
  try {
    platform = await startTestPlatform({ DATABASE_READ_URL: pair.replicaUrl, REPLICA_CHECK_MS: '100', ...env }, { joinDatabase: pair.primaryUrl });
    await platform.createUser('skrbnik', [{ roleId: ROLE.admin, unitId: 0, companyId: null }]);
    const { token } = await platform.login('skrbnik');
    const started = platform;
    return {
      pair,
      platform: started,
      token,
      createTag: async (name) => {
        const created = await started.app.inject({
          method: 'POST',
          url: '/api/tags',
          headers: { authorization: `JWT ${token}` },
          payload: { kind: 'course', name },
        });
        expect(created.statusCode, created.body).toBe(201);
        return { id: (created.json() as { id: number }).id, position: String(created.headers['x-event-position']) };
      },
      close: async () => {
        await started.close();
        await pair.close();
      },
    };
  } catch (error) {
    // A failed start leaves no server behind (afterAll has nothing to close).
    await platform?.close().catch(() => undefined);
    await pair.close().catch(() => undefined);
    throw error;
  }
};

/** The value of one series of the platform's GET /api/metrics, e.g. `db_replica_up` with `replica="1"`; NaN when it is absent. */
export const readMetric = async (platform: TestPlatform, name: string, label: string) => {
  const text = (await platform.app.inject({ method: 'GET', url: '/api/metrics' })).body;
  const line = text.split('\n').find((l) => l.startsWith(`${name}{${label}} `));
  return Number(line?.split(' ')[1] ?? Number.NaN);
};

/** Waits until `condition` holds (the health check and replay move on their own clock), polling every 50 ms; fails after `ms`. */
export const until = async (what: string, condition: () => Promise<boolean>, ms = 15_000) => {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

/** A connected client of one server of the pair, to pause replay, take locks or look at its sessions; the caller ends it. */
export const connect = async (url: string) => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
};
