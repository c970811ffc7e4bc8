import type { z } from 'zod';
import type { courseRule } from '../../../../../domain/courses/course.rules.ts';
import type { ListQuery } from '../../../components/data-table.tsx';
import { api } from '../../../lib/api-client.ts';

/** What spec §4 flags a course for when it lacks it (the list's badges). */
export type PublishingGap = 'notifications' | 'nps' | 'participants' | 'quiz' | 'tags' | 'video';
export type AdminCourseStatus = 'active' | 'reserved' | 'expired' | 'archived' | 'deleted';
export const ADMIN_COURSE_STATUSES: AdminCourseStatus[] = ['active', 'reserved', 'expired', 'archived', 'deleted'];

export type AdminCourseListItem = {
  id: number;
  title: string;
  type: number;
  published: boolean;
  status: AdminCourseStatus;
  creditPoints: number;
  blocksCount: number;
  enrolled: number;
  updatedAt: string;
  gaps: PublishingGap[];
  /** Approval before publishing (issue 36): the newest version's state; `none` nothing submitted; null where approval does not apply. */
  approval: AdminCourseApproval | null;
};
export type AdminCourseApproval = 'none' | 'pending' | 'approved' | 'rejected' | 'withdrawn';

export type AdminCourseFilters = {
  type: number | null;
  status: AdminCourseStatus | null;
  published: boolean | null;
  academyId: number | null;
  tagId: number | null;
};

/** GET /api/courses (1017): a page of courses, filtered on the server. */
export const listAdminCourses = (query: ListQuery, filters: AdminCourseFilters) =>
  api<{ items: AdminCourseListItem[]; total: number }>('GET', '/courses', {
    query: {
      ...query,
      ...(filters.type !== null ? { type: filters.type } : {}),
      ...(filters.status !== null ? { status: filters.status } : {}),
      ...(filters.published !== null ? { published: String(filters.published) } : {}),
      ...(filters.academyId !== null ? { academyId: filters.academyId } : {}),
      ...(filters.tagId !== null ? { tagId: filters.tagId } : {}),
    },
  });

export type CourseAction = 'publish' | 'unpublish' | 'archive' | 'restore' | 'delete';
export const changeCourse = (id: number, action: CourseAction) =>
  action === 'delete' ? api<{ id: number }>('DELETE', `/courses/${id}`) : api<{ id: number }>('POST', `/courses/${id}/${action}`);

/** A copy to edit further: fields, audience and blocks, unpublished (1018). */
export const duplicateCourse = (id: number) => api<{ id: number }>('POST', `/courses/${id}/duplicate`);

export const listAcademyOptions = () => api<{ items: { id: number; title: string }[] }>('GET', '/academies').then((r) => r.items);

export type CourseInput = z.input<typeof courseRule>;
/** spec §7 GET /courses/{id} (admin or editor): the course as authored. */
export type CourseAttachment = { fileId: number; name: string; contentType: string; size: number };
export type AuthoredCourse = {
  id: number;
  published: boolean;
  status: string;
  fields: CourseInput;
  blocks: { id: number; kind: string; name: string }[];
  attachments: CourseAttachment[];
};
export const getAuthoredCourse = (id: number) => api<AuthoredCourse>('GET', `/courses/${id}`);
export const createCourse = (input: CourseInput) => api<{ id: number }>('POST', '/courses', { body: input });
export const updateCourse = (id: number, input: CourseInput) => api<{ id: number }>('PUT', `/courses/${id}`, { body: input });
/** Other courses to pick as prerequisites: the first 100 by title. */
export const listCourseOptions = () =>
  api<{ items: AdminCourseListItem[] }>('GET', '/courses', { query: { sort: 'title', order: 'asc', pageSize: 100 } }).then((r) => r.items);

/** Course tags to choose from (kind "course"), the first hundred by name. */
export const listCourseTagOptions = () =>
  api<{ items: { id: number; name: string }[] }>('GET', '/tags', { query: { kind: 'course', sort: 'name', order: 'asc', pageSize: 100 } }).then((r) => r.items);

/** Offer an uploaded file with the course (1019); the server checks its kind and size. */
export const addCourseAttachment = (courseId: number, fileId: number) => api<{ id: number }>('POST', `/courses/${courseId}/attachments`, { body: { fileId } });
export const removeCourseAttachment = (courseId: number, fileId: number) => api<{ id: number }>('DELETE', `/courses/${courseId}/attachments/${fileId}`);

export type CourseNotification = {
  id: string;
  kind: 'manual' | 'reminder' | 'new-course';
  subject: string;
  requestedAt: string;
  requestedBy: string | null;
  sent: number;
  failed: number;
  skipped: number;
  skippedFor: Record<string, number>;
  /** The same by push (issue 16 item 4). */
  push: { sent: number; failed: number; skipped: number; skippedFor: Record<string, number> };
};
/** A course's notifications with what became of their messages (issue 16). */
export const listCourseNotifications = (courseId: number) =>
  api<{ items: CourseNotification[] }>('GET', `/courses/${courseId}/notifications`).then((r) => r.items);
/** A manual notification to the course's audience; refused within 10 minutes of the last (spec §8). */
export const sendCourseNotification = (courseId: number, input: { subject: string; message: string }) =>
  api<{ id: number }>('POST', `/courses/${courseId}/notifications`, { body: input });
