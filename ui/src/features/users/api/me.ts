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
  /** With what the profession asks of its members (spec §5 licence and chamber membership numbers). */
  profession: { id: number; name: string; needsLicenceNumber: boolean; needsChamberNumber: boolean } | null;
  secondaryEmail: string | null;
  otherJob: string | null;
  licenceNumber: string | null;
  chamberMembershipNumber: string | null;
  /** spec §3: the push preference; 0 off. */
  onesignalEnabled: number;
  secondFactorEnabled: boolean;
  socialIdentities: { platform: string; email: string | null }[];
  deletionRequestedAt: string | null;
  /** The admin acting for this user during "log in as", or null. */
  realUser: { id: number; fullName: string } | null;
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
