import type { ConsentTypeCode, ContactChannel } from './consent.rules.ts';
import { type ConsentEvent, consentsAsOf, holds } from './consent.ts';

/**
 * Which consents a contact on each channel needs (decision 0013): the terms of use (1), so a user
 * who withdrew from the platform is not written to, and communications (4). Any text version counts:
 * a consent stays valid until withdrawn; only the required-consent check asks for the current text.
 */
export const CONTACT_REQUIRES: Readonly<Record<ContactChannel, readonly ConsentTypeCode[]>> = {
  email: [1, 4],
  newsletter: [1, 4],
  push: [1, 4],
};

export type ContactAnswer = { readonly allowed: boolean; readonly missing: readonly ConsentTypeCode[] };

/** "May we contact this user on this channel at this time?", answered from the consent history. */
export const mayContact = (events: readonly ConsentEvent[], channel: ContactChannel, at: Date): ContactAnswer => {
  const state = consentsAsOf(events, at);
  const missing = CONTACT_REQUIRES[channel].filter((type) => !holds(state, type));
  return { allowed: missing.length === 0, missing };
};
