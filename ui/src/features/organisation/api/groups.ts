import type { z } from 'zod';
import type { communityGroupRule, professionGroupRule, professionRule } from '../../../../../domain/organisation/organisation.rules.ts';
import type { ListQuery } from '../../../components/data-table.tsx';
import { api } from '../../../lib/api-client.ts';

export type CommunityGroup = { id: number; name: string; units: { id: number; name: string; company_name: string | null }[] };
export type Profession = {
  id: number;
  name: string;
  groupId: number | null;
  groupName: string | null;
  needsLicenceNumber: boolean;
  needsChamberNumber: boolean;
  /** The chamber its people's credit points go to (issue 32 item 4). */
  chamber: 1 | 2 | 3 | null;
  /** May prescribe or supply medicines: receives RX courses (issue 36). */
  mayPrescribe: boolean;
};
export type ProfessionGroup = { id: number; name: string; professions: { id: number; name: string }[] };

export const listCommunityGroups = (query: Partial<ListQuery>) => api<{ items: CommunityGroup[]; total: number }>('GET', '/community-groups', { query });
export const getCommunityGroup = (id: number) => api<CommunityGroup>('GET', `/community-groups/${id}`);
export const saveCommunityGroup = (id: number | null, input: z.input<typeof communityGroupRule>) =>
  id === null ? api<{ id: number }>('POST', '/community-groups', { body: input }) : api<{ id: number }>('PUT', `/community-groups/${id}`, { body: input });

export const deleteCommunityGroup = (id: number) => api<{ id: number }>('DELETE', `/community-groups/${id}`);
export const listProfessions = (query: Partial<ListQuery>) => api<{ items: Profession[]; total: number }>('GET', '/professions', { query });
export const getProfession = (id: number) => api<Profession>('GET', `/professions/${id}`);
export const deleteProfession = (id: number) => api<{ id: number }>('DELETE', `/professions/${id}`);
export const saveProfession = (id: number | null, input: z.input<typeof professionRule>) =>
  id === null ? api<{ id: number }>('POST', '/professions', { body: input }) : api<{ id: number }>('PUT', `/professions/${id}`, { body: input });

export const listProfessionGroups = (query: Partial<ListQuery>) => api<{ items: ProfessionGroup[]; total: number }>('GET', '/profession-groups', { query });
export const getProfessionGroup = (id: number) => api<ProfessionGroup>('GET', `/profession-groups/${id}`);
export const saveProfessionGroup = (id: number | null, input: z.input<typeof professionGroupRule>) =>
  id === null ? api<{ id: number }>('POST', '/profession-groups', { body: input }) : api<{ id: number }>('PUT', `/profession-groups/${id}`, { body: input });
