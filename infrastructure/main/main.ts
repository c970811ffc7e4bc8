import { Effect, Fiber, Layer } from 'effect';
import { MainLayer } from './runtime.ts';

/**
 * `npm start`: runs the layers until SIGINT or SIGTERM, then interrupts them so each releases
 * what it holds (HTTP server, jobs, projection runner, pools, embedded PostgreSQL).
 */
const fiber = Effect.runFork(Layer.launch(MainLayer));

let stopping = false;
const stop = (signal: string) => {
  if (stopping) return;
  stopping = true;
  process.stdout.write(`\n${signal}: shutting down\n`);
  const force = setTimeout(() => process.exit(1), 30_000);
  force.unref();
  Effect.runPromise(Fiber.interrupt(fiber)).then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.once('SIGINT', () => stop('SIGINT'));
process.once('SIGTERM', () => stop('SIGTERM'));

fiber.addObserver((exit) => {
  if (stopping) return;
  // The layers ended on their own: start-up failed.
  if (exit._tag === 'Failure') {
    process.stderr.write(`Medilearn could not start:\n${String((exit as { cause: unknown }).cause)}\n`);
    process.exit(1);
  }
});
