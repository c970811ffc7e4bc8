import { api } from '../../../lib/api-client.ts';

export type SurveyQuestion = {
  blockId: number;
  name: string;
  question: string;
  reasons: { detractor: string[]; neutral: string[]; promoter: string[] };
  commentEnabled: boolean;
};
/** `ballot`: what an anonymous browser answers with (handed out with the survey); null when signed in. */
export type Survey = { id: number; title: string; description: string; questions: SurveyQuestion[]; ballot: string | null };
export type SurveyAnswer = { blockId: number; score: number; reasons: string[]; comment: string | null };

const ballotKey = (id: number) => `survey_ballot_${id}`;

/**
 * A survey to answer (issue 17, /anketa/{surveyId}): public; 404 none, 410 closed. The first ballot
 * this browser was handed for the survey is kept, so it answers each survey once (decision 0049).
 */
export const getSurvey = async (id: number) => {
  const survey = await api<Survey>('GET', `/surveys/${id}`);
  if (survey.ballot && !localStorage.getItem(ballotKey(id))) localStorage.setItem(ballotKey(id), survey.ballot);
  return survey;
};

export const answerSurvey = (id: number, answers: SurveyAnswer[]) => {
  const ballot = localStorage.getItem(ballotKey(id));
  return api<{ answered: true }>('POST', `/surveys/${id}/answers`, { body: { ...(ballot ? { ballot } : {}), answers } });
};
