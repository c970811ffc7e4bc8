import { randomBytes, randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createJwtSessionTokens } from '../../infrastructure/auth/jwt-session-tokens.ts';
import { createBenchDb, fmt } from './bench-support.ts';
import { ADMIN_ID, seedStore } from './courses-seed-store.ts';
import { SIZES } from './soak-plan.ts';
import { ROOT, startPlatformProcess } from './soak-platform.ts';

/** Sequential pairs per row: one person saving and at once reading what they saved. */
const PAIRS = Number(process.env.SAVE_READ_PAIRS ?? 200);

type Row = { name: string; millis: number[]; reads: number[]; stale: number };

const quantile = (sorted: readonly number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;

/**
 * Issue 38 "one person: save then read": an admin saves a tag (POST /api/tags) and at once lists the
 * tags naming the save's position (X-Min-Position from X-Event-Position), in a row without pauses, as
 * the UI does after every mutation. With one API process and with three (API_PROCESSES=3, so the read
 * may land on a process that does not run the projection), beside a plain INSERT-then-SELECT pair on
 * the same PostgreSQL in the same run. A pair's time is the save plus the read; "stale" counts reads
 * that did not contain their save.
 */
export const benchSaveRead = async (adminUrl: string, out: (line: string) => void) => {
  const db = await createBenchDb(adminUrl, { poolSize: 10 });
  const dataDir = join(ROOT, '.data', `save-read-${process.pid}`);
  const rows: Row[] = [];
  try {
    await seedStore(db.store, 5_000, SIZES);

    // The plain baseline: the same pair as bare SQL on one connection.
    await db.pg.query('create table bench_plain_tags (id bigserial primary key, kind text not null, name text not null)');
    const plain: number[] = [];
    const plainReads: number[] = [];
    let plainStale = 0;
    for (let i = 0; i < PAIRS; i++) {
      const started = performance.now();
      const inserted = await db.pg.query<{ id: string }>('insert into bench_plain_tags (kind, name) values ($1, $2) returning id', ['course', `Značka ${i}`]);
      const readStarted = performance.now();
      const read = await db.pg.query<{ id: string }>('select id, name from bench_plain_tags where kind = $1 and name = $2', ['course', `Značka ${i}`]);
      plain.push(performance.now() - started);
      plainReads.push(performance.now() - readStarted);
      if (read.rows[0]?.id !== inserted.rows[0]?.id) plainStale++;
    }
    rows.push({ name: 'plain INSERT then SELECT (one connection)', millis: plain, reads: plainReads, stale: plainStale });

    const secret = randomBytes(48).toString('base64url');
    const tokens = createJwtSessionTokens({ secret, ttlSeconds: 3600 });
    const admin = await tokens.sign({ userId: ADMIN_ID, sessionId: randomUUID(), realUserId: null, position: null });
    for (const processes of (process.env.SAVE_READ_PROCESSES ?? '1,3').split(',').map(Number)) {
      const port = 40_000 + Math.floor(Math.random() * 9_000) * 2;
      const platform = await startPlatformProcess({
        DATABASE_URL: db.connectionString,
        DEMO_DATA: 'false',
        PORT: String(port),
        HOST: '127.0.0.1',
        API_PROCESSES: String(processes),
        LOG_LEVEL: 'warn',
        JWT_SECRET: secret,
        DATA_DIR: dataDir,
        UI_DIST_DIR: '/nonexistent',
      });
      try {
        const base = `http://127.0.0.1:${platform.port}`;
        const headers = { authorization: `JWT ${admin}` };
        // Every process up and the read models caught up with the seed before the pairs start.
        const head = await db.store.headPosition();
        const minPosition = head ? `${head.commit}-${head.prepare}` : '0-0';
        const deadline = Date.now() + 600_000;
        for (let ok = 0; ok < 3 * processes; ) {
          const warm = await fetch(`${base}/api/tags?kind=course&limit=5`, { headers: { ...headers, 'x-min-position': minPosition } });
          const body = await warm.text();
          if (warm.ok) ok++;
          else if (Date.now() > deadline) throw new Error(`tags list: ${warm.status} ${body}`);
          else await new Promise((r) => setTimeout(r, 200));
        }
        const millis: number[] = [];
        const reads: number[] = [];
        let stale = 0;
        for (let i = 0; i < PAIRS; i++) {
          const name = `Značka ${processes}-${i}`;
          const started = performance.now();
          const saved = await fetch(`${base}/api/tags`, {
            method: 'POST',
            headers: { ...headers, 'content-type': 'application/json' },
            body: JSON.stringify({ kind: 'course', name, internalUse: false }),
          });
          if (saved.status !== 201) throw new Error(`save: ${saved.status} ${await saved.text()}`);
          const { id } = (await saved.json()) as { id: number };
          const position = saved.headers.get('x-event-position') ?? '';
          const savedAt = performance.now();
          const read = await fetch(`${base}/api/tags?kind=course&search=${encodeURIComponent(name)}&limit=5`, {
            headers: { ...headers, 'x-min-position': position },
          });
          const list = (await read.json()) as { items: { id: number }[] };
          millis.push(performance.now() - started);
          reads.push(performance.now() - savedAt);
          // A slow pair says which half was slow, for whoever looks for the cause.
          if (performance.now() - started > 500)
            process.stderr.write(`slow pair ${i} (${processes} processes): save ${fmt(savedAt - started)} ms, read ${fmt(performance.now() - savedAt)} ms\n`);
          if (!list.items.some((tag) => tag.id === id)) stale++;
        }
        rows.push({ name: `POST /api/tags then GET /api/tags with X-Min-Position, API_PROCESSES=${processes}`, millis, reads, stale });
      } finally {
        await platform.stop();
      }
    }
  } finally {
    await db.drop();
    await rm(dataDir, { recursive: true, force: true });
  }

  out(`${PAIRS} sequential save-then-read pairs per row, no pause between pairs (issue 38; goal: p99 <= 50 ms, none over 500 ms).`);
  out('');
  out('| pair | p50 ms | p90 ms | p99 ms | max ms | over 500 ms | the read alone: p50 / p99 ms | reads without their save |');
  out('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const row of rows) {
    const sorted = [...row.millis].sort((a, b) => a - b);
    const over = row.millis.filter((m) => m > 500).length;
    const reads = [...row.reads].sort((a, b) => a - b);
    out(
      `| ${row.name} | ${fmt(quantile(sorted, 0.5), 1)} | ${fmt(quantile(sorted, 0.9), 1)} | ${fmt(quantile(sorted, 0.99), 1)} | ${fmt(sorted.at(-1) ?? Number.NaN, 1)} | ${over} | ${fmt(quantile(reads, 0.5), 1)} / ${fmt(quantile(reads, 0.99), 1)} | ${row.stale} |`,
    );
  }
};
