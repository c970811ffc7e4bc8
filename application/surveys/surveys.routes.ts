import { z } from 'zod';
import { idParam, refId } from '../../domain/shared/id.rules.ts';
import { commandMetadata, errorResponses, type HttpApp, PUBLIC, withPosition } from '../../infrastructure/http/http.port.ts';
import { type AttemptLimits, guardAttempts } from '../shared/attempt-limits.ts';
import { answerSurvey, BALLOT_INVALID, ballotNonce, issueBallot, openSurvey, type SurveysDeps } from './surveys.ts';

const tags = ['surveys'];
const params = z.object({ id: idParam });
const reasons = z.array(z.string().max(300)).max(50);
const question = z.object({
  blockId: z.number(),
  name: z.string(),
  question: z.string(),
  reasons: z.object({ detractor: reasons, neutral: reasons, promoter: reasons }),
  commentEnabled: z.boolean(),
});
const answerRule = z
  .object({
    /** The ballot the survey was handed out with (GET): an anonymous browser answers with it, once; a signed-in person answers as themself. */
    ballot: z.string({ error: BALLOT_INVALID }).max(2000, { error: BALLOT_INVALID }).optional(),
    answers: z
      .array(
        z
          .object({
            blockId: refId('surveyQuestion'),
            score: z.number({ error: 'Izberite oceno.' }).int().min(0, { error: 'Izberite oceno.' }).max(10, { error: 'Izberite oceno.' }),
            reasons: z.array(z.string().max(300)).max(50).default([]),
            comment: z.string().max(2000).nullish(),
          })
          .strict(),
      )
      .min(1, { error: 'Odgovorite na vsa vprašanja.' })
      .max(50),
  })
  .strict();

/**
 * Surveys at /anketa/{surveyId} (spec §2: a public page; issue 17 item 4): read and answered without
 * logging in, once per person or browser; counted in the course's NPS statistics (decision 0029).
 */
export const registerSurveyRoutes = (app: HttpApp, deps: SurveysDeps & { attempts: AttemptLimits; ballotsPerHour: number }) => {
  app.get(
    '/api/surveys/:id',
    {
      config: { access: PUBLIC, readModels: ['courses'] },
      schema: {
        tags,
        summary: 'A survey (course type 9) to answer: its title, description and NPS questions; 404 when there is none, 410 when it is closed',
        params,
        response: {
          200: z.object({ id: z.number(), title: z.string(), description: z.string(), questions: z.array(question), ballot: z.string().nullable() }),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const survey = await openSurvey(deps, request.params.id);
      if (request.auth) return { ...survey, ballot: null };
      // An anonymous browser is handed a ballot: so many an hour per address (decision 0049).
      await guardAttempts({ ...deps.attempts, perAddress: deps.ballotsPerHour }, reply, 'survey-ballot', { account: null, address: request.ip }, 3600);
      return { ...survey, ballot: await issueBallot(deps, survey.id) };
    },
  );
  app.post(
    '/api/surveys/:id/answers',
    {
      config: { access: PUBLIC, readModels: ['courses'] },
      bodyLimit: 64 * 1024,
      schema: {
        tags,
        summary: 'Answer a survey once: signed in as oneself, or anonymously with the browser’s token; 409 when answered already',
        params,
        body: answerRule,
        response: { 201: z.object({ answered: z.literal(true) }), ...errorResponses },
      },
    },
    async (request, reply) => {
      await guardAttempts(deps.attempts, reply, 'survey', { account: null, address: request.ip });
      // A survey that does not exist or is closed says so before anything is asked of the ballot.
      await openSurvey(deps, request.params.id);
      const auth = request.auth;
      const nonce = !auth && request.body.ballot ? await ballotNonce(deps, request.params.id, request.body.ballot) : null;
      const who = auth ? { userId: auth.userId } : nonce ? { token: nonce } : null;
      if (!who) return reply.status(400).send({ errors: [{ code: '400', message: BALLOT_INVALID, field: 'ballot' }] });
      const answers = request.body.answers.map((a) => ({ blockId: a.blockId, score: a.score, reasons: a.reasons, comment: a.comment ?? null }));
      const result = await answerSurvey(deps, request.params.id, who, answers, commandMetadata(request));
      return withPosition(reply, result.position)
        .status(201)
        .send({ answered: true as const });
    },
  );
};
