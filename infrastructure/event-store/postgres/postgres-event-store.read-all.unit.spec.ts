import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createEventCodec } from '../event-codec.ts';
import { createPostgresEventStore } from './postgres-event-store.ts';

// readAll trusts the select list to emit an append's events in order (no sort, decision 0041) and
// checks every page for it. These pages come from a pool that answers what a wrong plan would.

type Row = { commit: string; append: string; ord: number; prepare: string; prepareBefore: string | null };

/** An event row as READ_ALL_SQL answers it; the append is (commit, append position of its last event). */
const row = ({ commit, append, ord, prepare, prepareBefore }: Row) => ({
  event_id: `00000000-0000-4000-8000-${prepare.padStart(12, '0')}`,
  stream_name: 's',
  revision: String(Number(prepare) - 1),
  commit,
  prepare,
  event_type: 'Unknown',
  schema_version: 1,
  data: {},
  metadata: {},
  created_at: 0,
  horizon: '1000',
  ord,
  append_position: append,
  prepare_before: prepareBefore,
});

/** Two appends in transaction 10: events 1-3 (append position 3) and 4-5 (append position 5). */
const inOrder: Row[] = [
  { commit: '10', append: '3', ord: 1, prepare: '1', prepareBefore: null },
  { commit: '10', append: '3', ord: 2, prepare: '2', prepareBefore: '1' },
  { commit: '10', append: '3', ord: 3, prepare: '3', prepareBefore: '2' },
  { commit: '10', append: '5', ord: 1, prepare: '4', prepareBefore: null },
  { commit: '10', append: '5', ord: 2, prepare: '5', prepareBefore: '4' },
];

const storeAnswering = (rows: Row[]) =>
  createPostgresEventStore({
    pool: { query: async () => ({ rows: rows.map(row) }) } as unknown as pg.Pool,
    connect: () => Promise.reject(new Error('no LISTEN in this test')),
    codec: createEventCodec([]),
  });

const start = { commit: 0n, prepare: 0n };

describe('readAll checks the order of events inside an append', () => {
  it('reads a page whose appends are numbered 1, 2, 3 and 1, 2', async () => {
    const read = await storeAnswering(inOrder).readAll(start, 10);
    expect(read.events.map((e) => e.position.prepare)).toEqual([1n, 2n, 3n, 4n, 5n]);
  });

  it('refuses a page with two events of one append swapped', async () => {
    const swapped = [inOrder[0], inOrder[2], inOrder[1], inOrder[3], inOrder[4]] as Row[];
    await expect(storeAnswering(swapped).readAll(start, 10)).rejects.toThrow(/out of append order/);
  });

  it('refuses a page that skips an event inside an append', async () => {
    const skipped = [inOrder[0], inOrder[2], inOrder[3], inOrder[4]] as Row[];
    await expect(storeAnswering(skipped).readAll(start, 10)).rejects.toThrow(/out of append order/);
  });

  it('refuses a page that starts a new append at its second event', async () => {
    const late = [inOrder[0], inOrder[1], inOrder[2], inOrder[4]] as Row[];
    await expect(storeAnswering(late).readAll(start, 10)).rejects.toThrow(/out of append order/);
  });

  it('continues inside an append only right after the cursor', async () => {
    // The previous page ended at event 1: this one must start at event 2, not 3.
    const cursor = { commit: 10n, prepare: 1n };
    expect((await storeAnswering(inOrder.slice(1)).readAll(cursor, 10)).events).toHaveLength(4);
    await expect(storeAnswering(inOrder.slice(2)).readAll(cursor, 10)).rejects.toThrow(/out of append order/);
  });
});
