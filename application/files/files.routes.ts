import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { DomainError } from '../../domain/shared/domain-error.ts';
import { idParam } from '../../domain/shared/id.rules.ts';
import { FILE_KINDS, type FileKind, type FileStore, MAX_FILE_BYTES, type StoredFile } from '../../infrastructure/files/file-store.port.ts';
import { AUTHENTICATED, anyOf, errorResponses, type HttpApp, requireAuth } from '../../infrastructure/http/http.port.ts';
import { VIDEO_KINDS, type VideoHost, type VideoKind } from '../../infrastructure/video/video-host.port.ts';
import type { CourseReadDb } from '../../projections/courses/courses.queries.ts';
import type { ReadDb } from '../../projections/organisation/organisation.queries.ts';
import { FILE_AUTHORS, mayReadFile } from '../shared/file-access.ts';

const KINDS = Object.keys(FILE_KINDS) as FileKind[];
const VIDEOS = Object.keys(VIDEO_KINDS) as VideoKind[];

const notFound = () => new DomainError('404', 'Datoteka ne obstaja.', { status: 404 });
const safeName = (name: string) => name.replace(/[^\p{L}\p{N} ._-]/gu, '_');
const contentTypeOf = (request: FastifyRequest) => (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';

/**
 * A stored file, or the part of it a `Range: bytes=a-b` header asks for (206), so a video can be
 * played from any point. A range that cannot be served answers 416 with the file's size.
 */
const sendFile = (request: FastifyRequest, reply: FastifyReply, file: StoredFile) => {
  reply
    .header('Content-Type', file.contentType)
    .header('Content-Disposition', `inline; filename="${encodeURIComponent(file.name)}"`)
    .header('Cache-Control', 'private, max-age=31536000, immutable')
    .header('Accept-Ranges', 'bytes');
  const range = /^bytes=(\d*)-(\d*)$/.exec(String(request.headers.range ?? '').trim());
  if (!range || (range[1] === '' && range[2] === '')) return reply.send(file.bytes);
  const size = file.bytes.length;
  const start = range[1] === '' ? Math.max(0, size - Number(range[2])) : Number(range[1]);
  const end = range[1] === '' || range[2] === '' ? size - 1 : Math.min(Number(range[2]), size - 1);
  if (start > end || start >= size) {
    return reply
      .status(416)
      .header('Content-Range', `bytes */${size}`)
      .send({ errors: [{ code: '416', message: 'Zahtevani del datoteke ne obstaja.', field: null }] });
  }
  return reply
    .status(206)
    .header('Content-Range', `bytes ${start}-${end}/${size}`)
    .send(file.bytes.subarray(start, end + 1));
};

/**
 * Uploads for authors (a company's signature image, attachments): the body is the file itself with
 * its Content-Type, the name in `?name=`. Only PNG, JPEG, GIF, PDF and ZIP, recognised by their first bytes,
 * up to 25 MB (spec §9). Who edits companies (1011), courses (1019), blocks (1025) or news (1065) may
 * upload, and in a community who edits its courses (2006), blocks (1029) or a unit (2001, the unit's
 * certificate signature). Course videos (the "Vimeo upload" feature of spec §1) go to the video host.
 */
export const registerFileRoutes = (app: HttpApp, deps: { files: FileStore; db: ReadDb & CourseReadDb; videos: VideoHost; videoMaxBytes: number }) => {
  app.addContentTypeParser(KINDS, { parseAs: 'buffer', bodyLimit: MAX_FILE_BYTES }, (_request, body, done) => done(null, body));
  app.addContentTypeParser(VIDEOS, { parseAs: 'buffer', bodyLimit: deps.videoMaxBytes }, (_request, body, done) => done(null, body));
  const tags = ['files'];
  const nameQuery = z.object({ name: z.string().trim().min(1).max(200).default('datoteka') });

  app.post(
    '/api/files',
    {
      // Authors upload: the platform's (FILE_AUTHORS) and a community's (a client's course 2006 and blocks 1029), and who
      // updates a unit (2001): its certificate signature's image (issue 18 item 3, decision 0032).
      config: {
        access: anyOf([...FILE_AUTHORS.map((id) => ({ system: id })), { communityAnywhere: 2006 }, { communityAnywhere: 1029 }, { communityAnywhere: 2001 }]),
        uploads: true,
      },
      bodyLimit: MAX_FILE_BYTES,
      schema: {
        tags,
        summary: 'Upload a PNG, JPEG, GIF, PDF or ZIP file (raw body with its Content-Type; name in ?name=)',
        querystring: nameQuery,
        response: { 201: z.object({ id: z.number(), name: z.string(), contentType: z.string(), size: z.number() }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const contentType = contentTypeOf(request) as FileKind;
      const bytes = request.body;
      if (!KINDS.includes(contentType) || !Buffer.isBuffer(bytes)) {
        throw new DomainError('400', 'Dovoljene so le datoteke JPG, PNG, GIF, PDF in ZIP.', { status: 400, field: 'file' });
      }
      if (bytes.length === 0 || !FILE_KINDS[contentType](bytes)) {
        throw new DomainError('400', 'Vsebina datoteke ne ustreza njeni vrsti.', { status: 400, field: 'file' });
      }
      const name = safeName(request.query.name);
      const { id } = await deps.files.put({ name, contentType, bytes, createdBy: requireAuth(request).userId });
      return reply.status(201).send({ id, name, contentType, size: bytes.length });
    },
  );

  app.post(
    '/api/videos',
    {
      config: {
        access: anyOf([{ system: 1024 }, { system: 1025 }, { communityAnywhere: 1028 }, { communityAnywhere: 1029 }]),
        feature: 'vimeoUpload',
        uploads: true,
      },
      bodyLimit: deps.videoMaxBytes,
      schema: {
        tags,
        summary: 'Upload a course video (MP4, MOV or WebM; raw body with its Content-Type; only with the Vimeo-upload feature, 1024 or 1025)',
        querystring: nameQuery,
        response: {
          201: z.object({ vimeoId: z.string().nullable(), fileUrl: z.string().nullable(), name: z.string(), size: z.number() }),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const contentType = contentTypeOf(request) as VideoKind;
      const bytes = request.body;
      if (!VIDEOS.includes(contentType) || !Buffer.isBuffer(bytes)) {
        throw new DomainError('400', 'Dovoljeni so le videi MP4, MOV in WebM.', { status: 400, field: 'file' });
      }
      if (bytes.length < 12 || !VIDEO_KINDS[contentType](bytes)) throw new DomainError('400', 'Vsebina datoteke ni video.', { status: 400, field: 'file' });
      const name = safeName(request.query.name);
      const uploaded = await deps.videos.upload({ name, contentType, bytes, createdBy: requireAuth(request).userId });
      return reply.status(201).send({ ...uploaded, name, size: bytes.length });
    },
  );

  app.get(
    '/api/files/:id',
    {
      config: { access: AUTHENTICATED, mediaCookie: true },
      schema: {
        tags,
        summary:
          'A stored file, to those who may see what it belongs to (Range requests answered with 206); the session may come from the media cookie, for <img> and <video>',
        params: z.object({ id: idParam }),
      },
    },
    async (request, reply) => {
      const info = await deps.files.describe(request.params.id);
      if (!info || !(await mayReadFile(deps, requireAuth(request).subject, info))) throw notFound();
      const file = await deps.files.get(info.id);
      if (!file) throw notFound();
      return sendFile(request, reply, file);
    },
  );
};
