import type { Jobs } from '../../infrastructure/jobs/jobs.port.ts';
import type { Projection } from '../../infrastructure/projections/projection.port.ts';
import { messageIdFor } from '../shared/deliver-mail.ts';
import type { IdentityMailKind } from './identity-mail.templates.ts';

export const IDENTITY_MAIL_QUEUE = 'mail.identity';

/** Which mail each identity event asks for. */
const MAIL_OF: Record<string, (data: { purpose?: string }) => IdentityMailKind[]> = {
  UserEmailConfirmationRequested: () => ['email-confirmation'],
  UserPasswordResetRequested: (data) => [data.purpose === 'setup' ? 'password-setup' : 'password-reset'],
  // The new address confirms; the old one is told (spec-silent, what a careful platform does).
  UserEmailChangeRequested: () => ['email-change-confirm', 'email-change-notice'],
  UserSecondFactorChallenged: () => ['second-factor-code'],
};

/**
 * The identity events that need a mail, followed like a read model (checkpointed, one process at a
 * time, DESIGN §10): each queues one pg-boss job per message, whose id is made from the event and
 * the kind, so an event seen twice (a batch applied again after a crash) queues nothing new. It
 * owns no tables; a replay from zero queues only jobs that find their secret expired and skip.
 */
export const identityMailReactor = (jobs: Pick<Jobs, 'send'>): Projection => ({
  name: 'mail_identity',
  version: 1,
  tables: [],
  setup: () => [],
  handles: Object.keys(MAIL_OF),
  apply: async (_context, events) => {
    for (const event of events) {
      for (const kind of MAIL_OF[event.type]?.(event.data as { purpose?: string }) ?? []) {
        await jobs.send(IDENTITY_MAIL_QUEUE, { streamName: event.streamName, eventId: event.eventId, kind }, { id: messageIdFor(event.eventId, kind) });
      }
    }
  },
});
