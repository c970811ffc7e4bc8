import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';
import { COURSE_TYPE } from '../../domain/courses/course-types.rules.ts';

export const publicCourseItem = z.object({
  id: z.number(),
  type: z.number(),
  title: z.string(),
  cover: z.string(),
  creditPoints: z.number(),
  lecturer: z.string().nullable(),
});

/**
 * The courses a partner site may show (/glp, issue 17 item 7, decision 0031): public, published, not
 * archived or deleted, and running now (no intervals, or now inside one); never the hidden type
 * (powerclass certificate) nor `hiddenTypes` (live courses while they are off), and never an RX course
 * (type 1, decision 0062), not even one made public before the rule existed. Course facts only:
 * nothing about who takes them.
 */
export const listPublicCourses = (db: DatabasePool, now: Date, hiddenTypes: readonly number[]) =>
  db.any(sql.type(publicCourseItem)`
    select id, type, title, cover, credit_points::float8 as "creditPoints", nullif(fields->>'lecturer', '') as lecturer
      from rm.courses c
     where c.public and c.published and c.status = 'published' and not (c.type = any(${sql.array([...hiddenTypes, COURSE_TYPE.rx], 'int4')}))
       and (jsonb_array_length(c.intervals) = 0 or exists (
             select 1 from jsonb_array_elements(c.intervals) i
              where (i->>'startsAt')::timestamptz <= ${now.toISOString()}::timestamptz and ${now.toISOString()}::timestamptz < (i->>'stopsAt')::timestamptz))
     order by c.created_at desc, c.id desc
     limit 200`);
