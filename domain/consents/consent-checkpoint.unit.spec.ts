import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type CheckpointLeaf, checkAgainstCheckpoint, inclusionProof, merkleRoot, verifyInclusion } from './consent-checkpoint.ts';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const leaf = (n: number, length = 2): CheckpointLeaf => ({ stream: `consent-${n}`, length, headHash: sha256(`head ${n} ${length}`) });

describe('consent checkpoints (decision 0052)', () => {
  it('proves every stream of a checkpoint to its root, whatever the number of streams, and nothing else', () => {
    for (const size of [1, 2, 3, 5, 8, 13]) {
      const leaves = Array.from({ length: size }, (_, i) => leaf(i + 1));
      const root = merkleRoot(sha256, leaves);
      // The order the streams are listed in does not change the root.
      expect(merkleRoot(sha256, [...leaves].reverse())).toBe(root);
      for (const l of leaves) {
        const proof = inclusionProof(sha256, leaves, l.stream);
        expect(proof && verifyInclusion(sha256, proof, root), `${size}: ${l.stream}`).toBe(true);
        // A leaf with another length or head is not proved by the same path.
        if (proof) expect(verifyInclusion(sha256, { ...proof, leaf: { ...proof.leaf, length: proof.leaf.length - 1 } }, root)).toBe(false);
      }
      expect(inclusionProof(sha256, leaves, 'consent-999')).toBeNull();
    }
  });

  it('changes its root when any stream changes, is added or is left out', () => {
    const leaves = [leaf(1), leaf(2), leaf(3)];
    const root = merkleRoot(sha256, leaves);
    expect(merkleRoot(sha256, [leaf(1), leaf(2, 3), leaf(3)])).not.toBe(root);
    expect(merkleRoot(sha256, [leaf(1), leaf(2)])).not.toBe(root);
    expect(merkleRoot(sha256, [...leaves, leaf(4)])).not.toBe(root);
  });

  it('names what the live log did to a signed stream: deleted, cut short, rewritten; a longer log holds', () => {
    const signed: CheckpointLeaf = { stream: 'consent-7', length: 2, headHash: 'b' };
    expect(checkAgainstCheckpoint(signed, ['a', 'b'])).toBeNull();
    expect(checkAgainstCheckpoint(signed, ['a', 'b', 'c'])).toBeNull();
    expect(checkAgainstCheckpoint(signed, [])).toBe('deleted-stream');
    expect(checkAgainstCheckpoint(signed, ['a'])).toBe('truncated');
    expect(checkAgainstCheckpoint(signed, ['a', 'x'])).toBe('rewritten');
    expect(checkAgainstCheckpoint(null, ['a'])).toBeNull();
  });
});
