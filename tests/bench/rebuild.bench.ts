import { silentLog } from '../../infrastructure/logging/log.port.ts';
import { createProjectionRunner } from '../../infrastructure/projections/projection-runner.ts';
import { usersProjection } from '../../projections/users/users.projection.ts';
import { createBenchDb, fmt } from './bench-support.ts';

/**
 * Blue/green rebuild of the users read model over 1,000,000 events (10,000 registrations and
 * 990,000 logins, the shape a year of a busy platform has), from position zero to the switch.
 */
export const benchRebuild = async (adminUrl: string, out: (line: string) => void) => {
  const total = Number(process.env.BENCH_REBUILD_EVENTS ?? 1_000_000);
  const users = 10_000;
  const db = await createBenchDb(adminUrl);
  await db.pg.query(`
    insert into es.events (stream_name, stream_revision, event_id, event_type, schema_version, data, metadata, created_at)
    select 'user-' || u, 0, gen_random_uuid(), 'UserRegistered', 1,
           jsonb_build_object('userId', u, 'username', 'user' || u, 'email', 'user' || u || '@bench.si', 'firstName', 'Ime', 'middleName', null,
                              'lastName', 'Priimek ' || u, 'phone', null, 'professionId', null, 'passwordHash', null),
           '{}'::jsonb, now() - interval '400 days'
      from generate_series(1, ${users}) u`);
  await db.pg.query(`
    insert into es.events (stream_name, stream_revision, event_id, event_type, schema_version, data, metadata, created_at)
    select 'user-' || (g % ${users} + 1), g / ${users} + 1, gen_random_uuid(), 'UserLoggedIn', 1,
           jsonb_build_object('sessionId', gen_random_uuid(), 'method', 'password'),
           jsonb_build_object('actorId', g % ${users} + 1, 'ip', '10.0.0.1'), now() - interval '400 days' + g * interval '30 seconds'
      from generate_series(0, ${total - users - 1}) g`);
  await db.pg.query('insert into es.streams select stream_name, max(stream_revision) from es.events group by stream_name');
  await db.pg.query('analyze es.events');

  const batch = Number(process.env.BENCH_REBUILD_BATCH ?? 25_000);
  const runner = createProjectionRunner({ db, store: db.store, projections: [usersProjection], log: silentLog, rebuildBatchSize: batch, lagLogIntervalMs: 0 });
  const started = performance.now();
  await runner.rebuild('users');
  const elapsed = (performance.now() - started) / 1000;
  const check = await db.pg.query<{ users: string; logged_in: string }>(
    'select count(*)::text as users, count(last_login_at)::text as logged_in from rm.users',
  );
  const row = check.rows[0];
  if (Number(row?.users) !== users || Number(row?.logged_in) !== users) throw new Error(`rebuild incomplete: ${JSON.stringify(row)}`);
  out('| events | batch | rebuild seconds | events/s | read model check |');
  out('|---:|---:|---:|---:|---|');
  out(`| ${fmt(total)} | ${fmt(batch)} | ${fmt(elapsed, 1)} | ${fmt(total / elapsed)} | ${fmt(users)} users, every last login set |`);
  await runner.stop();
  await db.drop();
  return { seconds: elapsed };
};
