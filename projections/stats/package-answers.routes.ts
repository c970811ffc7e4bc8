import { z } from 'zod';
import { idParam } from '../../domain/shared/id.rules.ts';
import { anyOf, errorResponses, type HttpApp } from '../../infrastructure/http/http.port.ts';
import { courseExists, packageAnswers } from './package-answers.queries.ts';
import type { StatsDb } from './stats.queries.ts';
import { courseParams, notFound, tags } from './stats-request.ts';

/** The read models the per-question view reads. */
const READ_MODELS = ['package_answers', 'courses'] as const;

/**
 * The per-question view of a package block (issue 35 item 3): what participants answered to each
 * question a SCORM or cmi5 package reports, to who reads success rates platform-wide (1056). Not yet
 * to a community's readers (1059): the answers do not carry the unit and company each participant was
 * in when answering (decision 0050), so a company's reader of a course open to all would count other
 * companies' people (a review found it).
 */
export const registerPackageAnswerRoutes = (app: HttpApp, deps: { db: StatsDb }) => {
  app.get(
    '/api/courses/:id/blocks/:blockId/answers',
    {
      config: { access: anyOf([{ system: 1056 }]), readModels: READ_MODELS },
      schema: {
        tags,
        summary: 'Per question of a package block: participants who answered, right and wrong, and the answers given most (1056)',
        params: courseParams.extend({ blockId: idParam }),
        response: {
          200: z.object({
            items: z.array(
              z.object({
                itemId: z.string(),
                questionId: z.string(),
                type: z.string().nullable(),
                description: z.string().nullable(),
                answered: z.number(),
                correct: z.number(),
                wrong: z.number(),
                responses: z.array(z.object({ response: z.string(), count: z.number() })),
              }),
            ),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      if (!(await courseExists(deps.db, request.params.id))) throw notFound();
      return { items: await packageAnswers(deps.db, request.params.id, request.params.blockId) };
    },
  );
};
