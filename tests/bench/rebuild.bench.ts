import { silentLog } from '../../infrastructure/logging/log.port.ts';
import { createProjectionRunner } from '../../infrastructure/projections/projection-runner.ts';
import { usersProjection } from '../../projections/users/users.projection.ts';
import { createBenchDb, fmt, seedEventsSql } from './bench-support.ts';

/**
 * Blue/green rebuild of the users read model over 1,000,000 events (10,000 registrations and
 * 990,000 logins, the shape a year of a busy platform has), from position zero to the switch.
 */
export const benchRebuild = async (adminUrl: string, out: (line: string) => void) => {
  const total = Number(process.env.BENCH_REBUILD_EVENTS ?? 1_000_000);
  const users = 10_000;
  const db = await createBenchDb(adminUrl);
  await db.pg.query(
    seedEventsSql(`
    select 'user-' || u as stream_name, 0 as stream_revision, gen_random_uuid() as event_id, 'UserRegistered' as event_type, 1 as schema_version,
           jsonb_build_object('userId', u, 'username', 'user' || u, 'email', 'user' || u || '@bench.si', 'firstName', 'Ime', 'middleName', null,
                              'lastName', 'Priimek ' || u, 'phone', null, 'professionId', null, 'passwordHash', null) as data,
           '{}'::jsonb as metadata, now() - interval '400 days' as created_at
      from generate_series(1, ${users}) u order by u`),
  );
  await db.pg.query(
    seedEventsSql(`
    select 'user-' || (g % ${users} + 1) as stream_name, g / ${users} + 1 as stream_revision, gen_random_uuid() as event_id, 'UserLoggedIn' as event_type, 1 as schema_version,
           jsonb_build_object('sessionId', gen_random_uuid(), 'method', 'password') as data,
           jsonb_build_object('actorId', g % ${users} + 1, 'ip', '10.0.0.1') as metadata, now() - interval '400 days' + g * interval '30 seconds' as created_at
      from generate_series(0, ${total - users - 1}) g order by g`),
  );
  await db.pg.query('insert into es.streams select stream_name, max(first_revision) from es.appends group by stream_name');
  await db.pg.query('analyze es.appends');

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
