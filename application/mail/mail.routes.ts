import { z } from 'zod';
import { errorResponses, type HttpApp, system } from '../../infrastructure/http/http.port.ts';
import type { Outbox } from '../../infrastructure/mail/mailer.port.ts';
import { listMailLog, type MailReadDb, mailLogItem } from '../../projections/mail/mail.queries.ts';

const outboxItem = z.object({ id: z.string(), to: z.string(), subject: z.string(), text: z.string(), html: z.string(), createdAt: z.string() });

/**
 * The admin's view of mail (decision 0017): the local outbox (no SMTP configured: the demo's mail,
 * links and all) and the delivery log of every message (sent, failed with the relay's answer,
 * skipped because what it carried had expired). The mail holds links that sign people in, so only
 * those who may log in as any user (1008) read it.
 */
export const registerMailRoutes = (app: HttpApp, deps: { outbox: Outbox; db: MailReadDb; smtp: boolean }) => {
  app.get(
    '/api/mail',
    {
      config: { access: system(1008), readModels: ['mail'] },
      schema: {
        tags: ['mail'],
        summary: 'The local outbox and the delivery log (1008)',
        querystring: z.object({ search: z.string().max(200).optional() }),
        response: {
          200: z.object({ smtp: z.boolean(), outbox: z.array(outboxItem), log: z.array(mailLogItem) }),
          ...errorResponses,
        },
      },
    },
    async (request) => ({
      smtp: deps.smtp,
      outbox: await deps.outbox.list({ search: request.query.search, limit: 100 }),
      log: [...(await listMailLog(deps.db, request.query.search, 200))],
    }),
  );
};
