import { match } from 'ts-pattern';
import type { CommandMeta, Decider } from '../shared/decider.ts';
import { DomainError } from '../shared/domain-error.ts';
import { type ConsentChannel, type ConsentTypeCode, consentText } from './consent.rules.ts';
import { type ConsentChange, type ConsentEvent, type ConsentState, evolveConsent, holds, initialConsentState } from './consent.ts';
import { type Hasher, seal } from './consent-chain.ts';

/** Where a request came from, recorded with the consent for auditors. */
export type ConsentOrigin = {
  readonly channel: ConsentChannel;
  readonly ip: string | null;
  readonly userAgent: string | null;
  /** Set when an admin records the change for the user; the note says why and on what basis. */
  readonly onBehalfOf: { readonly adminId: number; readonly note: string } | null;
};

type Common = { readonly userId: number; readonly origin: ConsentOrigin; readonly meta: CommandMeta; readonly hash: Hasher };

export type ConsentCommand =
  /** Give consents to the texts of the versions shown; types already given for that version are skipped. */
  | (Common & { readonly type: 'GiveConsents'; readonly consents: readonly { readonly consentType: ConsentTypeCode; readonly textVersion: string }[] })
  | (Common & { readonly type: 'WithdrawConsent'; readonly consentType: ConsentTypeCode });

const outdated = () =>
  new DomainError('422', 'Besedilo privolitve je bilo medtem posodobljeno. Osvežite stran in preberite novo besedilo.', { status: 409, field: 'consents' });

/** Appends one change per entry, each sealed onto the one before it. */
const chained = (
  command: Common,
  state: ConsentState,
  changes: readonly { type: ConsentEvent['type']; consentType: ConsentTypeCode; textVersion: string }[],
) => {
  const events: ConsentEvent[] = [];
  let previousHash = state.lastHash;
  for (const [i, change] of changes.entries()) {
    const data = seal(command.hash, command.userId, change.type, {
      userId: command.userId,
      consentType: change.consentType,
      textVersion: change.textVersion,
      at: command.meta.now.toISOString(),
      channel: command.origin.channel,
      ip: command.origin.ip,
      userAgent: command.origin.userAgent,
      onBehalfOf: command.origin.onBehalfOf,
      sequence: state.length + i,
      previousHash,
    }) satisfies ConsentChange;
    events.push({ type: change.type, data });
    previousHash = data.hash;
  }
  return events;
};

export const consentDecider: Decider<ConsentCommand, ConsentEvent, ConsentState> = {
  initialState: initialConsentState,
  evolve: evolveConsent,
  decide: (command, state) =>
    match(command)
      .with({ type: 'GiveConsents' }, (c) => {
        const seen = new Set<number>();
        const changes = c.consents.flatMap((entry) => {
          if (entry.textVersion !== consentText(entry.consentType).version) throw outdated();
          if (seen.has(entry.consentType) || holds(state, entry.consentType, entry.textVersion)) return [];
          seen.add(entry.consentType);
          return [{ type: 'ConsentGiven' as const, consentType: entry.consentType, textVersion: entry.textVersion }];
        });
        return chained(c, state, changes);
      })
      .with({ type: 'WithdrawConsent' }, (c) => {
        const standing = state.standings[c.consentType];
        if (!standing?.given) throw new DomainError('422', 'Te privolitve nimate dane, zato je ni mogoče preklicati.', { field: 'consentType' });
        return chained(c, state, [{ type: 'ConsentWithdrawn', consentType: c.consentType, textVersion: standing.textVersion }]);
      })
      .exhaustive(),
};
