import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { createRefresher } from './use-live-read-models.ts';

/** A server whose answers come back when the test says: each read is answered with the figure as it stood when the read started. */
const slowServer = () => {
  let figure = 0;
  const pending: (() => void)[] = [];
  let reads = 0;
  let atOnce = 0;
  let mostAtOnce = 0;
  return {
    change: () => {
      figure += 1;
    },
    read: () => {
      const seen = figure;
      reads += 1;
      atOnce += 1;
      mostAtOnce = Math.max(mostAtOnce, atOnce);
      return new Promise<number>((resolve) =>
        pending.push(() => {
          atOnce -= 1;
          resolve(seen);
        }),
      );
    },
    answerAll: async () => {
      while (pending.length > 0) {
        (pending.shift() as () => void)();
        await new Promise((r) => setTimeout(r, 0));
      }
    },
    stats: () => ({ reads, mostAtOnce }),
  };
};

describe('live refresh of an open statistics page (issue 33 item 4)', () => {
  it('ends on the figure after the last change, one read at a time, even when changes come while a read is under way', async () => {
    const server = slowServer();
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const observer = new QueryObserver(client, { queryKey: ['stats', 'platform'], queryFn: server.read });
    const unsubscribe = observer.subscribe(() => undefined);
    const refresh = createRefresher(client, ['stats'], () => false);

    // The page's first read is under way when a participant finishes (the stream says so), twice.
    server.change();
    const first = refresh();
    server.change();
    const second = refresh();
    await server.answerAll();
    await Promise.all([first, second]);
    await server.answerAll();

    expect(client.getQueryData(['stats', 'platform'])).toBe(2);
    expect(server.stats().mostAtOnce).toBe(1);
    unsubscribe();
  });
});
