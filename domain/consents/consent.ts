import { z } from 'zod';
import { defineEvent, type EventsOf } from '../shared/event.ts';
import { CONSENT_CHANNELS, type ConsentChannel, type ConsentTypeCode } from './consent.rules.ts';

/** One stream per user holds every consent given or withdrawn, in order, hash-chained. */
export const consentStream = (userId: number) => `consent-${userId}`;

/** The hash before the first event of a stream. */
export const GENESIS_HASH = '0'.repeat(64);

const HEX64 = /^[0-9a-f]{64}$/;

/**
 * What an auditor needs to know of each change: what, which text, when, through which channel,
 * from where (IP, user agent), and who recorded it for the user with which note. The data carries
 * its place in the chain: `sequence` (0, 1, 2 ...), the previous event's `hash`, and its own hash
 * over everything else (consent-chain.ts).
 */
const consentChange = z.object({
  userId: z.number().int().positive(),
  consentType: z.number().int().min(1).max(4),
  textVersion: z.string().min(1).max(40),
  at: z.iso.datetime(),
  channel: z.enum(CONSENT_CHANNELS),
  ip: z.string().max(100).nullable(),
  userAgent: z.string().max(300).nullable(),
  onBehalfOf: z.object({ adminId: z.number().int().positive(), note: z.string().min(1).max(500) }).nullable(),
  sequence: z.number().int().nonnegative(),
  previousHash: z.string().regex(HEX64),
  hash: z.string().regex(HEX64),
});

export type ConsentChange = Omit<z.infer<typeof consentChange>, 'consentType' | 'channel'> & {
  consentType: ConsentTypeCode;
  channel: ConsentChannel;
};

export const consentEvents = [defineEvent('ConsentGiven', consentChange), defineEvent('ConsentWithdrawn', consentChange)] as const;

export type ConsentEvent = EventsOf<typeof consentEvents>;
export type ConsentEventType = ConsentEvent['type'];

/** Where one consent type stands: given (with the text version) or withdrawn, and since when. */
export type ConsentStanding = {
  readonly given: boolean;
  readonly textVersion: string;
  readonly at: string;
  readonly channel: ConsentChannel;
  readonly onBehalfOf: { readonly adminId: number; readonly note: string } | null;
};

export type ConsentState = {
  readonly standings: Readonly<Partial<Record<ConsentTypeCode, ConsentStanding>>>;
  /** Events so far: the next event's sequence. */
  readonly length: number;
  readonly lastHash: string;
};

export const initialConsentState: ConsentState = { standings: {}, length: 0, lastHash: GENESIS_HASH };

export const evolveConsent = (state: ConsentState, event: ConsentEvent): ConsentState => {
  const d = event.data;
  const standing: ConsentStanding = {
    given: event.type === 'ConsentGiven',
    textVersion: d.textVersion,
    at: d.at,
    channel: d.channel as ConsentChannel,
    onBehalfOf: d.onBehalfOf,
  };
  return { standings: { ...state.standings, [d.consentType]: standing }, length: state.length + 1, lastHash: d.hash };
};

/**
 * The consents as they stood at `asOf`, replayed from the events: every event recorded at or
 * before that instant, in stream order. Used by the auditor's "as of" view and by mayContact.
 */
export const consentsAsOf = (events: readonly ConsentEvent[], asOf: Date): ConsentState =>
  events.filter((e) => Date.parse(e.data.at) <= asOf.getTime()).reduce(evolveConsent, initialConsentState);

export const holds = (state: ConsentState, type: ConsentTypeCode, textVersion?: string) => {
  const standing = state.standings[type];
  return standing?.given === true && (textVersion === undefined || standing.textVersion === textVersion);
};
