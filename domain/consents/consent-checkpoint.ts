import { canonicalJson, type Hasher } from './consent-chain.ts';

/**
 * Signed checkpoints of the consent log (issue 32 item 2, decision 0052). The hash chain of a
 * consent stream shows an edited event, but not a tail cut off, a stream deleted, or a chain rewritten
 * and hashed again by someone with the database: a checkpoint fixes, at a moment, every consent
 * stream's length and head hash in one Merkle root, signed with a key the database never holds and
 * anchored outside it. Verifying the live log against the latest checkpoint names each of those.
 * Pure: the hash function is passed in.
 */

/** One consent stream as a checkpoint fixes it: how many events it had and the hash of the last. */
export type CheckpointLeaf = { readonly stream: string; readonly length: number; readonly headHash: string };

/** What is signed: the checkpoint's place in the series, when, how many streams, their root, and the previous checkpoint's hash. */
export type Checkpoint = {
  readonly sequence: number;
  readonly at: string;
  readonly count: number;
  readonly root: string;
  /** The hash of the previous checkpoint's text, null for the first: the anchors form a chain of their own. */
  readonly previous: string | null;
};

export type InclusionStep = { readonly hash: string; readonly side: 'left' | 'right' };
/** The path from one stream's leaf to the root: with it anyone recomputes the root from that leaf alone. */
export type InclusionProof = { readonly leaf: CheckpointLeaf; readonly path: readonly InclusionStep[] };

const byStream = (a: CheckpointLeaf, b: CheckpointLeaf) => (a.stream < b.stream ? -1 : a.stream > b.stream ? 1 : 0);
const leafHash = (hash: Hasher, leaf: CheckpointLeaf) => hash(`leaf:${canonicalJson(leaf)}`);
const nodeHash = (hash: Hasher, left: string, right: string) => hash(`node:${left}${right}`);

/** The levels of the tree, leaves (sorted by stream) first; an odd node is carried up as it is. */
const levels = (hash: Hasher, leaves: readonly CheckpointLeaf[]) => {
  const all: string[][] = [[...leaves].sort(byStream).map((leaf) => leafHash(hash, leaf))];
  while ((all.at(-1) as string[]).length > 1) {
    const below = all.at(-1) as string[];
    const above: string[] = [];
    for (let i = 0; i < below.length; i += 2)
      above.push(i + 1 < below.length ? nodeHash(hash, below[i] as string, below[i + 1] as string) : (below[i] as string));
    all.push(above);
  }
  return all;
};

export const merkleRoot = (hash: Hasher, leaves: readonly CheckpointLeaf[]): string =>
  leaves.length === 0 ? hash('empty') : ((levels(hash, leaves).at(-1) as string[])[0] as string);

/** The inclusion proof of one stream's leaf, or null when the checkpoint holds no such stream. */
export const inclusionProof = (hash: Hasher, leaves: readonly CheckpointLeaf[], stream: string): InclusionProof | null => {
  const sorted = [...leaves].sort(byStream);
  let index = sorted.findIndex((leaf) => leaf.stream === stream);
  if (index < 0) return null;
  const path: InclusionStep[] = [];
  for (const level of levels(hash, sorted).slice(0, -1)) {
    const sibling = index % 2 === 0 ? index + 1 : index - 1;
    if (sibling < level.length) path.push({ hash: level[sibling] as string, side: index % 2 === 0 ? 'right' : 'left' });
    index = Math.floor(index / 2);
  }
  return { leaf: sorted.find((leaf) => leaf.stream === stream) as CheckpointLeaf, path };
};

/** Whether a proof leads from its leaf to `root`. */
export const verifyInclusion = (hash: Hasher, proof: InclusionProof, root: string) =>
  proof.path.reduce((at, step) => (step.side === 'right' ? nodeHash(hash, at, step.hash) : nodeHash(hash, step.hash, at)), leafHash(hash, proof.leaf)) === root;

/** The text that is signed and anchored. */
export const checkpointText = (checkpoint: Checkpoint) => canonicalJson({ kind: 'medilearn-consent-checkpoint', ...checkpoint });

/**
 * What the live log shows against a checkpoint's leaf of its stream (`hashes`: the stored `hash` of
 * each live event, in order): the stream gone, its tail cut below what was signed, or a different
 * event where the signed head was (the chain rewritten and hashed again). Null: it holds.
 */
export type CheckpointFinding = 'deleted-stream' | 'truncated' | 'rewritten';

export const checkAgainstCheckpoint = (leaf: CheckpointLeaf | null, hashes: readonly string[]): CheckpointFinding | null => {
  if (!leaf) return null;
  if (hashes.length === 0) return 'deleted-stream';
  if (hashes.length < leaf.length) return 'truncated';
  return hashes[leaf.length - 1] === leaf.headHash ? null : 'rewritten';
};

/**
 * The same for a stream known only by its length and last hash (as a read model applied it): shorter
 * than signed, or as long with another head, does not hold; longer is for the next checkpoint to fix.
 */
export const appliedStreamHolds = (leaf: CheckpointLeaf | null, applied: { readonly length: number; readonly headHash: string | null }) =>
  !leaf || applied.length > leaf.length || (applied.length === leaf.length && applied.headHash === leaf.headHash);
