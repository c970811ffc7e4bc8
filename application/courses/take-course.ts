import { randomUUID } from 'node:crypto';
import { certificateNumber } from '../../domain/courses/certificate.ts';
import type { Course } from '../../domain/courses/course.ts';
import { type CourseEvent, courseDecider, courseStream } from '../../domain/courses/course.ts';
import { type EnrollmentCommand, type EnrollmentContext, enrollmentDecider, enrollmentStream } from '../../domain/courses/enrollment.ts';
import { fold } from '../../domain/shared/decider.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import type { AllPosition, EventMetadata } from '../../infrastructure/event-store/event-store.port.ts';
import { certificateNumberTaken, currentIssuer } from '../../projections/courses/certificates.queries.ts';
import { completedCourseIds } from '../../projections/courses/courses.queries.ts';
import { isCourseVisible } from '../../projections/courses/user-courses.queries.ts';
import { handleCommand } from '../shared/handle-command.ts';
import type { CoursesDeps } from './courses.deps.ts';

/** A participant's step: an enrollment command without the context the step adds. */
export type CourseStep = EnrollmentCommand extends infer C ? (C extends { context: EnrollmentContext } ? Omit<C, 'context'> : never) : never;

/** The course as its own stream says it is now (not the read model: decisions need the truth). */
export const loadCourse = async (deps: CoursesDeps, courseId: number): Promise<Course> => {
  const state = fold(
    courseDecider,
    (await deps.store.readStream(courseStream(courseId))).events.map((e) => ({ type: e.type, data: e.data }) as CourseEvent),
  );
  if (state.status === 'none') throw new DomainError('404', 'Izobraževanje ne obstaja.', { status: 404 });
  return state;
};

/**
 * A UUID whose short number (decision 0032) no certificate has yet: 50 random bits a year make a
 * second draw all but never needed, and it keeps the verification page's answers one per number.
 */
const freshCertificateId = async (deps: CoursesDeps, now: Date) => {
  for (;;) {
    const id = randomUUID();
    if (!(await certificateNumberTaken(deps.db, certificateNumber(id, now)))) return id;
  }
};

/**
 * One step of a participant through a course, recorded in their enrollment stream. A course the
 * participant may not see answers 404 as if it did not exist. When the step completes the course
 * and the course has a certificate, the certificate is issued right after.
 */
export const takeCourseStep = async (deps: CoursesDeps, userId: number, courseId: number, step: CourseStep, metadata: EventMetadata) => {
  if (!(await isCourseVisible(deps.db, userId, courseId))) throw new DomainError('404', 'Izobraževanje ne obstaja.', { status: 404 });
  const context: EnrollmentContext = {
    course: await loadCourse(deps, courseId),
    completedCourseIds: await completedCourseIds(deps.db, userId),
    now: deps.now(),
  };
  const streamName = enrollmentStream(courseId, userId);
  const result = await handleCommand(deps.store, { streamName, decider: enrollmentDecider, command: { ...step, context } as EnrollmentCommand, metadata });
  let position: AllPosition | null = result.position;
  const completed = result.events.some((e) => e.type === 'CourseCompleted');
  if (completed && context.course.fields.certificateEnabled) {
    const certificate = await handleCommand(deps.store, {
      streamName,
      decider: enrollmentDecider,
      command: { type: 'IssueCertificate', certificateId: await freshCertificateId(deps, deps.now()), issuer: await currentIssuer(deps.db, userId), context },
      metadata,
    });
    position = certificate.position ?? position;
  }
  return { events: result.events, state: result.state, position, completed };
};
