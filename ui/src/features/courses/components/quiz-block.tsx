import { Alert, Button, Group, Radio, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Block, type BlockRecord, type QuizFields, submitQuiz } from '../api/courses.ts';
import { useCourseStep } from '../hooks/use-course-step.ts';

type Answers = Record<string, string>;

/** The outcome of the last attempt, with a retry while attempts are left. */
const Outcome = ({ quiz, record, onRetry }: { quiz: QuizFields; record: BlockRecord; onRetry: () => void }) => {
  const { t } = useTranslation();
  const score = record.quizScore ?? 0;
  if (record.done) {
    return (
      <Alert color="green" data-testid="quiz-result" data-passed="true">
        {t('courses.quiz.passed', { score })}
      </Alert>
    );
  }
  const retriesLeft = Math.max(0, quiz.retries + 1 - record.quizAttempts);
  return (
    <Stack gap="sm">
      <Alert color="red" data-testid="quiz-result" data-passed="false">
        {t('courses.quiz.failed', { score, threshold: quiz.successThreshold })}
      </Alert>
      {retriesLeft > 0 ? (
        <Group>
          <Text size="sm">{t('courses.quiz.retriesLeft', { count: retriesLeft })}</Text>
          <Button onClick={onRetry}>{t('courses.quiz.retry')}</Button>
        </Group>
      ) : (
        <Text size="sm">{t('courses.quiz.noRetries')}</Text>
      )}
    </Stack>
  );
};

/** A quiz in batches of `batchSize` questions; all answers are submitted together after the last batch. */
export const QuizBlock = ({ courseId, block, record }: { courseId: number; block: Block; record: BlockRecord | undefined }) => {
  const { t } = useTranslation();
  const quiz = block.fields as QuizFields;
  const [answers, setAnswers] = useState<Answers>({});
  const [batch, setBatch] = useState(0);
  const [missing, setMissing] = useState<Set<string>>(new Set());
  const [retrying, setRetrying] = useState(false);
  const submit = useCourseStep(courseId, (input: Answers) => submitQuiz(courseId, block.id, input));

  const attempted = (record?.quizAttempts ?? 0) > 0;
  if (record && (record.done || (attempted && !retrying))) {
    return (
      <Outcome
        quiz={quiz}
        record={record}
        onRetry={() => {
          setAnswers({});
          setBatch(0);
          setMissing(new Set());
          setRetrying(true);
        }}
      />
    );
  }

  const size = Math.max(1, quiz.batchSize);
  const batches = Math.ceil(quiz.questions.length / size);
  const questions = quiz.questions.slice(batch * size, batch * size + size);
  const last = batch === batches - 1;
  const proceed = () => {
    const unanswered = new Set(questions.filter((q) => !answers[q.id]).map((q) => q.id));
    setMissing(unanswered);
    if (unanswered.size > 0) return;
    if (!last) setBatch(batch + 1);
    else
      submit.mutate(answers, {
        onSuccess: () => setRetrying(false),
      });
  };

  return (
    <Stack gap="lg">
      {questions.map((question, i) => {
        const index = batch * size + i + 1;
        return (
          <Radio.Group
            key={question.id}
            label={question.text}
            description={t('courses.quiz.question', { index, total: quiz.questions.length })}
            value={answers[question.id] ?? null}
            onChange={(value) => setAnswers((current) => ({ ...current, [question.id]: value }))}
            error={missing.has(question.id) ? t('courses.quiz.chooseAnswer') : undefined}
          >
            <Stack gap="xs" mt="xs">
              {question.answers.map((answer) => (
                <Radio key={answer.id} value={answer.id} label={answer.text} />
              ))}
            </Stack>
          </Radio.Group>
        );
      })}
      <Button onClick={proceed} loading={submit.isPending} style={{ alignSelf: 'flex-start' }}>
        {last ? t('courses.quiz.submit') : t('courses.quiz.next')}
      </Button>
    </Stack>
  );
};
