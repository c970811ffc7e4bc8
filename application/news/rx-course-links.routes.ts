import { z } from 'zod';
import { linkedCourseIds } from '../../domain/courses/course-links.ts';
import { errorResponses, type HttpApp, system } from '../../infrastructure/http/http.port.ts';
import { linkedRxCourses } from '../../projections/courses/rx-links.queries.ts';

type Db = Parameters<typeof linkedRxCourses>[0];

/**
 * The RX courses (type 1) a text being written links to (issue 36, decision 0062), for the news and
 * newsletter editors (1065, "news and newsletters"): they are warned that only prescribing
 * professions will see what they write. The links are found as the readers' filter finds them
 * (course-links.ts), so the warning and the filter never disagree. A read, though a POST: the texts
 * (an article's HTML) do not fit an address.
 */
export const registerRxCourseLinkRoutes = (app: HttpApp, deps: { readonly db: Db }) => {
  app.post(
    '/api/linked-rx-courses',
    {
      config: { access: system(1065), readModels: ['courses'] },
      schema: {
        tags: ['news'],
        summary: 'The RX courses the texts (a news item’s button and text, a newsletter’s address and description) link to (1065)',
        body: z.object({ texts: z.array(z.string().max(250_000)).max(5) }).strict(),
        response: { 200: z.object({ items: z.array(z.object({ id: z.number(), title: z.string() })) }), ...errorResponses },
      },
    },
    async (request) => ({ items: [...(await linkedRxCourses(deps.db, linkedCourseIds(...request.body.texts)))] }),
  );
};
