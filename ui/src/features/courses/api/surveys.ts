import { api } from '../../../lib/api-client.ts';

export type SurveyQuestion = {
  blockId: number;
  name: string;
  question: string;
  reasons: { detractor: string[]; neutral: string[]; promoter: string[] };
  commentEnabled: boolean;
};
export type Survey = { id: number; title: string; description: string; questions: SurveyQuestion[] };
export type SurveyAnswer = { blockId: number; score: number; reasons: string[]; comment: string | null };

/** A survey to answer (issue 17, /anketa/{surveyId}): public; 404 none, 410 closed. */
export const getSurvey = (id: number) => api<Survey>('GET', `/surveys/${id}`);

const TOKEN_KEY = 'survey_token';
/** The browser's own random id for anonymous answers, kept so that it answers each survey once. */
export const surveyToken = () => {
  const kept = localStorage.getItem(TOKEN_KEY);
  if (kept) return kept;
  const made = crypto.randomUUID();
  localStorage.setItem(TOKEN_KEY, made);
  return made;
};

export const answerSurvey = (id: number, answers: SurveyAnswer[]) =>
  api<{ answered: true }>('POST', `/surveys/${id}/answers`, { body: { token: surveyToken(), answers } });
