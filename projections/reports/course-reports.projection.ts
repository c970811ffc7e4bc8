import { sql } from 'slonik';
import { defineProjection } from '../../infrastructure/projections/projection.port.ts';

type Generated = {
  reportId: number;
  courseId: number;
  intervalId: number;
  interval: { startsAt: string; stopsAt: string } | null;
  date: string;
  children: boolean;
  npsDetailed: boolean;
  npsReasons: boolean;
};

/**
 * The report log of spec §3 (date, interval, children, npsDetailed, npsReasons, timeCreated, user):
 * one row per generated course report (issue 17 item 3), keyed by the report's id, so a batch
 * applied again adds nothing.
 */
export const courseReportsProjection = defineProjection({
  name: 'course_reports',
  version: 1,
  tables: ['course_reports'],
  setup: (table) => [
    sql.unsafe`create table ${table('course_reports')} (
      id integer primary key, course_id integer not null, interval_id integer not null, interval_starts_at timestamptz, interval_stops_at timestamptz,
      date timestamptz not null,
      children boolean not null, nps_detailed boolean not null, nps_reasons boolean not null,
      time_created timestamptz not null, user_id integer)`,
    sql.unsafe`create index on ${table('course_reports')} (course_id, time_created desc)`,
  ],
  handlers: {
    CourseReportGenerated: async ({ tx, table }, event) => {
      const d = event.data as Generated;
      await tx.query(sql.unsafe`
        insert into ${table('course_reports')} (id, course_id, interval_id, interval_starts_at, interval_stops_at, date, children, nps_detailed, nps_reasons, time_created, user_id)
        values (${d.reportId}, ${d.courseId}, ${d.intervalId}, ${d.interval?.startsAt ?? null}, ${d.interval?.stopsAt ?? null}, ${d.date}, ${d.children}, ${d.npsDetailed}, ${d.npsReasons}, ${event.createdAt.toISOString()},
          ${(event.metadata as { actorId?: number | null }).actorId ?? null})
        on conflict (id) do nothing`);
    },
  },
});
