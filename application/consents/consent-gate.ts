import { CONSENT_TEXTS } from '../../domain/consents/consent.rules.ts';
import { consentStream } from '../../domain/consents/consent.ts';
import { appliedStreamHolds, type CheckpointLeaf, checkAgainstCheckpoint } from '../../domain/consents/consent-checkpoint.ts';
import type { EventStore } from '../../infrastructure/event-store/event-store.port.ts';
import { type ConsentProofDeps, verifiedLeaves } from './consent-checkpoints.ts';
import { consentHashes, consentHistory, missingConsentsFromEvents } from './consents.ts';

const REQUIRED = CONSENT_TEXTS.filter((t) => t.required).map((t) => t.type);

/**
 * The consent gate against the latest signed checkpoint (issue 32 item 2, decision 0052): it fails
 * closed. A person whose consent stream, as the read model applied it or as the log holds it, is
 * shorter than the checkpoint signed, or has another event at the signed head, is treated as missing
 * every required consent and asked again: a withdrawal cut from the log, and a read model rebuilt
 * from the cut log, do not let them in. The latest checkpoint's leaves are kept in memory, looked
 * for again at most every `refreshMs`; one whose signature or leaves do not hold is not used here
 * (the auditor's verify names it).
 */
export const createConsentGate = (deps: {
  readonly store: EventStore;
  readonly proof: ConsentProofDeps;
  readonly refreshMs: number;
  readonly now: () => Date;
}) => {
  let sequence = 0;
  let leaves = new Map<string, CheckpointLeaf>();
  let lookedAt = 0;
  let pending: Promise<void> | null = null;
  const refresh = async () => {
    const latest = await deps.proof.anchors.latest();
    if (!latest || latest.checkpoint.sequence === sequence) return;
    const checked = await verifiedLeaves(deps.proof, latest);
    if ('finding' in checked) return;
    leaves = new Map(checked.leaves.map((leaf) => [leaf.stream, leaf]));
    sequence = latest.checkpoint.sequence;
  };
  const leafOf = async (userId: number) => {
    if (Date.now() - lookedAt > deps.refreshMs) {
      lookedAt = Date.now();
      pending ??= refresh().finally(() => {
        pending = null;
      });
      await pending;
    }
    return leaves.get(consentStream(userId)) ?? null;
  };
  return {
    /** The required consents missing for the acting user, as the read model says, unless its stream falls short of the signed one. */
    missingFromReadModel: async (userId: number, read: { readonly missing: readonly number[]; readonly length: number; readonly headHash: string | null }) =>
      appliedStreamHolds(await leafOf(userId), read) ? read.missing : REQUIRED,
    /** The required consents missing, from the log itself, unless the log falls short of the signed stream. */
    missingFromLog: async (userId: number) => {
      const hashes = consentHashes(await consentHistory(deps.store, userId));
      if (checkAgainstCheckpoint(await leafOf(userId), hashes) !== null) return REQUIRED;
      return missingConsentsFromEvents(deps.store, userId, deps.now());
    },
  };
};
