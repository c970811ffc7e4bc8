import { sql } from 'slonik';
import { z } from 'zod';
import type { CourseReadDb } from './courses.queries.ts';

/**
 * The approval code participants see on a course page and on its certificate (issue 36 item 2): the
 * code of the last approved version, while the course is published. Under approval the published
 * content is always the last approved one (a published course's content cannot change: decision
 * 0063), so its code is the one the course was published under. A course never approved has none.
 */
export const publishedApprovalCode = async (db: CourseReadDb, courseId: number): Promise<string | null> =>
  (await db.maybeOneFirst(sql.type(z.object({ code: z.string().nullable() }))`
    select ca.last_code as code
      from rm.course_approvals ca join rm.courses c on c.id = ca.course_id
     where ca.course_id = ${courseId} and c.published and ca.last_granted_hash is not null`)) ?? null;
