import { consentStream } from '../../domain/consents/consent.ts';
import {
  type CheckpointFinding,
  type CheckpointLeaf,
  checkAgainstCheckpoint,
  checkpointText,
  inclusionProof,
  merkleRoot,
} from '../../domain/consents/consent-checkpoint.ts';
import type { AnchoredCheckpoint, AnchorLog, CheckpointLeaves, CheckpointSigner } from '../../infrastructure/anchors/consent-proof.port.ts';
import { sha256 } from './consent-hash.ts';

/** Every 5 minutes a checkpoint is taken, if the consent log changed since the last (decision 0052). */
export const CONSENT_CHECKPOINT_QUEUE = 'consents.checkpoint';

export type ConsentProofDeps = {
  readonly leaves: CheckpointLeaves;
  readonly signer: CheckpointSigner;
  readonly anchors: AnchorLog;
  readonly now: () => Date;
};

/**
 * A signed checkpoint of every consent stream of the log (issue 32 item 2, decision 0052): their
 * lengths and head hashes in one Merkle root, with the count, the time and the previous checkpoint's
 * hash, signed with the consent key and appended to the anchor log. Its leaves are stored before the
 * anchor is written, so an anchor always has its leaves. Nothing changed since the last one: that one
 * stands, no new checkpoint.
 */
export const takeConsentCheckpoint = (deps: ConsentProofDeps): Promise<AnchoredCheckpoint> =>
  // Two at once (the cron and an auditor, or two processes) would both be number n+1 with different leaves.
  deps.leaves.exclusive(() => take(deps));

const take = async (deps: ConsentProofDeps): Promise<AnchoredCheckpoint> => {
  const leaves = await deps.leaves.consentHeads();
  const root = merkleRoot(sha256, leaves);
  const latest = await deps.anchors.latest();
  if (latest && latest.checkpoint.root === root && latest.checkpoint.count === leaves.length) return latest;
  const checkpoint = {
    sequence: (latest?.checkpoint.sequence ?? 0) + 1,
    at: deps.now().toISOString(),
    count: leaves.length,
    root,
    previous: latest ? sha256(checkpointText(latest.checkpoint)) : null,
  };
  await deps.leaves.save(checkpoint.sequence, leaves);
  const anchored = { checkpoint, signature: deps.signer.sign(checkpointText(checkpoint)), publicKey: deps.signer.publicKey };
  await deps.anchors.append(anchored);
  return anchored;
};

/** A checkpoint's leaves, once its signature and the leaves' root against the signed one hold; else what does not. */
export const verifiedLeaves = async (
  deps: ConsentProofDeps,
  anchored: AnchoredCheckpoint,
): Promise<{ readonly leaves: CheckpointLeaf[] } | { readonly finding: 'signature' | 'leaves' }> => {
  const { checkpoint } = anchored;
  if (!deps.signer.verify(checkpointText(checkpoint), anchored.signature, anchored.publicKey)) return { finding: 'signature' };
  const leaves = await deps.leaves.load(checkpoint.sequence);
  if (leaves.length !== checkpoint.count || merkleRoot(sha256, leaves) !== checkpoint.root) return { finding: 'leaves' };
  return { leaves };
};

/** Why the live log does not hold against the latest signed checkpoint, in the auditor's words. */
const FINDINGS: Record<CheckpointFinding | 'signature' | 'leaves', string> = {
  'deleted-stream': 'tok privolitev, zajet v podpisani kontrolni točki, ne obstaja več (izbrisan)',
  truncated: 'toku privolitev manjkajo dogodki, zajeti v podpisani kontrolni točki (konec je odrezan)',
  rewritten: 'dogodek na mestu, ki ga je zajela podpisana kontrolna točka, je drugačen (veriga je bila prepisana)',
  signature: 'podpis kontrolne točke ni veljaven',
  leaves: 'zapisi kontrolne točke v bazi se ne ujemajo s podpisanim korenom (bili so spremenjeni)',
};

export type CheckpointCheck = {
  readonly sequence: number;
  readonly at: string;
  readonly valid: boolean;
  readonly finding: CheckpointFinding | 'signature' | 'leaves' | null;
  readonly message: string | null;
};

/**
 * A user's consent stream as stored, against the latest signed checkpoint: the signature, the
 * leaves' root against the signed one, then the stream against its leaf (deleted, cut short,
 * rewritten). Null: no checkpoint was taken yet.
 */
export const checkConsentStream = async (deps: ConsentProofDeps, userId: number, hashes: readonly string[]): Promise<CheckpointCheck | null> => {
  const latest = await deps.anchors.latest();
  if (!latest) return null;
  const { checkpoint } = latest;
  const verdict = (finding: CheckpointCheck['finding']): CheckpointCheck => ({
    sequence: checkpoint.sequence,
    at: checkpoint.at,
    valid: finding === null,
    finding,
    message: finding === null ? null : FINDINGS[finding],
  });
  const checked = await verifiedLeaves(deps, latest);
  if ('finding' in checked) return verdict(checked.finding);
  const leaf = checked.leaves.find((l) => l.stream === consentStream(userId)) ?? null;
  return verdict(checkAgainstCheckpoint(leaf, hashes));
};

/** The auditor's receipt of a user's stream: the signed checkpoint and the path from the stream's leaf to its root. */
export const consentReceipt = async (deps: ConsentProofDeps, userId: number) => {
  const latest = await deps.anchors.latest();
  if (!latest) return null;
  const leaves = await deps.leaves.load(latest.checkpoint.sequence);
  return { ...latest, proof: inclusionProof(sha256, leaves, consentStream(userId)) };
};
