import { isExportFileName } from '../../domain/exports/export.rules.ts';
import { can, type Subject } from '../../domain/permissions/can.ts';
import type { FileInfo } from '../../infrastructure/files/file-store.port.ts';
import { isNamedApproverOf } from '../../projections/courses/course-approvals.queries.ts';
import { type CourseReadDb, coursesUsingFile } from '../../projections/courses/courses.queries.ts';
import { isCourseVisible } from '../../projections/courses/user-courses.queries.ts';
import { isExportFile } from '../../projections/exports/exports.queries.ts';
import { readsNewsWithFile } from '../../projections/news/news.queries.ts';
import { readsNewsletterWithFile } from '../../projections/newsletters/newsletters.queries.ts';
import { companiesSigningWith, type ReadDb } from '../../projections/organisation/organisation.queries.ts';

/** Who edits companies (1011), courses (1019), blocks (1025) or news (1065) uploads files and may read any. */
export const FILE_AUTHORS = [1011, 1019, 1025, 1065] as const;

/**
 * A stored file is served to those who may see what it belongs to (decision 0016), never by id
 * alone: its uploader; authors (FILE_AUTHORS); for a company's certificate signature, whoever reads
 * that company (system 1009, or community 2000 in it); for a course's video or text file, those the
 * course is for; for a newsletter's uploaded cover, the readers of the published issue. A
 * participant's certificate embeds the signature on the server, so participants need no direct
 * access to it. Everyone else gets 404, as if the file did not exist. An export's file is never
 * served here, not even to authors.
 */
export const mayReadFile = async (deps: { db: ReadDb & CourseReadDb }, subject: Subject, file: FileInfo): Promise<boolean> => {
  // An export's file goes only through its export's download, to those who may read that export (decision 0026);
  // by its name too, for the moment before the exports read model has it.
  if ((file.createdBy === null && isExportFileName(file.name)) || (await isExportFile(deps.db, file.id))) return false;
  if (file.createdBy !== null && file.createdBy === subject.userId) return true;
  if (FILE_AUTHORS.some((id) => can(subject, id, { kind: 'system' }))) return true;
  const companies = await companiesSigningWith(deps.db, file.id);
  if (companies.length > 0 && can(subject, 1009, { kind: 'system' })) return true;
  if (companies.some((companyId) => can(subject, 2000, { kind: 'community', companyId }))) return true;
  for (const courseId of await coursesUsingFile(deps.db, file.id)) {
    if (can(subject, 1017, { kind: 'system' }) || (await isCourseVisible(deps.db, subject.userId, courseId))) return true;
    // Approval (decision 0063): the approvers the course's scope names review its content before anyone sees it.
    if (can(subject, 1071, { kind: 'system' }) && (await isNamedApproverOf(deps.db, subject.userId, courseId))) return true;
  }
  if (await readsNewsletterWithFile(deps.db, subject.userId, file.id)) return true;
  // A news item's uploaded image, for the readers the item is meant for (issue 16).
  if (await readsNewsWithFile(deps.db, subject.userId, file.id)) return true;
  return false;
};
