import type pg from 'pg';

/**
 * LISTEN on one channel over a dedicated connection, opened when the first subscriber arrives and
 * reopened after a failure. Subscribers get each notification's payload and the backend process that
 * sent it, and are also called after every (re)connect with `null`, since notifications sent while the
 * connection was down are lost.
 */
export const createNotificationListener = (options: {
  connect: () => Promise<pg.Client>;
  channel: string;
  onError?: ((error: unknown) => void) | undefined;
}) => {
  const subscribers = new Set<(payload: string | null, senderPid: number | null) => void>();
  let client: pg.Client | null = null;
  let starting: Promise<void> | null = null;
  let closed = false;
  let retryTimer: NodeJS.Timeout | null = null;

  const notifyAll = (payload: string | null, senderPid: number | null = null) => {
    for (const subscriber of subscribers) subscriber(payload, senderPid);
  };

  const start = async () => {
    if (closed || client) return;
    try {
      const c = await options.connect();
      c.on('notification', (message) => {
        if (message.channel === options.channel) notifyAll(message.payload ?? '', message.processId);
      });
      c.on('error', (error) => {
        options.onError?.(error);
        c.end().catch(() => undefined);
        if (client === c) client = null;
        scheduleRestart();
      });
      await c.query(`listen ${options.channel}`);
      if (closed) {
        await c.end();
        return;
      }
      client = c;
      notifyAll(null);
    } catch (error) {
      options.onError?.(error);
      scheduleRestart();
    }
  };

  const scheduleRestart = () => {
    if (closed || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      starting = start();
    }, 500);
    retryTimer.unref();
  };

  return {
    subscribe(subscriber: (payload: string | null, senderPid: number | null) => void) {
      subscribers.add(subscriber);
      if (!client && !starting) starting = start();
      return () => {
        subscribers.delete(subscriber);
      };
    },
    async close() {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      await starting;
      const c = client;
      client = null;
      await c?.end().catch(() => undefined);
    },
  };
};
