import type { NewsAction, NewsFields, NewsInput, NewsLocation } from '../../../../../domain/news/news.rules.ts';
import type { ListQuery } from '../../../components/data-table.tsx';
import { api } from '../../../lib/api-client.ts';

type Count = { times: number; users: number };
/** Reach and engagement of a news item: times each action was recorded and by how many readers (spec §4 actions). */
export type NewsReach = { shown: Count; declined: Count; engaged: Count; deferred: Count };
export type AdminNews = NewsFields & { id: number; updatedAt: string; reach: NewsReach };

/** What the pop-up shows (spec §7 GET /news/user). */
export type ReaderNews = Pick<NewsFields, 'title' | 'htmlContent' | 'image' | 'actionUrl' | 'actionButtonText' | 'location' | 'dateFrom' | 'dateTo'> & {
  id: number;
};

export const listNews = (query: ListQuery) =>
  api<{ items: AdminNews[]; total: number }>('GET', '/news', { query: { search: query.search || undefined, page: query.page, pageSize: query.pageSize } });
export const getNews = (id: number) => api<AdminNews>('GET', `/news/${id}`);
export const createNews = (input: NewsInput) => api<{ id: number }>('POST', '/news', { body: input });
export const updateNews = (id: number, input: NewsInput) => api<{ id: number }>('PUT', `/news/${id}`, { body: input });
export const deleteNews = (id: number) => api<{ id: number }>('DELETE', `/news/${id}`);

/** spec §7: the one item to show now at these locations; null when there is none (204). */
export const newsForReader = async (locations: readonly NewsLocation[]) =>
  (await api<ReaderNews | undefined>('GET', '/news/user', { query: { location: locations } })) ?? null;

/** spec §7 PUT /news/{id}/user/stats: 1 shown, 2 declined, 3 engaged, 4 deferred. */
export const recordNewsAction = (id: number, action: NewsAction) => api<{ id: number; action: number }>('PUT', `/news/${id}/user/stats`, { body: { action } });

export const uploadNewsImage = (file: File) =>
  api<{ id: number; name: string; contentType: string; size: number }>('POST', '/files', { query: { name: file.name }, body: file });
