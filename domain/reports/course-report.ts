import { z } from 'zod';
import type { Decider } from '../shared/decider.ts';
import { DomainError } from '../shared/domain-error.ts';
import { defineEvent, type EventsOf } from '../shared/event.ts';
import { REPORT_MESSAGES } from './course-report.rules.ts';

/**
 * A course report (issue 17 item 3): generating one is a fact, `CourseReportGenerated`, on a stream
 * of its own (so reports never contend with edits of the course). The event is the report log
 * entry of spec §3: date (the instant the figures are as of), interval, children, npsDetailed,
 * npsReasons; timeCreated is the event's time and user its actor. The figures are not copied into
 * the event: they are read from the statistics' facts as of `date` whenever the report is shown
 * (decision 0027), so a report reads the same today and in a year.
 */
export const courseReportStream = (reportId: number) => `coursereport-${reportId}`;

export const courseReportEvents = [
  defineEvent(
    'CourseReportGenerated',
    z.object({
      reportId: z.number().int().positive(),
      courseId: z.number().int().positive(),
      intervalId: z.number().int().min(0),
      /** The interval's bounds as they were when the report was made (null: all time), so a later change of the course's intervals leaves the report as it was. */
      interval: z.object({ startsAt: z.string(), stopsAt: z.string() }).nullable(),
      date: z.string(),
      children: z.boolean(),
      npsDetailed: z.boolean(),
      npsReasons: z.boolean(),
    }),
  ),
] as const;

export type CourseReportEvent = EventsOf<typeof courseReportEvents>;

export type CourseReportState =
  | { readonly status: 'none' }
  | { readonly status: 'generated'; readonly reportId: number; readonly courseId: number; readonly intervalId: number; readonly date: string };

export type GenerateCourseReport = {
  readonly type: 'GenerateCourseReport';
  readonly reportId: number;
  readonly courseId: number;
  readonly intervalId: number;
  /** The instant of the figures; null: `now`. */
  readonly date: Date | null;
  readonly children: boolean;
  readonly npsDetailed: boolean;
  readonly npsReasons: boolean;
  /** What the course offers, read by the slice: whether it has the detailed NPS (spec §3 detailNps), its intervals. */
  readonly course: { readonly detailNps: boolean; readonly intervals: readonly { readonly startsAt: string; readonly stopsAt: string }[] };
  readonly now: Date;
};

export type CourseReportCommand = GenerateCourseReport;

export const evolveCourseReport = (_state: CourseReportState, event: CourseReportEvent): CourseReportState => {
  switch (event.type) {
    case 'CourseReportGenerated':
      return { status: 'generated', reportId: event.data.reportId, courseId: event.data.courseId, intervalId: event.data.intervalId, date: event.data.date };
    default: {
      const unreachable: never = event.type;
      return unreachable;
    }
  }
};

const invalid = (field: string, message: string) => new DomainError('400', message, { status: 400, field });

export const decideCourseReport = (command: CourseReportCommand, state: CourseReportState): CourseReportEvent[] => {
  if (state.status !== 'none') throw new DomainError('409', 'Poročilo že obstaja.', { status: 409 });
  const interval = command.intervalId === 0 ? null : command.course.intervals[command.intervalId - 1];
  if (interval === undefined) throw invalid('intervalId', REPORT_MESSAGES.noInterval);
  if (command.date !== null && command.date.getTime() > command.now.getTime()) throw invalid('date', REPORT_MESSAGES.futureDate);
  if (command.npsDetailed && !command.course.detailNps) throw invalid('npsDetailed', REPORT_MESSAGES.noDetailedNps);
  return [
    {
      type: 'CourseReportGenerated',
      data: {
        reportId: command.reportId,
        courseId: command.courseId,
        intervalId: command.intervalId,
        interval: interval === null ? null : { startsAt: interval.startsAt, stopsAt: interval.stopsAt },
        date: (command.date ?? command.now).toISOString(),
        children: command.children,
        npsDetailed: command.npsDetailed,
        npsReasons: command.npsReasons,
      },
    },
  ];
};

export const courseReportDecider: Decider<CourseReportCommand, CourseReportEvent, CourseReportState> = {
  initialState: { status: 'none' },
  evolve: evolveCourseReport,
  decide: decideCourseReport,
};
