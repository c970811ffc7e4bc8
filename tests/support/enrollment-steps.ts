import { randomUUID } from 'node:crypto';
import type { AllPosition, EventStore } from '../../infrastructure/event-store/event-store.port.ts';

/** An event as the course commands write it on an enrollment stream. */
export type Step = { readonly type: string; readonly data: object };

/** A participant's enrollment stream of a course. */
export const enrollmentStream = (courseId: number, userId: number) => `enrollment-${courseId}_${userId}`;

/**
 * Appends steps to a stream after whatever is there, as the course commands would: tests that need
 * many participants' histories (statistics, reports, exports, erasure) write them without taking each
 * course through the API. Returns the append's position, for read-your-writes.
 */
export const appendSteps = async (store: EventStore, stream: string, events: readonly Step[]): Promise<AllPosition> => {
  const read = await store.readStream(stream);
  const result = await store.append(
    stream,
    events.map((e) => ({ eventId: randomUUID(), type: e.type, data: e.data, metadata: {} })),
    { expectedRevision: read.revision },
  );
  return result.position;
};
