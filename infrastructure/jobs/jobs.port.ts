/**
 * Background work in PostgreSQL (pg-boss): mail, notifications, imports, exports, maintenance.
 * A job survives a restart; a failed one is retried with backoff and stays visible as failed.
 */
export type JobHandler = (data: unknown, meta: { readonly id: string; readonly retryCount: number }) => Promise<void>;

export type JobState = 'created' | 'retry' | 'active' | 'completed' | 'cancelled' | 'failed';

export type JobStatus = { readonly id: string; readonly name: string; readonly state: JobState; readonly retryCount: number; readonly createdOn: Date };

/** A queue's schedule (`cron`), retries with backoff and, for long work, the heartbeat (see `Jobs.register`). */
export type JobOptions = { readonly cron?: string; readonly retryLimit?: number; readonly retryDelaySeconds?: number; readonly heartbeatSeconds?: number };

export type Jobs = {
  /**
   * Registers a queue and its worker; with `cron`, also a schedule (Europe/Ljubljana time); `retryLimit` attempts with exponential backoff.
   * With `heartbeatSeconds` (at least 10) a running job keeps telling the queue it is alive; one whose process died is retried
   * soon after it falls silent, rather than when its expiry (15 minutes) runs out.
   * In an api process (PROCESS_ROLE=api, decision 0066) it only creates the queue: jobs are sent there, worked elsewhere.
   */
  register(name: string, handler: JobHandler, options?: JobOptions): Promise<void>;
  /**
   * Queues a job. With an `id` (a UUID), sending the same id again queues nothing: a reactor that
   * sees an event twice sends its job once.
   */
  send(name: string, data?: object, options?: { id?: string }): Promise<string | null>;
  /** A job's state, or null when pg-boss has purged it. */
  status(name: string, id: string): Promise<JobStatus | null>;
  stop(): Promise<void>;
};
