import { z } from 'zod';
import type { Decider } from '../shared/decider.ts';
import { defineEvent, type EventsOf } from '../shared/event.ts';

/**
 * What became of one message a job was to send (DESIGN §10: a side effect records its outcome as an
 * event): sent, failed (with the attempt; the job retries with backoff), or skipped because what it
 * carried had expired by the time it could go. Stream `mail-<message id>`.
 */
export const mailStream = (messageId: string) => `mail-${messageId}`;

// `userId`: whose address it is, when known (decision 0019: the address is encrypted with their key).
const about = z.object({ kind: z.string(), recipient: z.string(), triggeredBy: z.string(), userId: z.number().int().positive().nullable().default(null) });
const ownerOf = (data: Readonly<Record<string, unknown>>) => (typeof data.userId === 'number' ? data.userId : null);
const recipientOf = { personal: { fields: ['recipient'], owner: ownerOf } };

export const mailEvents = [
  defineEvent('MailSent', about.extend({ messageId: z.string() }), recipientOf),
  // A server's error often quotes the address it refused.
  defineEvent('MailFailed', about.extend({ attempt: z.number().int().min(1), error: z.string() }), {
    personal: { fields: ['recipient', 'error'], owner: ownerOf },
  }),
  defineEvent('MailSkipped', about.extend({ reason: z.string() }), recipientOf),
] as const;

export type MailEvent = EventsOf<typeof mailEvents>;
export type MailState = { readonly status: 'none' | 'sent' | 'failed' | 'skipped'; readonly attempts: number };
export type MailCommand = { type: 'Record'; event: MailEvent };

/** Records outcomes; once sent or skipped, a message records nothing more (a retried job finds it done). */
export const mailDecider: Decider<MailCommand, MailEvent, MailState> = {
  initialState: { status: 'none', attempts: 0 },
  evolve: (state, event) => {
    switch (event.type) {
      case 'MailSent':
        return { status: 'sent', attempts: state.attempts + 1 };
      case 'MailFailed':
        return { status: 'failed', attempts: state.attempts + 1 };
      case 'MailSkipped':
        return { status: 'skipped', attempts: state.attempts };
      default: {
        const unreachable: never = event;
        return unreachable;
      }
    }
  },
  decide: (command, state) => (state.status === 'sent' || state.status === 'skipped' ? [] : [command.event]),
};
