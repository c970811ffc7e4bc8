import type { HttpApp } from '../http/http.port.ts';
import type { JobHandler, JobOptions, Jobs } from '../jobs/jobs.port.ts';
import type { Projection } from '../projections/projection.port.ts';

/**
 * The composition root's contract with a feature (DESIGN.md §2, decision 0058). A feature exposes one
 * module: its read models, its reactors, and `wire`, which takes what the feature needs from the
 * platform (the `Needs` type its module names, port by port) and answers its routes and jobs. The root
 * builds the shared adapters once and hands the same object to every module; TypeScript checks that
 * it meets every module's needs. A port, so that modules in application/ and projections/ may name it.
 */
export type FeatureModule<Needs> = {
  /** The feature's name, as its folders are named. */
  readonly name: string;
  /** The read models it keeps (rebuilt by `npm run projections:rebuild`). */
  readonly projections: readonly Projection[];
  /** Projections that only queue jobs from events; the runner keeps them only where jobs run. */
  readonly reactors?: (jobs: Pick<Jobs, 'send'>) => readonly Projection[];
  readonly wire: (needs: Needs) => FeatureWiring;
};

export type FeatureWiring = {
  /** Its command and query routes. */
  readonly routes: (app: HttpApp) => void | Promise<void>;
  /** Its queues and workers, registered only where background jobs run (not in most API tests). */
  readonly jobs?: (jobs: Jobs) => readonly JobSpec[];
};

/** A queue, its worker and its options. */
export type JobSpec = { readonly queue: string; readonly handler: JobHandler; readonly options: JobOptions };
