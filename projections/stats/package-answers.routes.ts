import { z } from 'zod';
import { can } from '../../domain/permissions/can.ts';
import { idParam } from '../../domain/shared/id.rules.ts';
import { anyOf, errorResponses, type HttpApp, requireAuth } from '../../infrastructure/http/http.port.ts';
import { courseExists, packageAnswers } from './package-answers.queries.ts';
import type { StatsDb } from './stats.queries.ts';
import { courseParams, notFound, requireReachable, scopeOf, tags } from './stats-request.ts';

/** The read models the per-question view reads. */
const READ_MODELS = ['package_answers', 'courses'] as const;

/**
 * The per-question view of a package block (issue 35 item 3): what participants answered to each
 * question a SCORM or cmi5 package reports. Who reads success rates reads it (1056; a community role
 * 1059, for its company's courses). Only the platform's staff see the answers' words: a company's
 * course may be taken by people of other companies, whose typed answers are not the company's to read.
 */
export const registerPackageAnswerRoutes = (app: HttpApp, deps: { db: StatsDb }) => {
  app.get(
    '/api/courses/:id/blocks/:blockId/answers',
    {
      config: { access: anyOf([{ system: 1056 }, { communityAnywhere: 1059 }]), readModels: READ_MODELS },
      schema: {
        tags,
        summary: 'Per question of a package block: participants who answered, right and wrong, and (to 1056) the answers given most',
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
      const scope = scopeOf(request, 1056, 1059);
      if (!(await courseExists(deps.db, request.params.id))) throw notFound();
      await requireReachable(deps.db, scope, request.params.id);
      const staff = can(requireAuth(request).subject, 1056, { kind: 'system' });
      return { items: await packageAnswers(deps.db, request.params.id, request.params.blockId, staff) };
    },
  );
};
