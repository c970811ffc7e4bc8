import type { z } from 'zod';
import type { NewsletterFields, newsletterRule } from '../../../../../domain/newsletters/newsletter.rules.ts';
import { api } from '../../../lib/api-client.ts';

/** A newsletter issue as the API answers it (spec §3 Newsletter). */
export type Newsletter = NewsletterFields & { id: number; publishedAt: string | null; updatedAt: string };
export type NewsletterInput = z.input<typeof newsletterRule>;

/** /novicnik: the published issues for the caller's profession (and for every profession), newest first. */
export const listUserNewsletters = () => api<{ items: Newsletter[] }>('GET', '/user-newsletters').then((r) => r.items);
export const getUserNewsletter = (id: number) => api<Newsletter>('GET', `/user-newsletters/${id}`);

/** The authors' list (1065): every issue, newest change first, searched by title, issue and keywords. */
export const listNewsletters = (query: { search: string; page: number; pageSize: number }) =>
  api<{ items: Newsletter[]; total: number }>('GET', '/newsletters', {
    query: { search: query.search || undefined, page: query.page, pageSize: query.pageSize },
  });
export const getNewsletter = (id: number) => api<Newsletter>('GET', `/newsletters/${id}`);
export const saveNewsletter = (id: number | null, input: NewsletterFields) =>
  id === null ? api<{ id: number }>('POST', '/newsletters', { body: input }) : api<{ id: number }>('PUT', `/newsletters/${id}`, { body: input });
export const deleteNewsletter = (id: number) => api<{ id: number }>('DELETE', `/newsletters/${id}`);

/** Every profession an issue can be for (GET /professions is public), by name, read page by page. */
export const listProfessionOptions = async () => {
  const all: { value: string; label: string }[] = [];
  for (let page = 1; ; page++) {
    const result = await api<{ items: { id: number; name: string }[]; total: number }>('GET', '/professions', {
      query: { page, pageSize: 100, sort: 'name', order: 'asc' },
    });
    all.push(...result.items.map((p) => ({ value: String(p.id), label: p.name })));
    if (result.items.length < 100 || all.length >= result.total) return all;
  }
};

/** An uploaded cover (JPEG or PNG, checked by content on the server): where it is now stored. */
export const uploadCover = (file: File) => api<{ id: number; name: string }>('POST', '/files', { query: { name: file.name }, body: file });
