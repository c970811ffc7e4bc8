import { type ConsentOrigin, consentDecider } from '../../domain/consents/consent.decide.ts';
import { CONSENT_TEXTS, type ConsentTypeCode, type ContactChannel } from '../../domain/consents/consent.rules.ts';
import { type ConsentEvent, consentStream, consentsAsOf, holds } from '../../domain/consents/consent.ts';
import { verifyConsentChain } from '../../domain/consents/consent-chain.ts';
import { mayContact } from '../../domain/consents/contact.ts';
import { type EventMetadata, type EventStore, formatPosition } from '../../infrastructure/event-store/event-store.port.ts';
import { handleCommand } from '../shared/handle-command.ts';
import { sha256 } from './consent-hash.ts';

export type ConsentsDeps = { readonly store: EventStore; readonly now: () => Date };

/** A user's consent events as stored, in stream order, each with its $all position (for auditors). */
export const consentHistory = async (store: EventStore, userId: number) => {
  const read = await store.readStream(consentStream(userId));
  return read.events.map((e) => ({ event: { type: e.type, data: e.data } as ConsentEvent, position: formatPosition(e.position) }));
};

const run = (
  deps: ConsentsDeps,
  userId: number,
  origin: ConsentOrigin,
  metadata: EventMetadata,
  command:
    | { type: 'GiveConsents'; consents: readonly { consentType: ConsentTypeCode; textVersion: string }[] }
    | { type: 'WithdrawConsent'; consentType: ConsentTypeCode },
) =>
  handleCommand(deps.store, {
    streamName: consentStream(userId),
    decider: consentDecider,
    command: {
      ...command,
      userId,
      origin,
      hash: sha256,
      meta: { now: deps.now(), actorId: metadata.actorId ?? null, realActorId: metadata.realActorId ?? null },
    },
    metadata,
  });

export const giveConsents = (
  deps: ConsentsDeps,
  userId: number,
  consents: readonly { consentType: ConsentTypeCode; textVersion: string }[],
  origin: ConsentOrigin,
  metadata: EventMetadata,
) => run(deps, userId, origin, metadata, { type: 'GiveConsents', consents });

export const withdrawConsent = (deps: ConsentsDeps, userId: number, consentType: ConsentTypeCode, origin: ConsentOrigin, metadata: EventMetadata) =>
  run(deps, userId, origin, metadata, { type: 'WithdrawConsent', consentType });

/** The chain check over a history already read (the events as stored). */
export const verifyHistory = (userId: number, history: readonly { event: ConsentEvent; position: string }[]) =>
  verifyConsentChain(
    sha256,
    userId,
    history.map((h) => ({ type: h.event.type, data: h.event.data, position: h.position })),
  );

/** Recomputes the user's chain from the events as stored. */
/** The chain hash of each event of a history, in order: what a checkpoint's leaf is compared with (decision 0052). */
export const consentHashes = (history: readonly { readonly event: ConsentEvent }[]) =>
  history.map((h) => String((h.event.data as { hash?: unknown }).hash ?? ''));

export const verifyConsents = async (store: EventStore, userId: number) => verifyHistory(userId, await consentHistory(store, userId));

/**
 * For the newsletter, push and notification senders: may this user be contacted on this channel at
 * this time? Answered from the consent history at send time, never from a cached flag.
 */
export const contactAllowed = async (store: EventStore, userId: number, channel: ContactChannel, at: Date) =>
  mayContact(
    (await consentHistory(store, userId)).map((h) => h.event),
    channel,
    at,
  );

/**
 * Every required consent at its current text, in one command: demo users, test fixtures and
 * benchmark data hold them (issue 6), so that only a user made without them meets /pogoji.
 */
export const giveRequiredConsents = (deps: ConsentsDeps, userId: number, channel: 'web' | 'import', metadata: EventMetadata) =>
  giveConsents(
    deps,
    userId,
    CONSENT_TEXTS.filter((t) => t.required).map((t) => ({ consentType: t.type, textVersion: t.version })),
    { channel, ip: null, userAgent: null, onBehalfOf: null },
    metadata,
  );

/** Required consent types (current texts) the user does not hold, from the events themselves. */
export const missingConsentsFromEvents = async (store: EventStore, userId: number, now: Date) => {
  const state = consentsAsOf(
    (await consentHistory(store, userId)).map((h) => h.event),
    now,
  );
  return CONSENT_TEXTS.filter((t) => t.required && !holds(state, t.type, t.version)).map((t) => t.type);
};
