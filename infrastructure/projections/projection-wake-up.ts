export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/**
 * What wakes the runner's loops and its readers: appends (a hint from the event store) wake the
 * loops that follow the head, a timer or stop() wakes the standbys, and every batch applied or
 * checkpoint moved wakes whoever waits for read-your-writes.
 */
export type ProjectionWakeUp = {
  /** Wakes every loop sleeping in `waitForWake` (an append, or stop). */
  wakeAll(): void;
  /** Sleeps until `wakeAll` or at most `ms`. */
  waitForWake(ms: number): Promise<void>;
  /** A standby's sleep: about `ms`, cut short only by `wakeStandbys`. */
  standbySleep(ms: number): Promise<void>;
  wakeStandbys(): void;
  /** A loop moved its checkpoint: wakes every `nextProgress`. */
  emitProgress(): void;
  nextProgress(): Promise<void>;
};

export const createProjectionWakeUp = (): ProjectionWakeUp => {
  let sleepers: (() => void)[] = [];
  let progressWaiters: (() => void)[] = [];

  const wakeAll = () => {
    const s = sleepers;
    sleepers = [];
    for (const wake of s) wake();
  };

  const waitForWake = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      timer.unref();
      function done() {
        clearTimeout(timer);
        resolve();
      }
      sleepers.push(done);
    });

  // Standby loops sleep here: only their timer or stop() wakes them, never an append. With several
  // processes an append-woken standby cost a lock attempt and a registry read per projection per NOTIFY.
  const standbySleepers = new Set<() => void>();
  const standbySleep = (ms: number) =>
    new Promise<void>((resolve) => {
      // Jittered, so standbys of processes started together do not poll in step.
      const timer = setTimeout(done, ms * (0.75 + Math.random() * 0.5));
      timer.unref();
      function done() {
        clearTimeout(timer);
        standbySleepers.delete(done);
        resolve();
      }
      standbySleepers.add(done);
    });

  const wakeStandbys = () => {
    for (const wake of [...standbySleepers]) wake();
  };

  const emitProgress = () => {
    const w = progressWaiters;
    progressWaiters = [];
    for (const resolve of w) resolve();
  };

  const nextProgress = () => new Promise<void>((resolve) => progressWaiters.push(resolve));

  return { wakeAll, waitForWake, standbySleep, wakeStandbys, emitProgress, nextProgress };
};
