import { z } from 'zod';
import { ROW_OUTCOMES } from '../../domain/imports/user-import.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import { idParam } from '../../domain/shared/id.rules.ts';
import { errorResponses, type HttpApp, system } from '../../infrastructure/http/http.port.ts';
import { getImport, type ImportReadDb, importDetail, importListItem, importRowItem, listImportRows, listImports } from './imports.queries.ts';

const tags = ['imports'];
const readModels = ['imports', 'users'] as const;
const page = z.coerce.number().int().min(1).max(100_000).default(1);
const pageSize = z.coerce.number().int().min(1).max(100).default(20);

/** The imports page (issue 17 item 1): the list, one import with its precheck and progress (polled), and its rows' outcomes. 1005. */
export const registerImportReadRoutes = (app: HttpApp, deps: { db: ImportReadDb }) => {
  app.get(
    '/api/imports',
    {
      config: { access: system(1005), readModels },
      schema: {
        tags,
        summary: 'Users imports, newest first: who, when, file, rows, status and counts (1005)',
        querystring: z.object({ page, pageSize }),
        response: { 200: z.object({ items: z.array(importListItem), total: z.number() }), ...errorResponses },
      },
    },
    async (request) => listImports(deps.db, request.query.page, request.query.pageSize),
  );

  app.get(
    '/api/imports/:id',
    {
      config: { access: system(1005), readModels },
      schema: {
        tags,
        summary: "One import: its precheck's problems by row and column, its progress and counts (1005)",
        params: z.object({ id: idParam }),
        response: { 200: importDetail, ...errorResponses },
      },
    },
    async (request) => {
      const found = await getImport(deps.db, request.params.id);
      if (!found) throw new DomainError('404', 'Uvoz ne obstaja.', { status: 404 });
      return found;
    },
  );

  app.get(
    '/api/imports/:id/rows',
    {
      config: { access: system(1005), readModels },
      schema: {
        tags,
        summary: 'What became of each row of an import (created, updated, skipped, failed), in sheet order (1005)',
        params: z.object({ id: idParam }),
        querystring: z.object({ outcome: z.enum(ROW_OUTCOMES).optional(), page, pageSize }),
        response: { 200: z.object({ items: z.array(importRowItem), total: z.number() }), ...errorResponses },
      },
    },
    async (request) => listImportRows(deps.db, request.params.id, request.query),
  );
};
