import type pg from 'pg';
import type { Log } from '../logging/log.port.ts';
import { type PersonalDataProtection, sealFields } from './protecting-event-store.ts';

const STEP = 'protect-existing-events-v1';
const PAGE = 1000;
// Any fixed number: two processes starting together rewrite the log once.
const LOCK = 7_319_011;

/**
 * The one rewrite of the log (decision 0019), for a database written before people's data was
 * protected: claim streams named after a username, e-mail or social subject get their hashed names,
 * and personal fields still plain are encrypted in place. Events keep their ids, order and positions,
 * and read back as before, so read models need no rebuild. Runs once per database; later starts
 * find the step done.
 */
export const protectExistingEvents = async (pool: pg.Pool, protection: PersonalDataProtection, log: Log) => {
  const done = await pool.query('select 1 from public.personal_data_steps where name = $1', [STEP]);
  if (done.rowCount) return { renamed: 0, sealed: 0 };
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [LOCK]);
    const again = await client.query('select 1 from public.personal_data_steps where name = $1', [STEP]);
    if (again.rowCount) return { renamed: 0, sealed: 0 };
    let renamed = 0;
    const claims = await client.query<{ stream_name: string }>(
      "select stream_name from es.streams where stream_name ~ '^(username|useremail|socialidentity)-' and stream_name !~ '^[a-z]+-~'",
    );
    for (const { stream_name: name } of claims.rows) {
      const hashed = protection.storedName(name);
      await client.query('begin');
      await client.query('update es.streams set stream_name = $2 where stream_name = $1', [name, hashed]);
      await client.query('update es.appends set stream_name = $2 where stream_name = $1', [name, hashed]);
      await client.query('commit');
      renamed += 1;
    }
    let sealed = 0;
    const types = [...protection.definitions.keys()];
    // Pages follow the primary key of es.appends (the $all order), so each is one index range,
    // however long the log; an append's events are sealed together and written back in one update.
    let after = { tx: '0', position: '0' };
    for (;;) {
      const page = await client.query<{ tx: string; global_position: string; stream_name: string; event_types: string[]; data: Record<string, unknown>[] }>(
        `select transaction_id::text as tx, global_position::text, stream_name, event_types, data from es.appends
          where (transaction_id, global_position) > ($2::xid8, $3::bigint) and event_types && $1::text[]
          order by transaction_id, global_position limit $4`,
        [types, after.tx, after.position, PAGE],
      );
      for (const row of page.rows) {
        let changed = 0;
        const data = [...row.data];
        for (const [i, type] of row.event_types.entries()) {
          const definition = protection.definitions.get(type);
          if (!definition) continue;
          const sealedData = await sealFields(definition, protection.keys, row.stream_name, data[i] as Record<string, unknown>, 'plain');
          if (JSON.stringify(sealedData) === JSON.stringify(data[i])) continue;
          data[i] = sealedData;
          changed += 1;
        }
        if (changed === 0) continue;
        await client.query('update es.appends set data = $3::json[] where transaction_id = $1::xid8 and global_position = $2::bigint', [
          row.tx,
          row.global_position,
          data.map((d) => JSON.stringify(d)),
        ]);
        sealed += changed;
      }
      const last = page.rows.at(-1);
      if (!last) break;
      after = { tx: last.tx, position: last.global_position };
    }
    await client.query('insert into public.personal_data_steps (name) values ($1) on conflict do nothing', [STEP]);
    if (renamed + sealed > 0) log.info({ renamed, sealed }, 'personal data in older events protected');
    return { renamed, sealed };
  } finally {
    await client.query('select pg_advisory_unlock($1)', [LOCK]).catch(() => undefined);
    client.release();
  }
};
