import { type AllPosition, comparePositions } from '../event-store/event-store.port.ts';
import type { Database } from '../postgres/database.ts';
import { activeCheckpoints } from './generations.ts';
import type { ReadModelFreshness } from './projection.port.ts';
import type { Loop } from './projection-loop-state.ts';
import { sleep } from './projection-wake-up.ts';

/** What readers ask the runner: how fresh a read model is (waitFor), and whether it changed (changeStamp). */
export type ProjectionFreshness = ReadModelFreshness & {
  changeStamp(names: readonly string[]): string | null;
};

export type ProjectionFreshnessOptions = {
  readonly db: Database;
  readonly loops: ReadonlyMap<string, Loop>;
  readonly isStopped: () => boolean;
  /** Resolves when a loop next moves its checkpoint, or at once when one moved since `seen`. */
  readonly nextProgress: (seen?: number) => Promise<void>;
  /** How many checkpoint moves so far (taken before looking, so a move while we look is not missed). */
  readonly progressCount: () => number;
};

export const createProjectionFreshness = ({ db, loops, isStopped, nextProgress, progressCount }: ProjectionFreshnessOptions): ProjectionFreshness => {
  const isLocalActive = (name: string) => {
    const loop = loops.get(name);
    return loop?.holdsLock && loop.generation.status === 'active';
  };

  const isPast = (name: string, position: AllPosition) => isLocalActive(name) && comparePositions((loops.get(name) as Loop).checkpoint, position) >= 0;

  return {
    changeStamp(names) {
      const stamps: number[] = [];
      for (const name of names) {
        if (!isLocalActive(name)) return null;
        stamps.push((loops.get(name) as Loop).changeStamp);
      }
      return stamps.join(':');
    },

    async waitFor(names, position, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      // Another process's checkpoint is polled: soon at first (most writes are applied within a few
      // ms), then every 25 ms (issue 38: a flat 25 ms made a save-then-read pair on three processes
      // twice as slow as on one).
      let remotePolls = 0;
      for (;;) {
        const seen = progressCount();
        let pending = names.filter((name) => !isPast(name, position));
        // Projections another process runs are asked of the database; ours answer from memory.
        const remote = pending.filter((name) => !isLocalActive(name));
        if (remote.length > 0) {
          const rows = await activeCheckpoints(db.slonik, remote);
          const behind = new Set(
            rows
              .filter((row) => comparePositions({ commit: BigInt(row.checkpoint_commit), prepare: BigInt(row.checkpoint_prepare) }, position) < 0)
              .map((row) => row.name),
          );
          // A name without an active generation has nothing to wait for.
          pending = pending.filter((name) => isLocalActive(name) || behind.has(name));
        }
        if (pending.length === 0) return true;
        const remaining = deadline - Date.now();
        if (remaining <= 0 || isStopped()) return false;
        const pause = remote.length > 0 ? Math.min(25, 2 ** ++remotePolls) : 250;
        await Promise.race([nextProgress(seen), sleep(Math.min(pause, remaining))]);
      }
    },
  };
};
