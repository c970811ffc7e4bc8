import type pg from 'pg';
import type { CheckpointLeaf } from '../../domain/consents/consent-checkpoint.ts';
import type { CheckpointLeaves } from './consent-proof.port.ts';

/**
 * The consent streams read from the event log itself (never from a read model), and each
 * checkpoint's leaves in `public.consent_checkpoint_leaves` (decision 0052): someone with the
 * database may edit them, which the signed root shows. Only the last checkpoints' leaves are kept.
 */
/** The advisory lock taking a checkpoint holds, in every process. */
const CHECKPOINT_LOCK = 52_0052;

export const createPostgresCheckpointLeaves = (pool: pg.Pool, keep = 20): CheckpointLeaves => ({
  exclusive: async (work) => {
    const client = await pool.connect();
    try {
      await client.query('select pg_advisory_lock($1)', [CHECKPOINT_LOCK]);
      try {
        return await work();
      } finally {
        await client.query('select pg_advisory_unlock($1)', [CHECKPOINT_LOCK]);
      }
    } finally {
      client.release();
    }
  },
  consentHeads: async () =>
    (
      await pool.query<{ stream: string; length: number; head: string }>(
        `select stream_name as stream, count(*)::int as length, (array_agg(data->>'hash' order by stream_revision desc))[1] as head
           from es.events where stream_name like 'consent-%' group by stream_name`,
      )
    ).rows.map((r) => ({ stream: r.stream, length: r.length, headHash: r.head ?? '' })),
  save: async (sequence, leaves) => {
    await pool.query(
      `insert into public.consent_checkpoint_leaves (sequence, stream, length, head_hash)
       select $1, * from unnest($2::text[], $3::int[], $4::text[]) on conflict do nothing`,
      [sequence, leaves.map((l) => l.stream), leaves.map((l) => l.length), leaves.map((l) => l.headHash)],
    );
    await pool.query('delete from public.consent_checkpoint_leaves where sequence <= $1', [sequence - keep]);
  },
  load: async (sequence) =>
    (
      await pool.query<CheckpointLeaf>(
        `select stream, length, head_hash as "headHash" from public.consent_checkpoint_leaves where sequence = $1 order by stream`,
        [sequence],
      )
    ).rows,
});
