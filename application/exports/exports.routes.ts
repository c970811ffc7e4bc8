import { z } from 'zod';
import { exportFileName, exportRequestRule } from '../../domain/exports/export.rules.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import { idParam } from '../../domain/shared/id.rules.ts';
import type { FileStore } from '../../infrastructure/files/file-store.port.ts';
import { commandMetadata, errorResponses, type HttpApp, requireAuth, withPosition } from '../../infrastructure/http/http.port.ts';
import { EXPORT_ROUTE_ACCESS } from '../../projections/exports/exports.queries.ts';
import { XLSX_TYPE } from './export.job.ts';
import { type ExportsDeps, readableExport, requestExport } from './exports.ts';

const tags = ['exports'];
const READ_MODELS = ['exports', 'users', 'courses', 'organisation', 'stats'] as const;

/**
 * Exports (spec §2 /admin/exports; issue 17 item 2; decision 0026): ask for one (all parameters
 * required, spec §5/§8) and download its file. The route lets in whoever reaches some kind; the
 * slice decides the kind (403) and the company of an accountant's costs (404 outside it).
 */
export const registerExportRoutes = (app: HttpApp, deps: ExportsDeps & { readonly files: FileStore }) => {
  const config = { access: EXPORT_ROUTE_ACCESS, readModels: READ_MODELS } as const;

  app.post(
    '/api/exports',
    {
      config: { ...config, expensive: 'export' },
      schema: {
        tags,
        summary:
          'Ask for an export (users 1004, course participants 1017, NPS answers 1056, costs 1052 or 2009 in the company, consents 1070); it is computed by a job (initiated, computing, finished, error)',
        body: exportRequestRule,
        response: { 202: z.object({ id: z.number() }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const result = await requestExport(deps, requireAuth(request).subject, request.body, commandMetadata(request));
      return withPosition(reply, result.position).status(202).send({ id: result.id });
    },
  );

  app.get(
    '/api/exports/:id/file',
    {
      config,
      schema: {
        tags,
        summary: "An export's xlsx file, for whoever may read that export (404 for anyone else, and while it has no file)",
        params: z.object({ id: idParam }),
      },
    },
    async (request, reply) => {
      const found = await readableExport(deps.db, requireAuth(request).subject, request.params.id);
      if (found.status === 'error') throw new DomainError('409', 'Izvoz ni uspel, zato nima datoteke.', { status: 409 });
      if (found.status !== 'finished') throw new DomainError('409', 'Izvoz še ni končan.', { status: 409 });
      const file = found.fileAvailable && found.fileId !== null ? await deps.files.get(found.fileId) : null;
      if (!file) throw new DomainError('404', 'Datoteka izvoza ni več na voljo.', { status: 404 });
      return reply
        .header('content-type', XLSX_TYPE)
        .header('content-disposition', `attachment; filename="${exportFileName(found.id, found.kind)}"`)
        .header('cache-control', 'no-store')
        .send(file.bytes);
    },
  );
};
