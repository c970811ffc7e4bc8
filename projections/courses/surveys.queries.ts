import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';

const surveyRow = z.object({
  id: z.number(),
  type: z.number(),
  title: z.string(),
  description: z.string(),
  published: z.boolean(),
  status: z.string(),
  intervals: z.array(z.object({ startsAt: z.string(), stopsAt: z.string() })),
  questions: z.array(z.object({ blockId: z.number(), name: z.string(), fields: z.record(z.string(), z.unknown()) })),
});

/** A course as a public survey needs it (issue 17, /anketa/{id}): its state and its NPS blocks in order. */
export const findSurvey = (db: DatabasePool, courseId: number) =>
  db.maybeOne(sql.type(surveyRow)`
    select c.id, c.type, c.title, c.description, c.published, c.status, c.intervals,
           coalesce((select jsonb_agg(jsonb_build_object('blockId', b.block_id, 'name', b.name, 'fields', b.fields) order by b.position)
                       from rm.course_blocks b where b.course_id = c.id and b.kind = 'nps'), '[]'::jsonb) as questions
      from rm.courses c where c.id = ${courseId}`);
