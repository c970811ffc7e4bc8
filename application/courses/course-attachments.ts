import { DomainError } from '../../domain/shared/domain-error.ts';
import type { EventMetadata } from '../../infrastructure/event-store/event-store.port.ts';
import { ATTACHMENT_KINDS, COVER_KINDS, type FileKind, type FileStore, MAX_FILE_BYTES } from '../../infrastructure/files/file-store.port.ts';
import { changeCourse } from './author-courses.ts';
import type { CoursesDeps } from './courses.deps.ts';

const STORED_FILE = /^\/api\/files\/([1-9]\d{0,9})$/;

/**
 * A course's attachment (spec §3, §5): an uploaded file (checked by its content when uploaded)
 * that is jpg, png, gif, pdf or zip and at most 25 MB. Its name, kind and size are kept with the
 * course, so the course page lists them without reading the files.
 */
export const addAttachment = async (deps: CoursesDeps, files: FileStore, courseId: number, fileId: number, metadata: EventMetadata) => {
  const info = await files.describe(fileId);
  if (!info) throw new DomainError('400', 'Datoteka ne obstaja.', { status: 400, field: 'fileId' });
  if (!ATTACHMENT_KINDS.includes(info.contentType as FileKind))
    throw new DomainError('400', 'Priponka je lahko JPG, PNG, GIF, PDF ali ZIP.', { status: 400, field: 'fileId' });
  if (info.size > MAX_FILE_BYTES) throw new DomainError('400', 'Priponka je prevelika (največ 25 MB).', { status: 400, field: 'fileId' });
  const attachment = { fileId, name: info.name, contentType: info.contentType, size: info.size };
  return changeCourse(deps, courseId, { type: 'AddAttachment', attachment }, metadata);
};

/** A cover that is an uploaded file must be an image a browser shows: jpg or png (spec §5). A path or an https address is taken as it is. */
export const checkCover = async (files: FileStore, cover: string) => {
  const match = STORED_FILE.exec(cover);
  if (!match) return;
  const info = await files.describe(Number(match[1]));
  if (!info || !COVER_KINDS.includes(info.contentType as FileKind))
    throw new DomainError('400', 'Naslovna slika mora biti datoteka JPG ali PNG.', { status: 400, field: 'cover' });
};
