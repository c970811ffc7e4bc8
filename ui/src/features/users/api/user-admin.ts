import { queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import type { changeRequestRule, createUserRule, resolveChangeRequestRule } from '../../../../../domain/users/user-admin.rules.ts';
import { api } from '../../../lib/api-client.ts';
import { downloadFile } from '../../../lib/download.ts';

/** The admins' and managers' users API (issue 14). */
export type UserStatus = 'active' | 'inactive' | 'deleted';
export type RoleSummary = { roleId: number; unitId: number; unitName: string | null; companyId: number | null; companyName: string | null };

export type UserListItem = {
  id: number;
  username: string;
  email: string;
  fullName: string;
  professionName: string | null;
  licenceNumber: string | null;
  chamberMembershipNumber: string | null;
  status: UserStatus;
  roles: RoleSummary[];
  registeredAt: string;
  lastLoginAt: string | null;
  deletionRequested: boolean;
  openChangeRequests: number;
};

export type UserFilters = {
  search: string;
  roleId: number | null;
  companyId: number | null;
  unitId: number | null;
  groupId: number | null;
  professionId: number | null;
  status: UserStatus | null;
};

export type UserListQuery = UserFilters & { sort: string; order: 'asc' | 'desc'; page: number; pageSize: number };

export type ChangeRequest = {
  id: string;
  userId: number;
  userName: string;
  requestedBy: number;
  requestedByName: string | null;
  kind: 'unit' | 'deletion' | 'other';
  description: string;
  unitId: number | null;
  unitName: string | null;
  status: 'open' | 'accepted' | 'rejected';
  reason: string | null;
  requestedAt: string;
  resolvedAt: string | null;
};

export type UserDetail = {
  id: number;
  username: string;
  email: string;
  secondaryEmail: string | null;
  firstName: string;
  middleName: string | null;
  lastName: string;
  fullName: string;
  phone: string | null;
  professionId: number | null;
  professionName: string | null;
  otherJob: string | null;
  licenceNumber: string | null;
  chamberMembershipNumber: string | null;
  notes: string | null;
  onesignalEnabled: number;
  status: UserStatus;
  origin: string;
  emailConfirmed: boolean;
  secondFactorEnabled: boolean;
  registeredAt: string;
  lastLoginAt: string | null;
  deletionRequestedAt: string | null;
  /** The person was erased for good (decision 0019): nothing more can be done with the account. */
  erased: boolean;
  deletionReason: string | null;
  socialIdentities: { platform: string; email: string | null }[];
  roles: RoleSummary[];
  systemAbilities: { systemPermission: number }[];
  courses: { courseId: number; title: string; status: string; startedAt: string; completedAt: string | null; creditPoints: number | null }[];
  changeRequests: ChangeRequest[];
};

export type UserInput = z.input<typeof createUserRule>;

/** Only the filters set, as the API's query. */
const toQuery = (query: UserListQuery) =>
  Object.fromEntries(Object.entries(query).filter(([, v]) => v !== null && v !== '' && v !== undefined)) as Record<string, string | number>;

export const listUsers = (scope: 'admin' | 'manager', query: UserListQuery) =>
  api<{ items: UserListItem[]; total: number }>('GET', scope === 'admin' ? '/users' : '/manager/users', { query: toQuery(query) });
export const getUser = (scope: 'admin' | 'manager', id: number) => api<UserDetail>('GET', scope === 'admin' ? `/users/${id}` : `/manager/users/${id}`);
export const createUser = (input: UserInput) => api<{ id: number }>('POST', '/users', { body: input });
export const updateUser = (id: number, input: Omit<UserInput, 'sendWelcome'>) => api<{ id: number }>('PUT', `/users/${id}`, { body: input });

export type LifecycleAction = 'activate' | 'deactivate' | 'delete' | 'reactivate';
export const changeLifecycle = (id: number, action: LifecycleAction) =>
  action === 'delete' ? api<{ id: number }>('DELETE', `/users/${id}`) : api<{ id: number }>('POST', `/users/${id}/${action}`);
export const changeLifecycleInBulk = (userIds: number[], active: boolean) =>
  api<{ changed: number; failed: { id: number; message: string }[] }>('POST', '/users/bulk-status', { body: { userIds, active } });
/** A user's consents as they stand (the audit route of decision 0013; the admin holds 1070). */
export type ConsentStanding = { type: number; title: string; given: boolean; textVersion: string | null; at: string | null };
export const getConsentStanding = (userId: number) => api<{ standing: ConsentStanding[] }>('GET', `/users/${userId}/consents/history`).then((r) => r.standing);
/** Erases the person for good (1007, decision 0019). */
export const erasePersonalData = (id: number) => api<{ id: number; mailForgotten: number }>('DELETE', `/users/${id}/personal-data`);
export const sendWelcome = (id: number) => api<{ id: number }>('POST', `/users/${id}/welcome`);

export const fileChangeRequest = (userId: number, input: z.input<typeof changeRequestRule>) =>
  api<{ id: string }>('POST', `/users/${userId}/change-requests`, { body: input });
export const listChangeRequests = (status?: 'open') => api<{ items: ChangeRequest[] }>('GET', '/users/change-requests', status ? { query: { status } } : {});
export const listMyChangeRequests = () => api<{ items: ChangeRequest[] }>('GET', '/manager/change-requests');
export const resolveChangeRequest = (id: string, input: z.input<typeof resolveChangeRequestRule>) =>
  api<{ id: string }>('POST', `/users/change-requests/${id}/resolve`, { body: input });

export type UnitOption = { id: number; name: string; company_id: number; company_name: string | null };
/** spec §7 GET /units with limit=NO_LIMIT: every unit the caller may see, with its company. */
export const unitsQuery = queryOptions({
  queryKey: ['units', 'all'],
  queryFn: ({ signal }) => api<{ items: UnitOption[] }>('GET', '/units', { query: { limit: 'NO_LIMIT' }, signal }).then((r) => r.items),
  staleTime: 60_000,
});

const allPages = async <T>(path: string, signal: AbortSignal) => {
  const all: T[] = [];
  for (let page = 1; ; page++) {
    const result = await api<{ items: T[]; total: number }>('GET', path, { query: { page, pageSize: 100, sort: 'name' }, signal });
    all.push(...result.items);
    if (result.items.length < 100 || all.length >= result.total) return all;
  }
};

export const companiesQuery = queryOptions({
  queryKey: ['companies', 'all'],
  queryFn: ({ signal }) => allPages<{ id: number; name: string }>('/companies', signal),
  staleTime: 60_000,
});

export const groupsQuery = queryOptions({
  queryKey: ['community-groups', 'all'],
  queryFn: ({ signal }) => allPages<{ id: number; name: string }>('/community-groups', signal),
  staleTime: 60_000,
});

/** One-time login links for the chosen users as an xlsx file (1066). */
export const exportLoginLinks = (userIds: number[]) => downloadFile('/api/users/login-tokens/export', 'povezave-za-prijavo.xlsx', { body: { userIds } });
