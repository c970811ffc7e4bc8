import { randomUUID } from 'node:crypto';
import { handleCommand } from '../../application/shared/handle-command.ts';
import { userDecider } from '../../domain/users/user.decide.ts';
import { userStream } from '../../domain/users/user.ts';
import type { AllPosition } from '../../infrastructure/event-store/event-store.port.ts';
import { silentLog } from '../../infrastructure/logging/log.port.ts';
import { PROJECTIONS } from '../../infrastructure/main/projections.ts';
import { createProjectionRunner } from '../../infrastructure/projections/projection-runner.ts';
import { createBenchDb, fmt, percentile, seconds } from './bench-support.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Command-to-read-model lag at a steady command rate: each command (a logout, through the same
 * handleCommand every slice uses) is timed from the append's acknowledgement to the moment the
 * users read model has applied it, and from the command's start (end to end).
 */
export const benchLag = async (adminUrl: string, out: (line: string) => void) => {
  const db = await createBenchDb(adminUrl);
  const userCount = 500;
  await db.pg.query(`
    insert into es.events (stream_name, stream_revision, event_id, event_type, schema_version, data, metadata)
    select 'user-' || u, 0, gen_random_uuid(), 'UserRegistered', 1,
           jsonb_build_object('userId', u, 'username', 'user' || u, 'email', 'user' || u || '@bench.si', 'firstName', 'Ime', 'middleName', null,
                              'lastName', 'Priimek', 'phone', null, 'professionId', null, 'passwordHash', null), '{}'::jsonb
      from generate_series(1, ${userCount}) u`);
  await db.pg.query(`insert into es.streams select stream_name, max(stream_revision) from es.events group by stream_name`);
  const runner = createProjectionRunner({ db, store: db.store, projections: PROJECTIONS, log: silentLog, lagLogIntervalMs: 0 });
  await runner.start();
  const head = await db.store.headPosition();
  await runner.waitFor(['users', 'organisation'], head as AllPosition, 30_000);

  out('| commands/s (target) | achieved | lag p50 ms | lag p99 ms | end-to-end p50 ms | end-to-end p99 ms | commands |');
  out('|---:|---:|---:|---:|---:|---:|---:|');
  const results: Record<number, { p50: number; p99: number }> = {};
  for (const rate of [200, 1000]) {
    const durationMs = seconds() * 1000;
    const count = Math.round((rate * durationMs) / 1000);
    const lags: number[] = [];
    const ends: number[] = [];
    const inFlight: Promise<void>[] = [];
    const started = performance.now();
    for (let i = 0; i < count; i++) {
      const due = started + (i * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 1) await sleep(wait);
      inFlight.push(
        (async () => {
          const t0 = performance.now();
          const result = await handleCommand(db.store, {
            streamName: userStream((i % userCount) + 1),
            decider: userDecider,
            command: { type: 'LogOut', sessionId: randomUUID() },
            metadata: { actorId: (i % userCount) + 1 },
          });
          const acked = performance.now();
          await runner.waitFor(['users'], result.position as AllPosition, 10_000);
          const applied = performance.now();
          lags.push(applied - acked);
          ends.push(applied - t0);
        })(),
      );
    }
    await Promise.all(inFlight);
    const achieved = count / ((performance.now() - started) / 1000);
    results[rate] = { p50: percentile(lags, 50), p99: percentile(lags, 99) };
    out(
      `| ${rate} | ${fmt(achieved)} | ${fmt(percentile(lags, 50), 1)} | ${fmt(percentile(lags, 99), 1)} | ${fmt(percentile(ends, 50), 1)} | ${fmt(percentile(ends, 99), 1)} | ${fmt(count)} |`,
    );
  }
  await runner.stop();
  await db.drop();
  return results;
};
