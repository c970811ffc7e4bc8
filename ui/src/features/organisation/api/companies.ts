import type { z } from 'zod';
import type { companyRule, signatureRule } from '../../../../../domain/organisation/organisation.rules.ts';
import type { ListQuery } from '../../../components/data-table.tsx';
import { api } from '../../../lib/api-client.ts';
import { session } from '../../../lib/session.ts';

export type CompanyListItem = {
  id: number;
  name: string;
  address: string;
  city: string | null;
  zip: string | null;
  vat: string | null;
  tagName: string | null;
  unitCount: number;
};
export type CompanyInput = z.input<typeof companyRule>;
export type Company = {
  id: number;
  name: string;
  address: string;
  city: string | null;
  zip: string | null;
  region: string | null;
  tagId: number | null;
  vat: string | null;
  parentCompanyId: number | null;
  parentCompanyName: string | null;
  externalId: string | null;
  syncDestination: 1 | 2 | 3 | null;
  financial: { iban: string | null; swift: string | null; billingEmail: string | null };
  signature: { name: string; role: string; imageFileId: number | null } | null;
  units: { id: number; name: string; published: boolean }[];
};

export const listCompanies = (query: Partial<ListQuery>) => api<{ items: CompanyListItem[]; total: number }>('GET', '/companies', { query });
export const getCompany = (id: number) => api<Company>('GET', `/companies/${id}`);
export const createCompany = (input: CompanyInput) => api<{ id: number }>('POST', '/companies', { body: input });
export const updateCompany = (id: number, input: CompanyInput) => api<{ id: number }>('PUT', `/companies/${id}`, { body: input });
export const deleteCompany = (id: number) => api<{ id: number }>('DELETE', `/companies/${id}`);
export const changeSignature = (id: number, input: z.input<typeof signatureRule>) => api<{ id: number }>('PUT', `/companies/${id}/signature`, { body: input });

/** Uploads a PNG for the signature (POST /files answers its id). */
export const uploadImage = (file: File) => api<{ id: number }>('POST', '/files', { query: { name: file.name }, body: file });

/** A stored file as an object URL: the file route needs the session token, which an <img> cannot send. */
export const fileObjectUrl = async (id: number) => {
  const response = await fetch(`/api/files/${id}`, { headers: { Authorization: `JWT ${session.token() ?? ''}` } });
  if (!response.ok) throw new Error(String(response.status));
  return URL.createObjectURL(await response.blob());
};
