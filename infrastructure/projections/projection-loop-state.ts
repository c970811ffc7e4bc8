import type { AllPosition } from '../event-store/event-store.port.ts';
import type { Generation } from './generations.ts';
import type { Projection } from './projection.port.ts';

/** What the runner knows of one generation it follows (or waits to take over). */
export type Loop = {
  projection: Projection;
  generation: Generation;
  /** Where the loop has read to: every event up to it is applied or not the projection's. */
  checkpoint: AllPosition;
  /** The checkpoint as stored; behind `checkpoint` only by events the projection does not handle. */
  persisted: AllPosition;
  persistedAt: number;
  holdsLock: boolean;
  eventsApplied: number;
  lastAppliedAt: Date | null;
  lastError: string | null;
  lastErrorAt: Date | null;
  /** Set from a runner-wide counter whenever this loop's tables may have changed (changeStamp). */
  changeStamp: number;
};

export const newLoop = (projection: Projection, generation: Generation, changeStamp: number): Loop => ({
  projection,
  generation,
  checkpoint: generation.checkpoint,
  persisted: generation.checkpoint,
  persistedAt: Date.now(),
  holdsLock: false,
  eventsApplied: 0,
  lastAppliedAt: null,
  lastError: null,
  lastErrorAt: null,
  changeStamp,
});
