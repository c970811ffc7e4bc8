import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';

/**
 * The push worker (ui/public/push-sw.js) as the browser runs it: the file is evaluated in a worker
 * scope made here (its events, `registration`, `clients` and a timer the test moves by hand), and
 * its `push` and `notificationclick` handlers are called as the browser would call them.
 */
const SOURCE = readFileSync(join(import.meta.dirname, '..', '..', 'public', 'push-sw.js'), 'utf8');
const ORIGIN = 'https://medilearn.test';

type Listener = (event: unknown) => void;
type FakeWindow = { url: string; focus: () => Promise<FakeWindow>; navigate: (url: string) => Promise<unknown>; postMessage: (m: unknown) => void };

const worker = (windows: FakeWindow[] = [], options: { controlled?: boolean } = {}) => {
  const listeners = new Map<string, Listener>();
  const shown: { title: string; options: Record<string, unknown> }[] = [];
  const timers: { ms: number; run: () => void }[] = [];
  const opened: string[] = [];
  const scope = {
    addEventListener: (type: string, listener: Listener) => listeners.set(type, listener),
    skipWaiting: () => Promise.resolve(),
    location: { origin: ORIGIN },
    registration: {
      showNotification: async (title: string, o: Record<string, unknown>) => {
        shown.push({ title, options: o });
      },
    },
    clients: {
      claim: () => Promise.resolve(),
      matchAll: async () => windows,
      openWindow: async (url: string) => {
        opened.push(url);
        const client = window(`${ORIGIN}${url}`, options.controlled ?? true);
        windows.push(client);
        return client;
      },
    },
  };
  runInNewContext(SOURCE, { self: scope, URL, setTimeout: (run: () => void, ms: number) => timers.push({ ms, run }) });
  const dispatch = (type: string, event: Record<string, unknown>) => {
    let work: Promise<unknown> = Promise.resolve();
    (listeners.get(type) as Listener)({ ...event, waitUntil: (p: Promise<unknown>) => (work = p) });
    return work;
  };
  return { listeners, shown, timers, opened, dispatch };
};

const window = (url: string, controlled = true) => {
  const client: FakeWindow & { focused: number; navigated: string[]; messages: unknown[] } = {
    url,
    focused: 0,
    navigated: [],
    messages: [],
    focus: async () => {
      client.focused += 1;
      return client;
    },
    navigate: async (to: string) => {
      if (!controlled) throw new TypeError('not controlled');
      client.navigated.push(to);
      return client;
    },
    postMessage: (message: unknown) => client.messages.push(message),
  };
  return client;
};

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('the push worker', () => {
  it('handles only install, activate, push and notificationclick: no fetch, no caches', () => {
    expect([...worker().listeners.keys()].sort()).toEqual(['activate', 'install', 'notificationclick', 'push']);
    expect(SOURCE).not.toMatch(/caches\./);
  });

  it('shows what was pushed: title, text, and the path with its query in the notification’s data', async () => {
    const w = worker();
    const data = { json: () => ({ title: 'Nova vsebina', body: 'Dodali smo poglavje.', path: '/izobrazevanja/12?vir=obvestilo', tag: 'n1' }), text: () => '' };
    await w.dispatch('push', { data });
    expect(w.shown).toEqual([
      {
        title: 'Nova vsebina',
        options: { body: 'Dodali smo poglavje.', icon: '/favicon.svg', lang: 'sl', tag: 'n1', data: { path: '/izobrazevanja/12?vir=obvestilo' } },
      },
    ]);
    // A path to another site is not kept: the notification leads home.
    await w.dispatch('push', { data: { json: () => ({ title: 'X', path: 'https://zlobni.example/prijava' }), text: () => '' } });
    expect(w.shown[1]?.options.data).toEqual({ path: '/' });
  });

  it('on a tap focuses the platform’s window and leads it to the path and query after 2 seconds', async () => {
    const open = window(`${ORIGIN}/izobrazevanja`);
    const w = worker([window('https://drugje.example/'), open]);
    let closed = false;
    const done = w.dispatch('notificationclick', { notification: { data: { path: '/izobrazevanja/12?vir=obvestilo' }, close: () => (closed = true) } });
    await flush();
    expect(closed).toBe(true);
    expect(open.focused).toBe(1);
    // Nothing yet: the move waits for its 2 seconds.
    expect(open.navigated).toEqual([]);
    expect(w.timers.map((t) => t.ms)).toEqual([2000]);
    w.timers[0]?.run();
    await done;
    expect(open.navigated).toEqual([`${ORIGIN}/izobrazevanja/12?vir=obvestilo`]);
    expect(w.opened).toEqual([]);
  });

  it('opens the platform when no window of it is open, and then leads it there', async () => {
    const windows: FakeWindow[] = [];
    const w = worker(windows);
    const done = w.dispatch('notificationclick', { notification: { data: { path: '/izobrazevanja/7' }, close: () => undefined } });
    await flush();
    expect(w.opened).toEqual(['/']);
    w.timers[0]?.run();
    await done;
    expect((windows[0] as ReturnType<typeof window>).navigated).toEqual([`${ORIGIN}/izobrazevanja/7`]);
  });

  it('tells a window it does not control by a message, and never leads anywhere but the platform', async () => {
    const open = window(`${ORIGIN}/`, false);
    const w = worker([open]);
    const done = w.dispatch('notificationclick', { notification: { data: { path: '//zlobni.example/x?y=1' }, close: () => undefined } });
    await flush();
    w.timers[0]?.run();
    await done;
    expect(open.messages).toEqual([{ type: 'medilearn:navigate', path: '/' }]);
  });
});
