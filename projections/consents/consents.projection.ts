import { sql } from 'slonik';
import type { RecordedEvent } from '../../infrastructure/event-store/event-store.port.ts';
import { defineProjection, type ProjectionContext } from '../../infrastructure/projections/projection.port.ts';

type Change = { userId: number; consentType: number; textVersion: string; at: string; sequence: number; hash: string };

/**
 * Where each user's consents stand now, for the check every request makes (403 `422086` when a
 * required one is missing) and for `/users/me`. Only the current standing: the history and the
 * "as of" answers are replayed from the events themselves. A row only moves to a later event of
 * the stream (`sequence`), so a redelivered batch changes nothing.
 */
const apply =
  (given: boolean) =>
  async ({ tx, table }: ProjectionContext, event: RecordedEvent) => {
    const d = event.data as Change;
    await tx.query(sql.unsafe`
    insert into ${table('user_consents')} as c (user_id, consent_type, given, text_version, at, sequence, hash)
    values (${d.userId}, ${d.consentType}, ${given}, ${d.textVersion}, ${d.at}, ${d.sequence}, ${d.hash ?? ''})
    on conflict (user_id, consent_type) do update
      set given = excluded.given, text_version = excluded.text_version, at = excluded.at, sequence = excluded.sequence, hash = excluded.hash
      where c.sequence < excluded.sequence`);
  };

export const consentsProjection = defineProjection({
  name: 'consents',
  // 2: each row keeps its event's chain hash: the stream's length and head, for the gate's check against the signed checkpoint (decision 0052).
  version: 2,
  tables: ['user_consents'],
  setup: (table) => [
    sql.unsafe`create table ${table('user_consents')} (
      user_id integer not null, consent_type smallint not null, given boolean not null, text_version text not null,
      at timestamptz not null, sequence integer not null, hash text not null default '', primary key (user_id, consent_type))`,
  ],
  handlers: {
    ConsentGiven: apply(true),
    ConsentWithdrawn: apply(false),
  },
});
