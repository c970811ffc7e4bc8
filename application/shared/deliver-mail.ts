import { createHash } from 'node:crypto';
import { type MailEvent, mailDecider, mailStream } from '../../domain/mail/mail.ts';
import type { EventStore } from '../../infrastructure/event-store/event-store.port.ts';
import type { Log } from '../../infrastructure/logging/log.port.ts';
import { type Mailer, type MailMessage, maskAddress } from '../../infrastructure/mail/mailer.port.ts';
import { handleCommand } from './handle-command.ts';

export type MailDeps = { readonly store: EventStore; readonly mailer: Mailer; readonly log: Log };

/** A UUID made from a name (RFC 4122 v5 shape): one triggering event and kind always give one message id, so its job is queued once. */
export const messageIdFor = (eventId: string, kind: string) => {
  const hex = createHash('sha1').update(`${eventId}:${kind}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((Number.parseInt(hex.slice(16, 18), 16) & 0x3f) | 0x80).toString(16)}${hex.slice(18, 20)}-${hex.slice(20, 32)}`;
};

const record = (deps: MailDeps, messageId: string, event: MailEvent) =>
  handleCommand(deps.store, { streamName: mailStream(messageId), decider: mailDecider, command: { type: 'Record', event }, metadata: { actorId: null } });

/** Whether this message was already sent (a retried or repeated job sends nothing twice). */
export const alreadySent = async (deps: MailDeps, messageId: string) => {
  const stream = await deps.store.readStream(mailStream(messageId));
  return stream.events.some((e) => e.type === 'MailSent' || e.type === 'MailSkipped');
};

/**
 * Sends one message and records what became of it. A failure is recorded and thrown again, so the
 * job retries with backoff; the log names the kind, the masked recipient and the id, never the body
 * (it may hold a link that signs someone in) nor the subject (a second-factor code is in it).
 */
export const deliverMail = async (
  deps: MailDeps,
  message: MailMessage,
  context: { kind: string; triggeredBy: string; attempt: number; userId: number | null },
): Promise<void> => {
  const about = { kind: context.kind, recipient: message.to, triggeredBy: context.triggeredBy, userId: context.userId };
  try {
    const { messageId } = await deps.mailer.send(message);
    await record(deps, message.id, { type: 'MailSent', data: { ...about, messageId } });
    deps.log.info({ mail: message.id, kind: context.kind, to: maskAddress(message.to) }, 'mail sent');
  } catch (error) {
    const reason = (error as Error).message?.slice(0, 300) ?? 'unknown';
    await record(deps, message.id, { type: 'MailFailed', data: { ...about, attempt: context.attempt, error: reason } }).catch(() => undefined);
    deps.log.warn({ mail: message.id, kind: context.kind, to: maskAddress(message.to), attempt: context.attempt, error: reason }, 'mail failed');
    throw error;
  }
};

/** A message that will not go: what it carried expired before it could be sent. */
export const skipMail = (
  deps: MailDeps,
  messageId: string,
  context: { kind: string; recipient: string; triggeredBy: string; reason: string; userId: number | null },
) => record(deps, messageId, { type: 'MailSkipped', data: context });
