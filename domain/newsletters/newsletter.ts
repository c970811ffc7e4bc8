import { z } from 'zod';
import type { Decider } from '../shared/decider.ts';
import { DomainError } from '../shared/domain-error.ts';
import { defineEvent, type EventsOf } from '../shared/event.ts';
import type { NewsletterFields } from './newsletter.rules.ts';

/** A newsletter issue (spec §3): written, published to the professions it is for, changed, deleted. */
export const newsletterStream = (newsletterId: number) => `newsletter-${newsletterId}`;

/** Stored as validated (newsletter.rules.ts); the schema here checks the envelope. */
const fields = z.record(z.string(), z.unknown());

export const newsletterEvents = [
  defineEvent('NewsletterCreated', z.object({ newsletterId: z.number().int().positive(), fields })),
  defineEvent('NewsletterUpdated', z.object({ fields })),
  defineEvent('NewsletterDeleted', z.object({})),
] as const;

export type NewsletterEvent = EventsOf<typeof newsletterEvents>;
export type NewsletterState =
  | { readonly status: 'none' }
  | { readonly status: 'active'; readonly id: number; readonly fields: NewsletterFields }
  | { readonly status: 'deleted'; readonly id: number };

export type NewsletterCommand =
  | { type: 'CreateNewsletter'; newsletterId: number; fields: NewsletterFields }
  | { type: 'UpdateNewsletter'; fields: NewsletterFields }
  | { type: 'DeleteNewsletter' };

const same = (a: NewsletterFields, b: NewsletterFields) =>
  (Object.keys(b) as (keyof NewsletterFields)[]).every((k) => JSON.stringify(a[k]) === JSON.stringify(b[k]));

export const newsletterDecider: Decider<NewsletterCommand, NewsletterEvent, NewsletterState> = {
  initialState: { status: 'none' },
  evolve: (state, event) => {
    switch (event.type) {
      case 'NewsletterCreated':
        return { status: 'active', id: event.data.newsletterId, fields: event.data.fields as unknown as NewsletterFields };
      case 'NewsletterUpdated':
        return state.status === 'active' ? { ...state, fields: event.data.fields as unknown as NewsletterFields } : state;
      case 'NewsletterDeleted':
        return state.status === 'active' ? { status: 'deleted', id: state.id } : state;
      default: {
        const unreachable: never = event;
        return unreachable;
      }
    }
  },
  decide: (command, state) => {
    if (command.type === 'CreateNewsletter') {
      if (state.status !== 'none') throw new DomainError('409', 'Novičnik že obstaja.', { status: 409 });
      return [{ type: 'NewsletterCreated', data: { newsletterId: command.newsletterId, fields: command.fields as unknown as Record<string, unknown> } }];
    }
    if (state.status !== 'active') throw new DomainError('404', 'Novičnik ne obstaja.', { status: 404 });
    if (command.type === 'DeleteNewsletter') return [{ type: 'NewsletterDeleted', data: {} }];
    return same(state.fields, command.fields) ? [] : [{ type: 'NewsletterUpdated', data: { fields: command.fields as unknown as Record<string, unknown> } }];
  },
};
