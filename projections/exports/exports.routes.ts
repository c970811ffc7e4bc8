import { z } from 'zod';
import { EXPORT_KINDS } from '../../domain/exports/export.rules.ts';
import { exportReach } from '../../domain/exports/export-access.ts';
import { errorResponses, type HttpApp, requireAuth } from '../../infrastructure/http/http.port.ts';
import { EXPORT_ROUTE_ACCESS, type ExportsDb, exportCompanyChoices, exportCourseChoices, exportFilterOf, exportItem, listExports } from './exports.queries.ts';

/**
 * The exports list (spec §2 /admin/exports, §3 Export record): createdAt, parameters, status with
 * progress, user, and whether a file is there to download; only the exports the caller may read
 * (decision 0026), newest first. The page polls it while an export is in queue or computing.
 */
export const registerExportReadRoutes = (app: HttpApp, deps: { db: ExportsDb }) => {
  app.get(
    '/api/exports',
    {
      config: { access: EXPORT_ROUTE_ACCESS, readModels: ['exports', 'users', 'courses', 'organisation'] },
      schema: {
        tags: ['exports'],
        summary: 'The exports the caller may read, newest first (at most 200)',
        response: { 200: z.object({ items: z.array(exportItem) }), ...errorResponses },
      },
    },
    async (request) => {
      const filter = await exportFilterOf(deps.db, exportReach(requireAuth(request).subject));
      return { items: [...(await listExports(deps.db, filter, { limit: 200 }))] };
    },
  );

  app.get(
    '/api/exports/options',
    {
      config: { access: EXPORT_ROUTE_ACCESS, readModels: ['courses', 'organisation'] },
      schema: {
        tags: ['exports'],
        summary: "What the caller may export and the choices of its parameters: courses, companies (all, or an accountant's own for costs)",
        response: {
          200: z.object({
            kinds: z.array(z.enum(EXPORT_KINDS)),
            courses: z.array(z.object({ id: z.number(), title: z.string(), intervals: z.array(z.object({ startsAt: z.string(), stopsAt: z.string() })) })),
            companies: z.array(z.object({ id: z.number(), name: z.string() })),
            costCompanies: z.array(z.object({ id: z.number(), name: z.string() })),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const filter = await exportFilterOf(deps.db, exportReach(requireAuth(request).subject));
      const kinds = EXPORT_KINDS.filter((kind) => filter.kinds.includes(kind) || (kind === 'costs' && filter.costCompanyIds.length > 0));
      const namesCourses = kinds.includes('participants') || kinds.includes('nps');
      const namesCompanies = kinds.includes('users') || kinds.includes('consents') || filter.kinds.includes('costs');
      const companies = namesCompanies ? [...(await exportCompanyChoices(deps.db, null))] : [];
      return {
        kinds,
        courses: namesCourses ? [...(await exportCourseChoices(deps.db))] : [],
        companies,
        costCompanies: filter.kinds.includes('costs') ? companies : [...(await exportCompanyChoices(deps.db, filter.costCompanyIds))],
      };
    },
  );
};
