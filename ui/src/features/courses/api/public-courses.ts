import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export type PublicCourse = { id: number; type: number; title: string; cover: string; creditPoints: number; lecturer: string | null };

/** Public, published courses running now (issue 17 item 7, /glp): read with or without a session. */
export const publicCoursesQuery = queryOptions({
  queryKey: ['public-courses'],
  queryFn: ({ signal }) => api<{ items: PublicCourse[] }>('GET', '/public-courses', { signal }),
});
