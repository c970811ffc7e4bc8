import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../../tests/support/decider-spec.ts';
import { courseReportRule, REPORT_MESSAGES } from './course-report.rules.ts';
import { type CourseReportEvent, courseReportDecider, type GenerateCourseReport } from './course-report.ts';

const now = new Date('2026-05-04T10:00:00.000Z');
const interval = { startsAt: '2026-03-01T00:00:00.000Z', stopsAt: '2026-06-30T22:00:00.000Z' };
const command = (extra: Partial<GenerateCourseReport> = {}): GenerateCourseReport => ({
  type: 'GenerateCourseReport',
  reportId: 3,
  courseId: 12,
  intervalId: 0,
  date: null,
  children: true,
  npsDetailed: false,
  npsReasons: true,
  course: { detailNps: false, intervals: [interval] },
  now,
  ...extra,
});
const generated = (extra: Partial<Extract<CourseReportEvent, { type: 'CourseReportGenerated' }>['data']> = {}): CourseReportEvent => ({
  type: 'CourseReportGenerated',
  data: { reportId: 3, courseId: 12, intervalId: 0, interval: null, date: now.toISOString(), children: true, npsDetailed: false, npsReasons: true, ...extra },
});
const spec = deciderSpec(courseReportDecider);

describe('course report (spec §3 Report log)', () => {
  it('is a log entry with the date of its figures: now, or an earlier instant asked for', () => {
    spec.given([]).when(command()).thenExpect([generated()]);
    const earlier = new Date('2026-04-01T08:00:00.000Z');
    spec
      .given([])
      .when(command({ date: earlier, intervalId: 1 }))
      .thenExpect([generated({ date: earlier.toISOString(), intervalId: 1, interval })]);
  });

  it('refuses a date in the future, an interval the course does not have and a detailed NPS the course does not offer', () => {
    spec
      .given([])
      .when(command({ date: new Date(now.getTime() + 60_000) }))
      .thenFails('400', REPORT_MESSAGES.futureDate);
    spec
      .given([])
      .when(command({ intervalId: 2 }))
      .thenFails('400', REPORT_MESSAGES.noInterval);
    spec
      .given([])
      .when(command({ npsDetailed: true }))
      .thenFails('400', REPORT_MESSAGES.noDetailedNps);
    spec
      .given([])
      .when(command({ npsDetailed: true, course: { detailNps: true, intervals: [] } }))
      .thenExpect([generated({ npsDetailed: true })]);
  });

  it('is generated once per id', () => {
    spec.given([generated()]).when(command()).thenFails('409');
  });

  it('takes the interval, an optional date and the three options, and nothing else', () => {
    expect(courseReportRule.parse({ intervalId: 0 })).toEqual({ intervalId: 0, children: false, npsDetailed: false, npsReasons: true });
    expect(courseReportRule.safeParse({ intervalId: -1 }).error?.issues[0]?.message).toBe('Izberite termin.');
    expect(courseReportRule.safeParse({ intervalId: 0, date: '4. 5. 2026' }).error?.issues[0]?.message).toBe('Vnesite veljaven datum in čas.');
    expect(courseReportRule.safeParse({ intervalId: 0, extra: 1 }).success).toBe(false);
  });
});
