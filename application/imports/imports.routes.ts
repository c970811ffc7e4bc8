import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { IMPORT_MAX_BYTES, importProblemRule, startImportRule } from '../../domain/imports/user-import.rules.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import { idParam } from '../../domain/shared/id.rules.ts';
import type { AllPosition } from '../../infrastructure/event-store/event-store.port.ts';
import { commandMetadata, errorResponses, type HttpApp, requireAuth, system, withPosition } from '../../infrastructure/http/http.port.ts';
import type { ImportDeps } from './imports.deps.ts';
import { importTemplate, startImport, uploadImport, WORKBOOK_TYPES } from './user-import.ts';

const tags = ['imports'];
/** A browser sends an xlsx or xls with its type, or none it knows (octet-stream); the content decides either way. */
const UPLOAD_TYPES = [...Object.values(WORKBOOK_TYPES), 'application/octet-stream'];
const safeName = (name: string) => name.replace(/[^\p{L}\p{N} ._-]/gu, '_');
const send = (reply: FastifyReply, status: number, body: object, position: AllPosition | null) => withPosition(reply, position).status(status).send(body);

const uploadResponse = z.object({
  id: z.number(),
  rows: z.number(),
  status: z.enum(['blocked', 'ready']),
  problemCount: z.number(),
  problems: z.array(importProblemRule),
  existing: z.number(),
});

/** Users imports (issue 17 item 1): upload with precheck, start, template. Everything here is system user create (1005). */
export const registerImportRoutes = async (app: HttpApp, deps: ImportDeps) => {
  // Spreadsheet bodies are parsed as bytes in this scope only.
  await app.register(async (plugin) => {
    const scope = plugin as unknown as HttpApp;
    scope.addContentTypeParser(UPLOAD_TYPES, { parseAs: 'buffer', bodyLimit: IMPORT_MAX_BYTES }, (_request, body, done) => done(null, body));
    scope.post(
      '/api/imports',
      {
        config: { access: system(1005), uploads: true, readModels: ['organisation', 'users'] },
        bodyLimit: IMPORT_MAX_BYTES,
        schema: {
          tags,
          summary:
            'Upload an xlsx or xls of users (raw body; name in ?name=), recognised by its content, up to 10 MB, and precheck every row and column (1005); nothing is written to users',
          querystring: z.object({ name: z.string().trim().min(1).max(200).default('uvoz.xlsx') }),
          response: { 201: uploadResponse, 413: errorResponses[400], ...errorResponses },
        },
      },
      async (request, reply) => {
        const bytes = request.body;
        if (!Buffer.isBuffer(bytes) || bytes.length === 0) {
          throw new DomainError('400', 'Izberite datoteko xlsx ali xls.', { status: 400, field: 'file' });
        }
        const { position, ...result } = await uploadImport(
          deps,
          { bytes, fileName: safeName(request.query.name), actorId: requireAuth(request).userId },
          commandMetadata(request),
        );
        return send(reply, 201, result, position);
      },
    );
  });

  app.post(
    '/api/imports/:id/start',
    {
      config: { access: system(1005) },
      bodyLimit: 4096,
      schema: {
        tags,
        summary: 'Start a prechecked import as a background job (1005); refused while the precheck found problems (spec §8)',
        params: z.object({ id: idParam }),
        body: startImportRule,
        response: { 202: z.object({ id: z.number(), status: z.string() }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const result = await startImport(deps, request.params.id, request.body.sendWelcome, commandMetadata(request));
      return send(reply, 202, { id: result.id, status: result.status }, result.position);
    },
  );

  app.get(
    '/api/imports/template',
    {
      config: { access: system(1005) },
      schema: { tags, summary: 'The import template: an xlsx with the Slovenian column headers (1005)' },
    },
    async (_request, reply) =>
      reply
        .header('content-type', WORKBOOK_TYPES.xlsx)
        .header('content-disposition', 'attachment; filename="predloga-uvoza-uporabnikov.xlsx"')
        .header('cache-control', 'no-store')
        .send(await importTemplate(deps)),
  );
};
