import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';
import { COURSE_TYPE } from '../../domain/courses/course-types.rules.ts';

/**
 * The RX courses (type 1) among those a text links to, with their titles: what the news and
 * newsletter editors are warned of (issue 36, decision 0062). Drafts too: a draft linked today may be
 * published tomorrow, and its readers' filter counts it already.
 */
export const linkedRxCourses = async (db: DatabasePool, courseIds: readonly number[]) =>
  courseIds.length === 0
    ? []
    : db.any(sql.type(z.object({ id: z.number(), title: z.string() }))`
        select id, title from rm.courses
         where id = any(${sql.array([...courseIds], 'int4')}) and type = ${COURSE_TYPE.rx} and status <> 'deleted'
         order by id`);
