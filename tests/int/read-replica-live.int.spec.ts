import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type ReadReplicaSpec, startReadReplicaSpec } from '../support/read-replica-spec.ts';
import type { ReplicaPair } from '../support/replica-pair.ts';
import type { TestPlatform } from '../support/test-platform.ts';

/**
 * The live stream on a platform that reads from a replica (decisions 0067, review of issue 37): a page
 * told `changed` reads again, and that read goes to the replica, which may not have replayed the change
 * yet. `changed` (and `ready`) carry the position the change is at; the read again sends it as
 * `X-Min-Position` (ui/src/lib/use-live-read-models.ts) and gets the change, from the primary if the
 * replica is behind.
 */
describe('live stream and a lagging replica', () => {
  let spec: ReadReplicaSpec;
  let pair: ReplicaPair;
  let platform: TestPlatform;
  let token = '';

  beforeAll(async () => {
    // The lag limit far away: the paused replica stays in use, as a replica a little behind would.
    spec = await startReadReplicaSpec('read-replica-live', { REPLICA_MAX_LAG_MS: '60000', READ_WAIT_MS: '1000' });
    ({ pair, platform, token } = spec);
    await platform.app.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await spec?.close();
  });

  it('tells the position of a change, and a read again with it sees the change while the replica has not replayed it', async () => {
    const port = (platform.app.server.address() as { port: number }).port;
    const controller = new AbortController();
    const stream = await fetch(`http://127.0.0.1:${port}/api/live`, { headers: { authorization: `JWT ${token}` }, signal: controller.signal });
    const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    /** The next event of `type`, its data parsed. */
    const next = async (type: string): Promise<{ readModels?: string[]; position?: string }> => {
      const deadline = Date.now() + 10_000;
      for (;;) {
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          const message = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = message.split('\n').find((line) => line.startsWith('data: '));
          if (message.includes(`event: ${type}`) && data) return JSON.parse(data.slice(6));
          end = buffer.indexOf('\n\n');
        }
        if (Date.now() > deadline) throw new Error(`no ${type} event`);
        const { value, done } = await reader.read();
        if (done) throw new Error('the stream ended');
        buffer += decoder.decode(value, { stream: true });
      }
    };
    const replica = await connect(pair.replicaUrl);
    try {
      expect((await next('ready')).position).toMatch(/^\d+-\d+$/);
      await replica.query('select pg_wal_replay_pause()');
      const { id } = await spec.createTag('Sveža');
      let changed = await next('changed');
      while (!changed.readModels?.includes('organisation')) changed = await next('changed');
      expect(changed.position).toMatch(/^\d+-\d+$/);

      const list = (headers: Record<string, string>) =>
        platform.app.inject({ method: 'GET', url: '/api/tags?kind=course&pageSize=50', headers: { authorization: `JWT ${token}`, ...headers } });
      const ids = (response: { json: () => unknown }) => (response.json() as { items: { id: number }[] }).items.map((tag) => tag.id);
      // What the page read again before: the replica's rows, without the change it was told of.
      const plain = await list({});
      expect(plain.statusCode).toBe(200);
      expect(ids(plain)).not.toContain(id);
      // With the change's position: the change, from the primary once the replica has not reached it within READ_WAIT_MS.
      const again = await list({ 'x-min-position': String(changed.position) });
      expect(again.statusCode).toBe(200);
      expect(again.headers['x-read-stale']).toBeUndefined();
      expect(ids(again)).toContain(id);
    } finally {
      await replica.query('select pg_wal_replay_resume()').catch(() => undefined);
      await replica.end();
      controller.abort();
    }
  });
});
