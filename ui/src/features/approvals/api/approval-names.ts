import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { APPROVALS_KEY } from './approvals.ts';

type Named = { id: number; name: string };

/** The names of what a submitted version names (its audience, prerequisites, tags), for its review (issue 36). */
export type VersionNames = {
  professions: (Named & { mayPrescribe: boolean })[];
  units: (Named & { companyName: string | null })[];
  companies: Named[];
  groups: Named[];
  professionGroups: Named[];
  courses: Named[];
  tags: Named[];
};

export const approvalNamesQuery = (courseId: number, approvalVersion: number) =>
  queryOptions({
    queryKey: [...APPROVALS_KEY, 'names', courseId, approvalVersion],
    queryFn: () => api<VersionNames>('GET', `/courses/${courseId}/approval/versions/${approvalVersion}/names`),
    staleTime: 60_000,
    retry: false,
  });
