import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { readAtLeast } from './api-client.ts';
import { session } from './session.ts';

/**
 * Reads the queries under `queryKey` again, one read at a time (issue 33 item 4): a read already
 * under way may have started before the change, so it is let finish and then the queries are read
 * once more. Never cancelling keeps a busy platform's stream of changes from starving the page of
 * any answer, and one read at a time means an older answer never lands after a newer one.
 */
export const createRefresher = (queryClient: QueryClient, queryKey: readonly unknown[], stopped: () => boolean) => {
  let running = false;
  let again = false;
  return async () => {
    again = true;
    if (running) return;
    running = true;
    try {
      while (again && !stopped()) {
        again = false;
        const filters = { queryKey: [...queryKey] };
        // Started before this change: wait for it, then read again (`again`).
        if (queryClient.isFetching(filters) > 0) again = true;
        await queryClient.invalidateQueries(filters, { cancelRefetch: false });
      }
    } finally {
      running = false;
    }
  };
};

/**
 * Keeps a page live (DESIGN §5): listens to `GET /api/live` (server-sent events, read with fetch so
 * the JWT goes in the header) and, when one of `readModels` changed, reads the queries under
 * `queryKey` again. On `ready` (the server follows changes from then on; also after a reconnect) it
 * reads them once more, so a change between the page's first read and the stream's start is not missed.
 * Both carry the position the change is at: the reads again wait for it (`X-Min-Position`), so a read
 * replica that has not replayed it yet does not answer with what was there before.
 */
export const useLiveReadModels = (readModels: readonly string[], queryKey: readonly unknown[]) => {
  const queryClient = useQueryClient();
  const models = readModels.join(',');
  const key = JSON.stringify(queryKey);
  useEffect(() => {
    const controller = new AbortController();
    const wanted = new Set(models.split(','));
    const refresh = createRefresher(queryClient, JSON.parse(key) as unknown[], () => controller.signal.aborted);
    let retry: ReturnType<typeof setTimeout> | null = null;
    const connect = async () => {
      try {
        const response = await fetch('/api/live', { headers: { Authorization: `JWT ${session.token() ?? ''}` }, signal: controller.signal });
        if (!response.ok || !response.body) throw new Error(String(response.status));
        const reader = response.body.getReader();
        const decoder = new TextDecoder();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += decoder.decode(value, { stream: true });
          let end = buffer.indexOf('\n\n');
          while (end >= 0) {
            const message = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = message.split('\n').find((line) => line.startsWith('data: '));
            const payload = data ? (JSON.parse(data.slice(6)) as { readModels?: string[]; position?: string }) : {};
            if (message.includes('event: ready')) {
              if (payload.position) readAtLeast(payload.position);
              void refresh();
            }
            if (message.includes('event: changed') && payload.readModels?.some((m) => wanted.has(m))) {
              if (payload.position) readAtLeast(payload.position);
              void refresh();
            }
            end = buffer.indexOf('\n\n');
          }
        }
      } catch {
        // Aborted on unmount, or the stream dropped: try again unless the page is gone.
      }
      if (!controller.signal.aborted) retry = setTimeout(() => void connect(), 2000);
    };
    void connect();
    return () => {
      controller.abort();
      if (retry) clearTimeout(retry);
    };
  }, [models, key, queryClient]);
};
