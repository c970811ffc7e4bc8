import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';
import { withStatus } from './user-course-status.ts';
import { listUserCourses } from './user-courses.queries.ts';

export type AcademyReadDb = DatabasePool;

/** Credit points have one decimal (spec §9); summing floats must not show 3.0000000000000004. */
const sumPoints = (courses: readonly { creditPoints: number }[]) => Math.round(courses.reduce((sum, c) => sum + c.creditPoints * 10, 0)) / 10;

const academyRow = z.object({
  id: z.number(),
  title: z.string(),
  description: z.string(),
  cover: z.string(),
  courseIds: z.array(z.number()),
  published: z.boolean(),
  updatedAt: z.string(),
});

const academyColumns = sql.fragment`id, title, description, cover, course_ids as "courseIds", published, updated_at::text as "updatedAt"`;

export const adminAcademyCourse = z.object({ id: z.number(), title: z.string(), creditPoints: z.number(), published: z.boolean(), status: z.string() });
export const adminAcademy = academyRow.extend({ courses: z.array(adminAcademyCourse), creditPoints: z.number() });

/** spec §7 GET /academies/{id} (admin): the academy as authored with its courses in order. */
export const getAdminAcademy = async (db: AcademyReadDb, id: number): Promise<z.infer<typeof adminAcademy> | null> => {
  const academy = await db.maybeOne(sql.type(academyRow)`select ${academyColumns} from rm.academies where id = ${id} and not deleted`);
  if (!academy) return null;
  const courses = await db.any(sql.type(adminAcademyCourse)`
    select c.id, c.title, c.credit_points::float8 as "creditPoints", c.published, c.status
      from unnest(${sql.array(academy.courseIds, 'int4')}) with ordinality as s(id, n) join rm.courses c on c.id = s.id
     where c.status <> 'deleted' order by s.n`);
  return { ...academy, courses: [...courses], creditPoints: sumPoints(courses) };
};

export const listAdminAcademies = async (db: AcademyReadDb) =>
  db.any(sql.type(academyRow)`select ${academyColumns} from rm.academies where not deleted order by title, id`);

/**
 * A participant's academies: published ones with at least one course the participant may see. Only
 * those courses count, so series progress and credit points are what this participant can earn.
 */
const userAcademies = async (db: AcademyReadDb, userId: number, now: Date, academyId: number | null) => {
  const filter = academyId === null ? sql.fragment`true` : sql.fragment`id = ${academyId}`;
  const academies = await db.any(
    sql.type(academyRow)`select ${academyColumns} from rm.academies where published and not deleted and ${filter} order by title, id`,
  );
  if (academies.length === 0) return [];
  const courses = new Map((await listUserCourses(db, userId, {})).map((c) => [c.id, withStatus(c, now)]));
  return academies.flatMap((academy) => {
    const series = academy.courseIds.flatMap((id) => courses.get(id) ?? []);
    if (series.length === 0) return [];
    const completed = series.filter((c) => c.enrollment === 'completed');
    return [
      {
        ...academy,
        courses: series,
        coursesTotal: series.length,
        coursesCompleted: completed.length,
        creditPoints: sumPoints(series),
        creditPointsEarned: sumPoints(completed),
      },
    ];
  });
};

export const listUserAcademies = (db: AcademyReadDb, userId: number, now: Date) => userAcademies(db, userId, now, null);
export const getUserAcademy = async (db: AcademyReadDb, userId: number, now: Date, id: number) => (await userAcademies(db, userId, now, id))[0] ?? null;
