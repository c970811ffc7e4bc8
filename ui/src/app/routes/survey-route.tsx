import type { ReactNode } from 'react';
import { useParams } from 'react-router';
import { SurveyPage } from '../../features/courses/components/survey-page.tsx';

/** /anketa/{surveyId}: the public survey page, its own small chunk. */
export const SurveyRoute = ({ notFound }: { notFound: ReactNode }) => {
  const { surveyId } = useParams();
  const id = Number(surveyId);
  return Number.isInteger(id) && id > 0 ? <SurveyPage key={id} surveyId={id} /> : <>{notFound}</>;
};
