import { approvalSettingsStream } from '../../domain/courses/approval-settings.ts';
import { type ApprovalTrail, approvalTrail, type RecordedCourseEvent, trailPeople } from '../../domain/courses/approval-trail.ts';
import { type Course, type CourseOwner, courseStream } from '../../domain/courses/course.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import type { EventStore } from '../../infrastructure/event-store/event-store.port.ts';

export type ApprovalTrailDeps = {
  readonly store: EventStore;
  readonly now: () => Date;
  /** Display names by id (the users read model): only for people the events name by id; signatures carry their signer's name. */
  readonly userNames: (ids: readonly number[]) => Promise<Map<number, string>>;
  /** courseContentHash (domain/courses/course-content-hash.ts). */
  readonly contentHash: (course: Course) => string;
};

/** The trail of one course as the auditor's page and both exports show it. */
export type CourseApprovalTrail = ApprovalTrail & {
  /** The course as it stands at the end of its log (its title even before the as-of moment's creation). */
  readonly subject: { readonly id: number; readonly title: string; readonly type: number; readonly companyId: number | null };
  readonly asOf: Date | null;
  readonly generatedAt: Date;
};

const notFound = () => new DomainError('404', 'Izobraževanje ne obstaja.', { status: 404 });

/**
 * Reads the course stream from the event store (the log is the record; no read model is asked) and
 * replays it to `asOf` (null: now). A course that was deleted keeps its trail.
 */
export const courseApprovalTrail = async (deps: ApprovalTrailDeps, courseId: number, asOf: Date | null): Promise<CourseApprovalTrail> => {
  const read = await deps.store.readStream(courseStream(courseId));
  if (read.revision === 'no_stream' || read.events.length === 0) throw notFound();
  const recorded = (e: (typeof read.events)[number]): RecordedCourseEvent => ({
    type: e.type,
    data: e.data,
    recordedAt: e.createdAt,
    actorId: e.metadata.actorId ?? null,
    revision: Number(e.revision),
  });
  const events = read.events.map(recorded);
  // The settings of the course's scope (its owner's company, or the platform's): who switched approval on or off, and named whom.
  const created = read.events[0]?.type === 'CourseCreated' ? ((read.events[0].data as { owner?: CourseOwner }).owner ?? null) : null;
  const settings = (await deps.store.readStream(approvalSettingsStream(created ? created.companyId : 'platform'))).events.map(recorded);
  const names = await deps.userNames(trailPeople([...events, ...settings]));
  const generatedAt = deps.now();
  const trail = approvalTrail(events, { asOf, names, contentHash: deps.contentHash, settings });
  const whole = asOf ? approvalTrail(events, { asOf: null, names, contentHash: deps.contentHash }).course : trail.course;
  if (!whole) throw notFound();
  return {
    ...trail,
    subject: { id: courseId, title: whole.fields.title, type: whole.fields.type, companyId: whole.owner?.companyId ?? null },
    asOf,
    generatedAt,
  };
};
