import type { ServerResponse } from 'node:http';
import { DomainError } from '../../domain/shared/domain-error.ts';
import { formatPosition } from '../event-store/event-store.port.ts';
import type { ReadModelChanges } from '../projections/read-model-changes.ts';
import { AUTHENTICATED, type HttpApp, requireAuth } from './http.port.ts';

/**
 * `GET /api/live`: server-sent events naming the read models that changed (DESIGN §5), so open
 * statistics pages refetch within a second or two of a participant's answer, without a reload.
 * `event: ready` once changes are followed, then `event: changed`, `data: {"readModels":["stats",...],"position":"<commit>-<prepare>"}`;
 * a comment every 15 s keeps proxies open. `position` (also on `ready`) is what the page's read again
 * sends as `X-Min-Position`: on a read replica (decision 0067) it then waits for the change, or is
 * answered by the primary, instead of showing what was there before.
 */
export const registerLiveRoutes = (app: HttpApp, deps: { changes: ReadModelChanges; streamsPerUser: number }) => {
  // Open streams never go idle: a shutdown ends them, or closing the server would wait for every open page.
  const open = new Set<ServerResponse>();
  // Each open stream holds a connection and a subscription: a user gets a few (tabs), not thousands.
  const perUser = new Map<number, number>();
  app.addHook('preClose', async () => {
    for (const raw of open) raw.end();
    open.clear();
  });
  app.get(
    '/api/live',
    { config: { access: AUTHENTICATED }, schema: { tags: ['system'], summary: 'Server-sent events: which read models changed' } },
    async (request, reply) => {
      const userId = requireAuth(request).userId;
      const count = perUser.get(userId) ?? 0;
      if (count >= deps.streamsPerUser) {
        throw new DomainError('429', 'Odprtih je preveč sprotnih povezav. Zaprite kakšen zavihek in poskusite znova.', { status: 429 });
      }
      perUser.set(userId, count + 1);
      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      raw.write('retry: 2000\n\n');
      open.add(raw);
      const unsubscribe = deps.changes.subscribe((readModels, position) =>
        raw.write(`event: changed\ndata: ${JSON.stringify({ readModels, position: formatPosition(position) })}\n\n`),
      );
      // `ready`: from here on every change is told, so the page reads once more whatever changed
      // between its first read and this moment (or while it was reconnecting).
      void deps.changes.ready().then((position) => {
        if (open.has(raw)) raw.write(`event: ready\ndata: ${JSON.stringify(position ? { position: formatPosition(position) } : {})}\n\n`);
      });
      const heartbeat = setInterval(() => raw.write(': keep-alive\n\n'), 15_000);
      request.raw.on('close', () => {
        clearInterval(heartbeat);
        unsubscribe();
        open.delete(raw);
        const left = (perUser.get(userId) ?? 1) - 1;
        if (left > 0) perUser.set(userId, left);
        else perUser.delete(userId);
      });
    },
  );
};
