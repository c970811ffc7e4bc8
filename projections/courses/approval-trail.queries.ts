import type pg from 'pg';
import { z } from 'zod';
import { likePattern } from '../../infrastructure/postgres/search.port.ts';

export const auditCourseItem = z.object({
  id: z.number(),
  title: z.string(),
  published: z.boolean(),
  status: z.string(),
  companyName: z.string().nullable(),
});

/**
 * Courses an auditor looks up by title or id (at most 20), to open their approval trail (decision
 * 0064). Only the finding is read from the read model; the trail itself is replayed from the log.
 */
export const searchCoursesForAudit = async (db: pg.Pool, search: string) => {
  const result = await db.query({
    name: 'courses_audit_search',
    text: `select c.id, c.title, c.published, c.status, co.name as "companyName"
             from rm.courses c left join rm.companies co on co.id = c.owner_company_id
            where c.title ilike $1 or c.id::text = $2
            order by c.updated_at desc, c.id desc limit 20`,
    values: [likePattern(search), search.trim()],
  });
  return result.rows.map((row) => auditCourseItem.parse(row));
};
