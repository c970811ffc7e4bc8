import { z } from 'zod';
import { fold } from '../../domain/shared/decider.ts';
import { userDecider } from '../../domain/users/user.decide.ts';
import type { UserEvent } from '../../domain/users/user.ts';
import type { SecretSealer } from '../../infrastructure/auth/secret-sealer.port.ts';
import type { JobHandler } from '../../infrastructure/jobs/jobs.port.ts';
import { alreadySent, deliverMail, type MailDeps, messageIdFor, skipMail } from '../shared/deliver-mail.ts';
import { identityMail } from './identity-mail.templates.ts';

/** Every identity mail; the admin's mail log names each in Slovenian (identity.outbox.kinds). */
export const IDENTITY_MAIL_KINDS = [
  'email-confirmation',
  'password-reset',
  'password-setup',
  'email-change-confirm',
  'email-change-notice',
  'second-factor-code',
] as const;

const job = z.object({
  streamName: z.string(),
  eventId: z.string(),
  kind: z.enum(IDENTITY_MAIL_KINDS),
});

/** Where each link leads in the UI (spec §2 routes); the token goes in the query, which the server never logs. */
const PAGE = {
  'email-confirmation': '/registracija/complete',
  'password-reset': '/geslo/complete',
  'password-setup': '/nov-uporabnik',
  'email-change-confirm': '/sprememba-e-naslova/complete',
} as const;

/** A notice carries no secret; it is still not worth sending a day late. */
const NOTICE_MAX_AGE_MS = 24 * 3600 * 1000;

/**
 * The job behind every identity mail: reads the event that asked for it and the user as they were
 * then, unseals the secret, writes the mail in Slovenian and sends it. A secret that expired before
 * the mail could go (a long outage, a replay) is not sent.
 */
export const sendIdentityMail =
  (deps: MailDeps & { sealer: SecretSealer; publicUrl: string; now: () => Date }): JobHandler =>
  async (data, meta) => {
    const { streamName, eventId, kind } = job.parse(data);
    const messageId = messageIdFor(eventId, kind);
    if (await alreadySent(deps, messageId)) return;
    const stream = await deps.store.readStream(streamName);
    const index = stream.events.findIndex((e) => e.eventId === eventId);
    if (index < 0) return;
    const user = fold(
      userDecider,
      stream.events.slice(0, index + 1).map((e) => ({ type: e.type, data: e.data }) as UserEvent),
    );
    if (user.status !== 'active') return;
    const event = stream.events[index] as (typeof stream.events)[number];
    const fields = event.data as { sealed?: string; expiresAt?: string; newEmail?: string; oldEmail?: string; purpose?: string };
    const recipient = kind === 'email-change-confirm' ? (fields.newEmail as string) : kind === 'email-change-notice' ? (fields.oldEmail as string) : user.email;
    const skip = (reason: string) => skipMail(deps, messageId, { kind, recipient, triggeredBy: eventId, reason, userId: user.id });
    const now = deps.now().getTime();
    if (fields.expiresAt && new Date(fields.expiresAt).getTime() <= now) return void (await skip('expired'));
    if (kind === 'email-change-notice' && now - event.createdAt.getTime() > NOTICE_MAX_AGE_MS) return void (await skip('late'));
    const secret = kind === 'email-change-notice' ? null : deps.sealer.unseal(fields.sealed ?? '');
    if (kind !== 'email-change-notice' && !secret) return void (await skip('unsealable'));
    const content = identityMail(kind, {
      name: user.profile.firstName,
      ...(kind === 'second-factor-code' ? { code: secret as string, signature: fields.purpose === 'signature' } : {}),
      ...(kind in PAGE ? { link: `${deps.publicUrl}${PAGE[kind as keyof typeof PAGE]}?link=${encodeURIComponent(secret as string)}` } : {}),
      ...(fields.newEmail ? { newEmail: fields.newEmail } : {}),
    });
    await deliverMail(deps, { id: messageId, to: recipient, ...content }, { kind, triggeredBy: eventId, attempt: meta.retryCount + 1, userId: user.id });
  };
