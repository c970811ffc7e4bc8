export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/**
 * What wakes the runner's loops and its readers: appends (a hint from the event store) wake the
 * loops that follow the head, a timer or stop() wakes the standbys, and every batch applied or
 * checkpoint moved wakes whoever waits for read-your-writes.
 */
export type ProjectionWakeUp = {
  /** Wakes every loop sleeping in `waitForWake` (an append, or stop), and counts the wake-up. */
  wakeAll(): void;
  /** How many wake-ups so far: a loop takes this before it reads, and passes it to `waitForWake`. */
  wakeCount(): number;
  /**
   * Sleeps until `wakeAll` or at most `ms`. With `seen` (the `wakeCount` taken before the loop found
   * nothing to do) it returns at once when a wake-up came since: an append whose hint arrived while
   * the loop was reading or storing its checkpoint is not lost (issue 38: such reads waited the whole
   * idle poll, a second, a third of the time).
   */
  waitForWake(ms: number, seen?: number): Promise<void>;
  /** A standby's sleep: about `ms`, cut short only by `wakeStandbys`. */
  standbySleep(ms: number): Promise<void>;
  wakeStandbys(): void;
  /** A loop moved its checkpoint: wakes every `nextProgress`, and counts it. */
  emitProgress(): void;
  progressCount(): number;
  /** Resolves at the next progress, or at once when there was progress since `seen` (a `progressCount`). */
  nextProgress(seen?: number): Promise<void>;
};

export const createProjectionWakeUp = (): ProjectionWakeUp => {
  let sleepers: (() => void)[] = [];
  let progressWaiters: (() => void)[] = [];
  let wakeUps = 0;
  let progress = 0;

  const wakeAll = () => {
    wakeUps++;
    const s = sleepers;
    sleepers = [];
    for (const wake of s) wake();
  };

  const waitForWake = (ms: number, seen?: number) =>
    new Promise<void>((resolve) => {
      if (seen !== undefined && seen !== wakeUps) {
        resolve();
        return;
      }
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
    progress++;
    const w = progressWaiters;
    progressWaiters = [];
    for (const resolve of w) resolve();
  };

  const nextProgress = (seen?: number) =>
    new Promise<void>((resolve) => {
      if (seen !== undefined && seen !== progress) resolve();
      else progressWaiters.push(resolve);
    });

  return {
    wakeAll,
    wakeCount: () => wakeUps,
    waitForWake,
    standbySleep,
    wakeStandbys,
    emitProgress,
    progressCount: () => progress,
    nextProgress,
  };
};
