import { Effect, Layer } from 'effect';
import { createProjectionRunner } from '../projections/projection-runner.ts';
import { PROJECTIONS } from './platform.ts';
import { AppDatabase, AppEventStore, AppLogger, ConfigLayer, DatabaseLayer, EventStoreLayer, LoggerLayer } from './runtime.ts';

/**
 * `npm run projections:rebuild -- <name> [<name> ...] | --all`: rebuilds read models from position
 * zero, blue/green, while the API (if running) keeps serving the current generation. With the
 * embedded database this joins the server `npm start` runs, or starts one when none runs.
 */
const args = process.argv.slice(2);
const known = PROJECTIONS.map((p) => p.name);
const names = args.includes('--all') ? known : args.filter((a) => !a.startsWith('-'));
const unknown = names.filter((n) => !known.includes(n));
if (names.length === 0 || unknown.length > 0) {
  process.stderr.write(
    `${unknown.length > 0 ? `Unknown projection: ${unknown.join(', ')}\n` : ''}Usage: npm run projections:rebuild -- <${known.join('|')}> ... | --all\n`,
  );
  process.exit(2);
}

const program = Effect.gen(function* () {
  const db = yield* AppDatabase;
  const store = yield* AppEventStore;
  const logger = yield* AppLogger;
  const runner = createProjectionRunner({ db, store, projections: PROJECTIONS, log: logger, lagLogIntervalMs: 0 });
  for (const name of names) {
    const started = Date.now();
    process.stdout.write(`Rebuilding ${name} ...\n`);
    const result = yield* Effect.tryPromise(() => runner.rebuild(name));
    process.stdout.write(
      `${name}: generation ${result.generation} is live after ${((Date.now() - started) / 1000).toFixed(1)} s (${result.eventsApplied} events applied)\n`,
    );
  }
  yield* Effect.tryPromise(() => runner.stop());
});

const layers = EventStoreLayer.pipe(Layer.provideMerge(DatabaseLayer), Layer.provideMerge(LoggerLayer), Layer.provideMerge(ConfigLayer));

Effect.runPromise(Effect.scoped(Effect.provide(program, layers))).then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`Rebuild failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
