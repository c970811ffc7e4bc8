import type { NewsletterFields } from '../../domain/newsletters/newsletter.rules.ts';
import { newsletterDecider, newsletterStream } from '../../domain/newsletters/newsletter.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import type { EventMetadata, EventStore } from '../../infrastructure/event-store/event-store.port.ts';
import type { IdAllocator } from '../../infrastructure/ids/id-allocator.port.ts';
import { type NewsletterReadDb, unknownProfessions } from '../../projections/newsletters/newsletters.queries.ts';
import { handleCommand } from '../shared/handle-command.ts';

export type NewslettersDeps = { readonly store: EventStore; readonly ids: IdAllocator; readonly db: NewsletterReadDb };

const checkProfessions = async (deps: NewslettersDeps, fields: NewsletterFields) => {
  if ((await unknownProfessions(deps.db, fields.professionIds)).length > 0) {
    throw new DomainError('400', 'Izbrani poklic ne obstaja.', { status: 400, field: 'professionIds' });
  }
};

/** Newsletters (spec §3; permission 1065 news and newsletters). */
export const createNewsletter = async (deps: NewslettersDeps, fields: NewsletterFields, metadata: EventMetadata) => {
  await checkProfessions(deps, fields);
  const newsletterId = await deps.ids.next('newsletter');
  const result = await handleCommand(deps.store, {
    streamName: newsletterStream(newsletterId),
    decider: newsletterDecider,
    command: { type: 'CreateNewsletter', newsletterId, fields },
    metadata,
  });
  return { id: newsletterId, position: result.position };
};

export const changeNewsletter = async (
  deps: NewslettersDeps,
  newsletterId: number,
  command: { type: 'UpdateNewsletter'; fields: NewsletterFields } | { type: 'DeleteNewsletter' },
  metadata: EventMetadata,
) => {
  if (command.type === 'UpdateNewsletter') await checkProfessions(deps, command.fields);
  const result = await handleCommand(deps.store, { streamName: newsletterStream(newsletterId), decider: newsletterDecider, command, metadata });
  return { id: newsletterId, position: result.position };
};
