import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export type ProfessionOption = { id: number; name: string; groupName: string | null; needsLicenceNumber: boolean; needsChamberNumber: boolean };

const PAGE = 100;

/** Every profession (public: registration offers them before anyone signs in), read page by page. */
export const professionsQuery = queryOptions({
  queryKey: ['professions', 'all'],
  queryFn: async ({ signal }) => {
    const all: ProfessionOption[] = [];
    for (let page = 1; ; page++) {
      const result = await api<{ items: ProfessionOption[]; total: number }>('GET', '/professions', {
        query: { page, pageSize: PAGE, sort: 'name' },
        signal,
      });
      all.push(...result.items);
      if (result.items.length < PAGE || all.length >= result.total) return all;
    }
  },
  staleTime: 10 * 60_000,
});
