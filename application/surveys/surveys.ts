import { createHash, randomUUID } from 'node:crypto';
import { DomainError } from '../../domain/shared/domain-error.ts';
import { SURVEY_COURSE_TYPE } from '../../domain/shared/features.ts';
import { type SurveyAnswer, surveyDecider, surveyStream } from '../../domain/surveys/survey.ts';
import type { PurposeTokens } from '../../infrastructure/auth/purpose-tokens.port.ts';
import type { EventMetadata, EventStore } from '../../infrastructure/event-store/event-store.port.ts';
import type { CourseReadDb } from '../../projections/courses/courses.queries.ts';
import { findSurvey } from '../../projections/courses/surveys.queries.ts';
import { handleCommand } from '../shared/handle-command.ts';

export type SurveysDeps = { readonly store: EventStore; readonly db: CourseReadDb; readonly now: () => Date; readonly ballots: PurposeTokens };

export const BALLOT_INVALID = 'Glasovnica ankete ni veljavna. Odprite anketo znova.';
const BALLOT_TTL_SECONDS = 7 * 24 * 3600;

/**
 * An anonymous browser answers a survey with a ballot the server handed it with the survey (issue 31
 * item 5, decision 0049): signed, for that survey, with a random number that answers once. A
 * browser's own made-up id no longer counts, so one address cannot answer without end.
 */
export const issueBallot = (deps: SurveysDeps, surveyId: number) => deps.ballots.sign('survey-ballot', { surveyId, nonce: randomUUID() }, BALLOT_TTL_SECONDS);

/** The ballot's once-only number, or null for a ballot that is forged, expired or of another survey. */
export const ballotNonce = async (deps: SurveysDeps, surveyId: number, ballot: string) => {
  const payload = await deps.ballots.verify('survey-ballot', ballot);
  return payload && payload.surveyId === surveyId && typeof payload.nonce === 'string' ? payload.nonce : null;
};

export const SURVEY_MISSING = 'Anketa ne obstaja.';
export const SURVEY_CLOSED = 'Anketa je zaprta in ne sprejema več odgovorov.';

type Reasons = { detractor: string[]; neutral: string[]; promoter: string[] };
type NpsFields = { question?: string; reasons?: Reasons; commentEnabled?: boolean };

/**
 * A survey open to answers (spec §2 /anketa/{surveyId}, course type 9): published, not archived or
 * deleted, inside one of its intervals (none: always), with at least one NPS question. A course that
 * is no survey, or none at all, is missing (404); a survey past its time is closed (410).
 */
export const openSurvey = async (deps: SurveysDeps, courseId: number) => {
  const survey = await findSurvey(deps.db, courseId);
  if (!survey || survey.type !== SURVEY_COURSE_TYPE || survey.status === 'deleted' || !survey.published || survey.questions.length === 0)
    throw new DomainError('404', SURVEY_MISSING, { status: 404 });
  const now = deps.now();
  const open = survey.intervals.length === 0 || survey.intervals.some((i) => new Date(i.startsAt) <= now && now < new Date(i.stopsAt));
  if (survey.status === 'archived' || !open) throw new DomainError('410', SURVEY_CLOSED, { status: 410 });
  return {
    id: survey.id,
    title: survey.title,
    description: survey.description,
    questions: survey.questions.map((q) => {
      const fields = q.fields as NpsFields;
      return {
        blockId: q.blockId,
        name: q.name,
        question: fields.question ?? q.name,
        reasons: fields.reasons ?? ({ detractor: [], neutral: [], promoter: [] } as Reasons),
        commentEnabled: fields.commentEnabled === true,
      };
    }),
  };
};

/** An anonymous browser's place in the statistics: a negative number made from its token, never a user's id. */
const anonymous = (tokenHash: string) => -(Number.parseInt(tokenHash.slice(0, 7), 16) + 1);

/** One response: a signed-in person's once, or an anonymous browser's (its token) once. */
export const answerSurvey = async (
  deps: SurveysDeps,
  courseId: number,
  who: { userId: number } | { token: string },
  answers: readonly SurveyAnswer[],
  metadata: EventMetadata,
) => {
  const survey = await openSurvey(deps, courseId);
  const tokenHash = 'token' in who ? createHash('sha256').update(who.token).digest('hex') : null;
  const result = await handleCommand(deps.store, {
    streamName: surveyStream(courseId, tokenHash === null ? { userId: (who as { userId: number }).userId } : { tokenHash }),
    decider: surveyDecider,
    command: {
      type: 'AnswerSurvey',
      courseId,
      respondent: tokenHash === null ? (who as { userId: number }).userId : anonymous(tokenHash),
      questions: survey.questions,
      answers,
    },
    metadata,
  });
  return { position: result.position };
};
