import { sql } from 'slonik';
import { z } from 'zod';
import type { CourseReadDb } from './courses.queries.ts';

/**
 * The approval code participants see on a course page (issue 36 item 2): the code the course was
 * published under, as its publish recorded it (decision 0063), while it is published. Not its last
 * grant's: a version approved since, or a grant of content published while approval was off, is not
 * what participants read. A course published without a code shows none.
 */
export const publishedApprovalCode = async (db: CourseReadDb, courseId: number): Promise<string | null> =>
  (await db.maybeOneFirst(sql.type(z.object({ code: z.string().nullable() }))`
    select ca.published_code as code
      from rm.course_approvals ca join rm.courses c on c.id = ca.course_id
     where ca.course_id = ${courseId} and c.published`)) ?? null;
