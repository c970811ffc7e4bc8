import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { session } from './session.ts';

/**
 * Keeps a page live (DESIGN §5): listens to `GET /api/live` (server-sent events, read with fetch so
 * the JWT goes in the header) and, when one of `readModels` changed, refetches the queries under
 * `queryKey`. Reconnects after a dropped stream.
 */
export const useLiveReadModels = (readModels: readonly string[], queryKey: readonly unknown[]) => {
  const queryClient = useQueryClient();
  const models = readModels.join(',');
  const key = JSON.stringify(queryKey);
  useEffect(() => {
    const controller = new AbortController();
    const wanted = new Set(models.split(','));
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
            if (message.includes('event: changed') && data) {
              const changed = (JSON.parse(data.slice(6)) as { readModels: string[] }).readModels;
              if (changed.some((m) => wanted.has(m))) void queryClient.invalidateQueries({ queryKey: JSON.parse(key) as unknown[] });
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
