import { z } from 'zod';
import type { Decider } from '../shared/decider.ts';
import { defineEvent, type EventsOf } from '../shared/event.ts';

/**
 * What became of one message a job was to send (DESIGN §10: a side effect records its outcome as an
 * event): sent, failed (with the attempt; the job retries with backoff), or skipped because what it
 * carried had expired by the time it could go. Stream `mail-<message id>`.
 */
export const mailStream = (messageId: string) => `mail-${messageId}`;

const about = z.object({ kind: z.string(), recipient: z.string(), triggeredBy: z.string() });

export const mailEvents = [
  defineEvent('MailSent', about.extend({ messageId: z.string() })),
  defineEvent('MailFailed', about.extend({ attempt: z.number().int().min(1), error: z.string() })),
  defineEvent('MailSkipped', about.extend({ reason: z.string() })),
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
