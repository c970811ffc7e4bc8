import { z } from 'zod';
import { DomainError } from '../../domain/shared/domain-error.ts';
import { idParam } from '../../domain/shared/id.rules.ts';
import { FILE_KINDS, type FileKind, type FileStore, MAX_FILE_BYTES } from '../../infrastructure/files/file-store.port.ts';
import { AUTHENTICATED, errorResponses, type HttpApp, requireAuth, system } from '../../infrastructure/http/http.port.ts';
import type { ReadDb } from '../../projections/organisation/organisation.queries.ts';
import { FILE_AUTHORS, mayReadFile } from './file-access.ts';

const KINDS = Object.keys(FILE_KINDS) as FileKind[];

/**
 * Uploads for authors (a company's signature image, attachments): the body is the file itself with
 * its Content-Type, the name in `?name=`. Only PNG, JPEG and PDF, recognised by their first bytes,
 * up to 25 MB (spec §9). Who edits companies (1011), courses (1019), blocks (1025) or news (1065) may upload.
 */
const notFound = () => new DomainError('404', 'Datoteka ne obstaja.', { status: 404 });

export const registerFileRoutes = (app: HttpApp, deps: { files: FileStore; db: ReadDb }) => {
  app.addContentTypeParser(KINDS, { parseAs: 'buffer', bodyLimit: MAX_FILE_BYTES }, (_request, body, done) => done(null, body));
  const tags = ['files'];

  app.post(
    '/api/files',
    {
      config: { access: system(...FILE_AUTHORS) },
      bodyLimit: MAX_FILE_BYTES,
      schema: {
        tags,
        summary: 'Upload a PNG, JPEG or PDF file (raw body with its Content-Type; name in ?name=)',
        querystring: z.object({ name: z.string().trim().min(1).max(200).default('datoteka') }),
        response: { 201: z.object({ id: z.number(), name: z.string(), contentType: z.string(), size: z.number() }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const contentType = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() as FileKind;
      const bytes = request.body;
      if (!KINDS.includes(contentType) || !Buffer.isBuffer(bytes)) {
        throw new DomainError('400', 'Dovoljene so le datoteke PNG, JPEG in PDF.', { status: 400, field: 'file' });
      }
      if (bytes.length === 0 || !FILE_KINDS[contentType](bytes)) {
        throw new DomainError('400', 'Vsebina datoteke ne ustreza njeni vrsti.', { status: 400, field: 'file' });
      }
      const name = request.query.name.replace(/[^\p{L}\p{N} ._-]/gu, '_');
      const { id } = await deps.files.put({ name, contentType, bytes, createdBy: requireAuth(request).userId });
      return reply.status(201).send({ id, name, contentType, size: bytes.length });
    },
  );

  app.get(
    '/api/files/:id',
    { config: { access: AUTHENTICATED }, schema: { tags, summary: 'A stored file', params: z.object({ id: idParam }) } },
    async (request, reply) => {
      const info = await deps.files.describe(request.params.id);
      if (!info || !(await mayReadFile(deps, requireAuth(request).subject, info))) throw notFound();
      const file = await deps.files.get(info.id);
      if (!file) throw notFound();
      return reply
        .header('Content-Type', file.contentType)
        .header('Content-Disposition', `inline; filename="${encodeURIComponent(file.name)}"`)
        .header('Cache-Control', 'private, max-age=31536000, immutable')
        .send(file.bytes);
    },
  );
};
