import { consentStream, GENESIS_HASH } from './consent.ts';

/**
 * Tamper evidence for a consent stream. Each event's data carries `previousHash` (the hash of the
 * event before it, GENESIS_HASH for the first) and `hash`: a SHA-256 over the canonical JSON of the
 * stream name, the event type and the rest of the data. Changing any stored field of an event breaks
 * its own hash; removing or reordering events breaks the sequence or the link of the next one.
 * The hash function is passed in (node:crypto in the application), so this stays pure.
 */
export type Hasher = (text: string) => string;

/** JSON with keys sorted at every level: the same text however the database ordered the keys (jsonb does). */
export const canonicalJson = (value: unknown): string => {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
};

export const chainText = (userId: number, type: string, dataWithoutHash: Record<string, unknown>) =>
  canonicalJson({ stream: consentStream(userId), type, data: dataWithoutHash });

/** The data with its hash added: what the decider appends. */
export const seal = <D extends Record<string, unknown>>(hash: Hasher, userId: number, type: string, data: D): D & { hash: string } => ({
  ...data,
  hash: hash(chainText(userId, type, data)),
});

export type StoredConsentEvent = { readonly type: string; readonly data: unknown; readonly position?: string };

export type ChainBreak = {
  /** Index of the first event that does not verify (0-based, the stream order). */
  readonly index: number;
  readonly position: string | null;
  readonly reason: 'hash' | 'link' | 'sequence' | 'shape';
};

export type ChainVerification =
  | { readonly valid: true; readonly checked: number }
  | { readonly valid: false; readonly checked: number; readonly broken: ChainBreak };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Recomputes every hash of a user's stream as stored, and follows the links; stops at the first break. */
export const verifyConsentChain = (hash: Hasher, userId: number, events: readonly StoredConsentEvent[]): ChainVerification => {
  let previous = GENESIS_HASH;
  for (const [index, event] of events.entries()) {
    const broken = (reason: ChainBreak['reason']): ChainVerification => ({
      valid: false,
      checked: index,
      broken: { index, position: event.position ?? null, reason },
    });
    if (!isRecord(event.data) || typeof event.data.hash !== 'string') return broken('shape');
    const { hash: stored, ...rest } = event.data;
    if (rest.sequence !== index) return broken('sequence');
    if (rest.previousHash !== previous) return broken('link');
    if (hash(chainText(userId, event.type, rest)) !== stored) return broken('hash');
    previous = stored;
  }
  return { valid: true, checked: events.length };
};
