import { z } from 'zod';
import { COURSE_READERS } from '../../domain/courses/course-access.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import { idParam } from '../../domain/shared/id.rules.ts';
import { anyOf, errorResponses, type HttpApp, requireAuth, system } from '../../infrastructure/http/http.port.ts';
import { type AcademyReadDb, adminAcademy, getAdminAcademy, getUserAcademy, listAdminAcademies, listUserAcademies } from './academies.queries.ts';
import { userCourse } from './user-course-status.ts';

const READ_MODELS = ['academies', 'courses', 'users', 'organisation'] as const;
const idParams = z.object({ id: idParam });
const notFound = () => new DomainError('404', 'Akademija ne obstaja.', { status: 404 });

const userAcademy = z.object({
  id: z.number(),
  title: z.string(),
  description: z.string(),
  cover: z.string(),
  courses: z.array(userCourse),
  coursesTotal: z.number(),
  coursesCompleted: z.number(),
  creditPoints: z.number(),
  creditPointsEarned: z.number(),
});

/** spec §7 GET /academies/{id} (admin, system course read 1017) and GET /user-academies/{id}, with the lists. */
export const registerAcademyReadRoutes = (app: HttpApp, deps: { db: AcademyReadDb; now: () => Date }) => {
  const { db } = deps;
  const tags = ['academies'];
  const config = { readModels: READ_MODELS };

  app.get(
    '/api/academies',
    {
      config: { ...config, access: system(1017) },
      schema: { tags, response: { 200: z.object({ items: z.array(adminAcademy.omit({ courses: true, creditPoints: true })) }), ...errorResponses } },
    },
    async () => ({ items: [...(await listAdminAcademies(db))] }),
  );
  app.get(
    '/api/academies/:id',
    { config: { ...config, access: system(1017) }, schema: { tags, params: idParams, response: { 200: adminAcademy, ...errorResponses } } },
    async (request) => (await getAdminAcademy(db, request.params.id)) ?? Promise.reject(notFound()),
  );
  app.get(
    '/api/user-academies',
    {
      config: { ...config, access: anyOf(COURSE_READERS) },
      schema: {
        tags,
        summary: "The caller's academies (powerclass) with series progress and credit points",
        response: { 200: z.object({ items: z.array(userAcademy) }), ...errorResponses },
      },
    },
    async (request) => ({ items: await listUserAcademies(db, requireAuth(request).userId, deps.now()) }),
  );
  app.get(
    '/api/user-academies/:id',
    {
      config: { ...config, access: anyOf(COURSE_READERS) },
      schema: {
        tags,
        summary: 'An academy the caller may see, with their progress through its courses',
        params: idParams,
        response: { 200: userAcademy, ...errorResponses },
      },
    },
    async (request) => {
      const academy = await getUserAcademy(db, requireAuth(request).userId, deps.now(), request.params.id);
      if (!academy) throw notFound();
      return academy;
    },
  );
};
