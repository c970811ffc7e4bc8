import type { AcademyFields } from '../../../../../domain/courses/academy.rules.ts';
import { api } from '../../../lib/api-client.ts';

/** A course of an academy as authored: its title, credit points and state, in the series' order. */
export type AdminAcademyCourse = { id: number; title: string; creditPoints: number; published: boolean; status: string };

/** spec §7 GET /academies/{id} (1017): the academy as authored, with its courses and their total credit points. */
export type AdminAcademy = AcademyFields & { id: number; published: boolean; updatedAt: string; courses: AdminAcademyCourse[]; creditPoints: number };
export type AdminAcademyListItem = Omit<AdminAcademy, 'courses' | 'creditPoints'>;

export const listAdminAcademies = () => api<{ items: AdminAcademyListItem[] }>('GET', '/academies').then((r) => r.items);
export const getAdminAcademy = (id: number) => api<AdminAcademy>('GET', `/academies/${id}`);
export const createAcademy = (input: AcademyFields) => api<{ id: number }>('POST', '/academies', { body: input });
export const updateAcademy = (id: number, input: AcademyFields) => api<{ id: number }>('PUT', `/academies/${id}`, { body: input });

export type AcademyAction = 'publish' | 'unpublish' | 'delete';
export const changeAcademy = (id: number, action: AcademyAction) =>
  action === 'delete' ? api<{ id: number }>('DELETE', `/academies/${id}`) : api<{ id: number }>('POST', `/academies/${id}/${action}`);
