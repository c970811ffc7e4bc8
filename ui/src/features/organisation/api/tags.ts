import type { TagKind } from '../../../../../domain/organisation/organisation.rules.ts';
import type { ListQuery } from '../../../components/data-table.tsx';
import { api } from '../../../lib/api-client.ts';

export type Tag = { id: number; kind: TagKind; name: string; internalUse: boolean };

export const listTags = (kind: TagKind, query: Partial<ListQuery>) => api<{ items: Tag[]; total: number }>('GET', '/tags', { query: { kind, ...query } });
export const getTag = (id: number) => api<Tag>('GET', `/tags/${id}`);
export const createTag = (kind: TagKind, input: { name: string; internalUse: boolean }) => api<{ id: number }>('POST', '/tags', { body: { kind, ...input } });
export const updateTag = (id: number, input: { name: string; internalUse: boolean }) => api<{ id: number }>('PUT', `/tags/${id}`, { body: input });
export const deleteTag = (id: number) => api<{ id: number }>('DELETE', `/tags/${id}`);
