import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import {
  type ChamberCreditCommand,
  type ChamberCreditEvent,
  type ChamberCreditState,
  chamberCreditDecider,
  chamberCreditReference,
  chamberCreditStream,
} from '../../domain/chambers/chamber-credit.ts';
import { type CourseEvent, courseDecider, courseStream } from '../../domain/courses/course.ts';
import { fold } from '../../domain/shared/decider.ts';
import { ChamberReportError, type ChamberReporter } from '../../infrastructure/chambers/chamber-reporter.port.ts';
import type { EventStore } from '../../infrastructure/event-store/event-store.port.ts';
import type { JobHandler, Jobs } from '../../infrastructure/jobs/jobs.port.ts';
import type { Log } from '../../infrastructure/logging/log.port.ts';
import type { Projection } from '../../infrastructure/projections/projection.port.ts';
import { type ChamberCreditsDb, chamberPerson, unreportedChamberCredits } from '../../projections/chambers/chamber-credits.queries.ts';
import { messageIdFor } from '../shared/deliver-mail.ts';
import { handleCommand } from '../shared/handle-command.ts';

export const CHAMBER_CREDIT_QUEUE = 'chambers.report';
export const CHAMBER_SWEEP_QUEUE = 'chambers.sweep';
/** pg-boss retries a refused report this often (backoff from CHAMBER_RETRY_DELAY_SECONDS); after that the sweep takes it up again. */
export const CHAMBER_RETRY_LIMIT = 6;
/** The sweep sends again what has not been acknowledged and has not changed for this long (its own retries are over by then). */
export const CHAMBER_SWEEP_QUIET_SECONDS = 30 * 60;

export type ChamberCreditDeps = {
  readonly store: EventStore;
  readonly db: ChamberCreditsDb;
  readonly reporter: ChamberReporter;
  readonly jobs: Pick<Jobs, 'send'>;
  readonly log: Log;
  readonly now: () => Date;
};

/**
 * Completions followed like a read model (DESIGN §10): each `CourseCompleted` queues one job whose id
 * is made from the event, so a completion seen twice queues one. The job decides whether the course
 * reports to a chamber at all; most do not, and their jobs end at once.
 */
export const chamberCreditsReactor = (jobs: Pick<Jobs, 'send'>): Projection => ({
  name: 'chamber_credit_jobs',
  version: 1,
  tables: [],
  setup: () => [],
  handles: ['CourseCompleted'],
  apply: async (_context, events) => {
    for (const event of events) {
      await jobs.send(CHAMBER_CREDIT_QUEUE, { enrollment: event.streamName }, { id: messageIdFor(event.eventId, 'chamber-credit') });
    }
  },
});

const step = (deps: Pick<ChamberCreditDeps, 'store'>, courseId: number, userId: number, command: ChamberCreditCommand) =>
  handleCommand(deps.store, {
    streamName: chamberCreditStream(courseId, userId),
    decider: chamberCreditDecider,
    command,
    metadata: { actorId: null },
  });

const loadCredit = async (store: EventStore, courseId: number, userId: number): Promise<ChamberCreditState> =>
  fold(
    chamberCreditDecider,
    (await store.readStream(chamberCreditStream(courseId, userId))).events.map((e) => ({ type: e.type, data: e.data }) as ChamberCreditEvent),
  );

const jobData = z.union([
  z.object({ enrollment: z.string().regex(/^enrollment-\d+_\d+$/) }),
  z.object({ courseId: z.number().int().positive(), userId: z.number().int().positive() }),
]);

/**
 * One person's credit for one course (issue 17 item 6, decision 0030): recorded as earned when the
 * course reports to the chambers (it has a sync destination) and gives points, for the chamber of the
 * person's profession (issue 32 item 4: a doctor's credit goes to the doctors' chamber whatever the
 * course names); then, unless the chamber already acknowledged it, sent through the port. A
 * profession without a chamber, or no chamber number and no licence number, and the credit waits
 * (held, with the reason) and the sweep tries it again once the person or the profession has it. A refusal is recorded with its reason and thrown, so pg-boss retries with backoff;
 * the acknowledgment is recorded with the chamber's receipt and the time. A process that dies between
 * the chamber's answer and the record sends the same reference once more, which the chamber files once.
 */
export const reportChamberCredit =
  (deps: ChamberCreditDeps): JobHandler =>
  async (data) => {
    const parsed = jobData.parse(data);
    let courseId: number;
    let userId: number;
    if ('enrollment' in parsed) {
      [courseId, userId] = parsed.enrollment.slice('enrollment-'.length).split('_').map(Number) as [number, number];
    } else {
      ({ courseId, userId } = parsed);
    }
    const course = fold(
      courseDecider,
      (await deps.store.readStream(courseStream(courseId))).events.map((e) => ({ type: e.type, data: e.data }) as CourseEvent),
    );
    if (course.status === 'none') return;
    let credit = await loadCredit(deps.store, courseId, userId);
    if (credit.status === 'none') {
      const destination = course.fields.syncDestination;
      if (destination !== 1 && destination !== 2 && destination !== 3) return;
      const completed = (await deps.store.readStream(`enrollment-${courseId}_${userId}`)).events.find((e) => e.type === 'CourseCompleted');
      if (!completed) return;
      const points = (completed.data as { creditPoints: number }).creditPoints;
      if (!(points > 0)) return;
      credit = (
        await step(deps, courseId, userId, {
          type: 'EarnChamberCredit',
          courseId,
          userId,
          chamber: (await chamberPerson(deps.db, userId))?.professionChamber ?? null,
          points,
          earnedAt: completed.createdAt.toISOString(),
          courseExternalId: course.fields.externalId ?? null,
        })
      ).state;
    }
    if (credit.status !== 'pending') return;
    const person = await chamberPerson(deps.db, userId);
    if (credit.chamber === null) {
      const chamber = person?.professionChamber ?? null;
      if (chamber === null) {
        await step(deps, courseId, userId, { type: 'HoldChamberCredit', reason: 'no-chamber' });
        return;
      }
      credit = (await step(deps, courseId, userId, { type: 'RouteChamberCredit', chamber })).state;
      if (credit.status !== 'pending' || credit.chamber === null) return;
    }
    const memberNumber = person?.chamberMembershipNumber?.trim() || null;
    const licenceNumber = person?.licenceNumber?.trim() || null;
    if (!person || person.erased || (!memberNumber && !licenceNumber)) {
      await step(deps, courseId, userId, { type: 'HoldChamberCredit', reason: 'missing-number' });
      return;
    }
    let receipt: string;
    try {
      receipt = (
        await deps.reporter.report({
          reference: chamberCreditReference(courseId, userId),
          chamber: credit.chamber,
          memberNumber,
          licenceNumber,
          firstName: person.firstName,
          lastName: person.lastName,
          courseTitle: course.fields.title,
          courseExternalId: credit.courseExternalId,
          creditPoints: credit.points,
          earnedAt: credit.earnedAt,
        })
      ).receipt;
    } catch (error) {
      const reason = error instanceof ChamberReportError ? error.message : 'Poročanja zbornici ni bilo mogoče poslati.';
      deps.log.warn({ courseId, userId, chamber: credit.chamber, err: error }, 'chamber credit report refused');
      await step(deps, courseId, userId, { type: 'FailChamberCreditReport', reason });
      throw error;
    }
    await step(deps, courseId, userId, { type: 'ConfirmChamberCreditReported', receipt, reportedAt: deps.now().toISOString() });
  };

/**
 * Every half hour: each credit not acknowledged and quiet for half an hour (its own retries are
 * over, or it waits for a number) gets a new job, so a credit is sent until the chamber takes it.
 */
export const sweepChamberCredits =
  (deps: Pick<ChamberCreditDeps, 'db' | 'jobs'>, quietSeconds = CHAMBER_SWEEP_QUIET_SECONDS): JobHandler =>
  async () => {
    for (const { courseId, userId } of await unreportedChamberCredits(deps.db, quietSeconds, 5000)) {
      await deps.jobs.send(CHAMBER_CREDIT_QUEUE, { courseId, userId }, { id: randomUUID() });
    }
  };
