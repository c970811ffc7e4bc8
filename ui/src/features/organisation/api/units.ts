import type { z } from 'zod';
import type { unitRule } from '../../../../../domain/organisation/organisation.rules.ts';
import type { ListQuery } from '../../../components/data-table.tsx';
import { api } from '../../../lib/api-client.ts';

/** spec §7 GET /units item (id, name, company_id, company_name) with the list's extra columns. */
export type Unit = {
  id: number;
  name: string;
  company_id: number;
  company_name: string | null;
  published: boolean;
  tag_id: number | null;
  tag_name: string | null;
  groups: string[];
  address: string | null;
  city: string | null;
  zip: string | null;
  region: string | null;
  vat: string | null;
  external_id: string | null;
  sync_destination: number | null;
  /** The unit's own certificate signature (issue 18); null: its company's signs. */
  signature: { name: string; role: string; imageFileId: number | null } | null;
};
export type UnitInput = z.input<typeof unitRule>;

export const listUnits = (query: Partial<ListQuery> & { companyIds?: number[]; limit?: 'NO_LIMIT' }) =>
  api<{ items: Unit[]; total: number }>('GET', '/units', { query });
export const getUnit = (id: number) => api<Unit>('GET', `/units/${id}`);
export const createUnit = (input: UnitInput) => api<{ id: number }>('POST', '/units', { body: input });
export const updateUnit = (id: number, input: UnitInput) => api<{ id: number }>('PUT', `/units/${id}`, { body: input });
export const deleteUnit = (id: number) => api<{ id: number }>('DELETE', `/units/${id}`);
export const changeUnitSignature = (id: number, input: { name: string; role: string; imageFileId: number | null }) =>
  api<{ id: number }>('PUT', `/units/${id}/signature`, { body: input });
export const removeUnitSignature = (id: number) => api<{ id: number }>('DELETE', `/units/${id}/signature`);
export const setUnitPublished = (id: number, published: boolean) => api<{ id: number }>('POST', `/units/${id}/${published ? 'publish' : 'unpublish'}`);

/** spec §7 GET /communities (filterIds, answers {data}); spec §5: a lookup counts only when exactly one community matches. */
export const lookupCommunity = async (id: number): Promise<Unit | null> => {
  const { data } = await api<{ data: Unit[] }>('GET', '/communities', { query: { filterIds: [id] } });
  return data.length === 1 ? (data[0] as Unit) : null;
};
