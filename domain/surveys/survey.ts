import { z } from 'zod';
import type { Decider } from '../shared/decider.ts';
import { DomainError } from '../shared/domain-error.ts';
import { defineEvent, type EventsOf, ownerFromStream } from '../shared/event.ts';

/**
 * A survey (course type 9) answered at /anketa/{surveyId} without logging in (spec §2; issue 17 item
 * 4): one response per person (a signed-in user) or per browser token. The stream is
 * `survey-<courseId>_<userId>` for a person and `survey-<courseId>_t<hash of the token>` for a
 * browser, so a second response from either is refused. Each NPS answer is one event the
 * statistics count like a participant's (decision 0029).
 */
export const surveyStream = (courseId: number, respondent: { userId: number } | { tokenHash: string }) =>
  'userId' in respondent ? `survey-${courseId}_${respondent.userId}` : `survey-${courseId}_t${respondent.tokenHash}`;

export const surveyEvents = [
  defineEvent(
    'SurveyNpsAnswered',
    z.object({
      courseId: z.number().int().positive(),
      blockId: z.number().int().positive(),
      /** Who answered for the statistics: the user's id, or a negative number made from the browser's token. */
      respondent: z.number().int(),
      score: z.number().int().min(0).max(10),
      reasons: z.array(z.string()),
      comment: z.string().nullable(),
    }),
    // A signed-in respondent's words are theirs (decision 0019); an anonymous browser's belong to nobody known.
    { personal: { fields: ['comment'], owner: (_data, streamName) => ownerFromStream(streamName) } },
  ),
] as const;

export type SurveyEvent = EventsOf<typeof surveyEvents>;
export type SurveyState = { readonly answered: boolean };

export type SurveyAnswer = { readonly blockId: number; readonly score: number; readonly reasons: readonly string[]; readonly comment: string | null };
export type SurveyQuestion = {
  readonly blockId: number;
  readonly reasons: { readonly detractor: readonly string[]; readonly neutral: readonly string[]; readonly promoter: readonly string[] };
  readonly commentEnabled: boolean;
};

export type SurveyCommand = {
  readonly type: 'AnswerSurvey';
  readonly courseId: number;
  readonly respondent: number;
  readonly questions: readonly SurveyQuestion[];
  readonly answers: readonly SurveyAnswer[];
};

export const ALREADY_ANSWERED = 'Na to anketo ste že odgovorili.';
const category = (score: number) => (score >= 9 ? 'promoter' : score >= 7 ? 'neutral' : 'detractor');

export const surveyDecider: Decider<SurveyCommand, SurveyEvent, SurveyState> = {
  initialState: { answered: false },
  evolve: () => ({ answered: true }),
  decide: (command, state) => {
    if (state.answered) throw new DomainError('409', ALREADY_ANSWERED, { status: 409 });
    return command.questions.map((question) => {
      const answer = command.answers.find((a) => a.blockId === question.blockId);
      if (!answer) throw new DomainError('400', 'Odgovorite na vsa vprašanja.', { status: 400, field: 'answers' });
      const allowed = question.reasons[category(answer.score)];
      if (answer.reasons.some((r) => !allowed.includes(r))) throw new DomainError('400', 'Izbrani razlog ne obstaja.', { status: 400, field: 'answers' });
      return {
        type: 'SurveyNpsAnswered' as const,
        data: {
          courseId: command.courseId,
          blockId: question.blockId,
          respondent: command.respondent,
          score: answer.score,
          reasons: [...new Set(answer.reasons)],
          comment: question.commentEnabled && answer.comment?.trim() ? answer.comment.trim().slice(0, 2000) : null,
        },
      };
    });
  },
};
