import type { Checkpoint, CheckpointLeaf } from '../../domain/consents/consent-checkpoint.ts';

/**
 * The outside of the consent proof (issue 32 item 2, decision 0052): a key the database never holds
 * signs checkpoints; an anchor log outside the database keeps them; the leaves of each checkpoint are
 * kept beside the log (their root must match the signed one, so editing them is found).
 */

/** Signs with the platform's consent key (Ed25519 from a file or the environment; a KMS adapter would do the same). */
export type CheckpointSigner = {
  /** The public key (SPKI, PEM) an auditor checks signatures with. */
  readonly publicKey: string;
  sign(text: string): string;
  verify(text: string, signature: string, publicKey: string): boolean;
};

export type AnchoredCheckpoint = { readonly checkpoint: Checkpoint; readonly signature: string; readonly publicKey: string };

/** Where signed checkpoints are appended and read back (a file by default; a timestamp authority or an object store with retention later). */
export type AnchorLog = {
  append(anchored: AnchoredCheckpoint): Promise<void>;
  latest(): Promise<AnchoredCheckpoint | null>;
};

/** The log's consent streams as they stand, and the leaves each checkpoint fixed. */
export type CheckpointLeaves = {
  /** Every consent stream of the event log now: its length and its last event's hash. */
  consentHeads(): Promise<CheckpointLeaf[]>;
  save(sequence: number, leaves: readonly CheckpointLeaf[]): Promise<void>;
  load(sequence: number): Promise<CheckpointLeaf[]>;
  /** Runs `work` while no other process takes a checkpoint (one sequence, one set of leaves per checkpoint). */
  exclusive<T>(work: () => Promise<T>): Promise<T>;
};
