import { api } from '../../../lib/api-client.ts';

export type OutboxMessage = { id: string; to: string; subject: string; text: string; html: string; createdAt: string };
export type MailLogEntry = {
  id: string;
  kind: string;
  recipient: string;
  status: 'sent' | 'failed' | 'skipped';
  attempts: number;
  lastError: string | null;
  updatedAt: string;
};

/** GET /api/mail (1008): the local outbox (no SMTP configured) and the delivery log. */
export const readMail = (search: string) =>
  api<{ smtp: boolean; outbox: OutboxMessage[]; log: MailLogEntry[] }>('GET', '/mail', { query: { search: search || undefined } });
