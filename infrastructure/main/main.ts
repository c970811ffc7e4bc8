import cluster from 'node:cluster';
import { Effect, Fiber, Layer } from 'effect';
import { type Config, loadConfig } from '../config/config.ts';
import { MainLayer } from './runtime.ts';
import { superviseApiProcesses } from './supervisor.ts';

/**
 * `npm start`: runs the layers until SIGINT or SIGTERM, then interrupts them so each releases
 * what it holds (HTTP server, jobs, projection runner, pools, embedded PostgreSQL).
 * With API_PROCESSES above 1 this process supervises that many API processes instead (decision 0035),
 * and with JOB_PROCESSES above 0 that many job processes beside them (decision 0066); each of them
 * (a cluster worker) runs the layers below in its PROCESS_ROLE.
 */
const supervising = (): Config | null => {
  if (!cluster.isPrimary) return null;
  try {
    const config = loadConfig();
    return config.apiProcesses > 1 || config.jobProcesses > 0 ? config : null;
  } catch {
    // An invalid configuration is reported by the layers below, as for one process.
    return null;
  }
};

const supervised = supervising();
if (supervised) await superviseApiProcesses(supervised);
else run();

function run() {
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
}
