import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export type RoleEntry = { role_id: number; unit_id: number; unit_name: string | null; company_id: number | null; company_name: string | null };

export type CurrentUser = {
  id: number;
  username: string;
  email: string;
  firstName: string;
  middleName: string | null;
  lastName: string;
  fullName: string;
  phone: string | null;
  profession: { id: number; name: string } | null;
  userRoles: RoleEntry[];
  systemAbilities: { systemPermission: number }[];
  /** Consents held now (spec §3), and the required types missing for the current texts. */
  consents: { type: number; textVersion: string; givenAt: string }[];
  missingConsents: number[];
  roles: { id: number; name: string; unit_id: number; unit_name: string | null; company_id: number | null; company_name: string | null }[];
};

export const meQuery = queryOptions({
  queryKey: ['users', 'me'],
  queryFn: ({ signal }) => api<CurrentUser>('GET', '/users/me', { signal }),
  staleTime: 60_000,
});

export const useMe = () => useQuery(meQuery);
