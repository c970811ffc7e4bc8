import { Accordion, Alert, Anchor, Button, Group, List, Radio, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCircleCheck, IconCircleX } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/i18n.ts';
import { type Block, type BlockRecord, getQuizReview, type QuizFields, type QuizReview, submitQuiz } from '../api/courses.ts';
import { useCourseStep } from '../hooks/use-course-step.ts';

type Answers = Record<string, string>;
type ReviewedAttempt = QuizReview['attempts'][number];
/** Green text dark enough for 4.5:1 on white (Mantine's green.9 reaches only 4.36). */
const RIGHT_TEXT = '#1b6e33';

/** Where a participant stands with a quiz (decision 0053), from their record and the quiz's settings. */
export const quizStanding = (quiz: QuizFields, record: BlockRecord | undefined, now = Date.now()) => {
  const perSet = quiz.retries + 1;
  const used = record ? record.quizAttempts - record.quizRoundFrom : 0;
  const waiting = record?.quizNext === 'wait' && record.quizRetryAt !== null && Date.parse(record.quizRetryAt) > now;
  const renewable = record?.quizNext === 'wait' && !waiting;
  const ended = record?.quizNext === 'ended';
  const left = record?.done || ended || waiting ? 0 : renewable ? perSet : Math.max(0, perSet - used);
  return { ended, waiting, renewable, left, retryAt: record?.quizRetryAt ?? null };
};

/** Per question of one attempt: right or wrong in words and by icon (not by colour alone), the right answer and explanation where allowed. */
const AttemptFeedback = ({ attempt }: { attempt: ReviewedAttempt }) => {
  const { t } = useTranslation();
  return (
    <List spacing="sm" listStyleType="none" data-testid={`quiz-attempt-${attempt.attempt}`}>
      {attempt.questions.map((q) => (
        <List.Item
          key={q.questionId}
          data-correct={q.correct}
          icon={
            <ThemeIcon variant="white" color={q.correct ? 'green.9' : 'red.9'} size="sm">
              {q.correct ? <IconCircleCheck size={18} aria-hidden /> : <IconCircleX size={18} aria-hidden />}
            </ThemeIcon>
          }
        >
          <Stack gap={2}>
            <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
              {q.text}
            </Text>
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              <Text span fw={600} c={q.correct ? RIGHT_TEXT : 'red.9'}>
                {q.correct ? t('courses.quiz.right') : t('courses.quiz.wrong')}
              </Text>
              {' · '}
              {t('courses.quiz.yourAnswer', { answer: q.answer ?? t('courses.quiz.answerGone') })}
            </Text>
            {q.rightAnswer !== null && !q.correct ? (
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {t('courses.quiz.rightAnswer', { answer: q.rightAnswer })}
              </Text>
            ) : null}
            {q.explanation ? (
              <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
                {t('courses.quiz.explanation')}: {q.explanation}
              </Text>
            ) : null}
          </Stack>
        </List.Item>
      ))}
    </List>
  );
};

/** "Pretekli poskusi": every attempt, each opened on demand (a native button per attempt, reachable by keyboard). */
const PastAttempts = ({ attempts }: { attempts: ReviewedAttempt[] }) => {
  const { t } = useTranslation();
  if (attempts.length === 0) return null;
  return (
    <Stack gap="xs" data-testid="quiz-past-attempts">
      <Title order={3} size="h5">
        {t('courses.quiz.pastAttempts')}
      </Title>
      <Accordion variant="contained" chevronPosition="right">
        {attempts.map((a) => (
          <Accordion.Item key={a.attempt} value={String(a.attempt)}>
            <Accordion.Control>
              {t('courses.quiz.attemptSummary', { attempt: a.attempt, score: a.score })} ·{' '}
              {a.passed ? t('courses.quiz.attemptPassed') : t('courses.quiz.attemptFailed')}
            </Accordion.Control>
            <Accordion.Panel>
              <AttemptFeedback attempt={a} />
            </Accordion.Panel>
          </Accordion.Item>
        ))}
      </Accordion>
    </Stack>
  );
};

/** After the last failed attempt of a set: the author's message and whom to contact, or when new attempts open. */
const NextStep = ({ quiz, standing, review }: { quiz: QuizFields; standing: ReturnType<typeof quizStanding>; review: QuizReview | undefined }) => {
  const { t } = useTranslation();
  if (standing.ended) {
    const end = quiz.afterLastFail.kind === 'end' ? quiz.afterLastFail : null;
    const message = review?.message ?? end?.message ?? null;
    const contact = review?.contact ?? end?.contact ?? null;
    return (
      <Alert color="red.9" variant="outline" title={t('courses.quiz.notPassedTitle')} data-testid="quiz-next-step" data-next="ended">
        <Stack gap={4}>
          {message ? <Text style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>{message}</Text> : null}
          {contact ? <ContactLine contact={contact} /> : null}
        </Stack>
      </Alert>
    );
  }
  if (standing.waiting && standing.retryAt) {
    return (
      <Alert color="blue.9" variant="outline" title={t('courses.quiz.waitTitle')} data-testid="quiz-next-step" data-next="wait">
        {t('courses.quiz.waitUntil', { date: formatDateTime(standing.retryAt) })}
      </Alert>
    );
  }
  return null;
};

/** Whom to contact: an e-mail address becomes a link. */
export const ContactLine = ({ contact }: { contact: string }) => {
  const { t } = useTranslation();
  const email = /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(contact);
  return (
    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
      {t('courses.quiz.contact')}: {email ? <Anchor href={`mailto:${contact}`}>{contact}</Anchor> : contact}
    </Text>
  );
};

/**
 * The outcome of the last attempt: passed or not with the score, per question right or wrong (the
 * right answer and explanation as the author allows), what follows, and the past attempts. It takes
 * the focus after a submit so a keyboard or screen-reader user lands on the result.
 */
const Outcome = (props: {
  quiz: QuizFields;
  record: BlockRecord;
  review: QuizReview | undefined;
  focus: boolean;
  onFocused: () => void;
  onRetry: () => void;
}) => {
  const { t } = useTranslation();
  const { quiz, record, review } = props;
  const heading = useRef<HTMLDivElement>(null);
  const { focus, onFocused } = props;
  useEffect(() => {
    if (focus && heading.current) {
      heading.current.focus();
      onFocused();
    }
  }, [focus, onFocused]);
  const score = record.quizScore ?? 0;
  const standing = quizStanding(quiz, record);
  // A page left open past the waiting time offers the new set without a reload.
  const [, setTick] = useState(0);
  const waitMs = standing.waiting && standing.retryAt ? Date.parse(standing.retryAt) - Date.now() : null;
  useEffect(() => {
    if (waitMs === null || waitMs > 2_147_000_000) return;
    const timer = setTimeout(() => setTick((n) => n + 1), Math.max(0, waitMs) + 500);
    return () => clearTimeout(timer);
  }, [waitMs]);
  const attempts = review?.attempts ?? [];
  const last = attempts.at(-1);
  return (
    <Stack gap="md">
      <Alert
        ref={heading}
        tabIndex={-1}
        color={record.done ? 'green' : 'red'}
        icon={record.done ? <IconCircleCheck aria-hidden /> : <IconCircleX aria-hidden />}
        data-testid="quiz-result"
        data-passed={record.done ? 'true' : 'false'}
      >
        {record.done ? t('courses.quiz.passed', { score }) : t('courses.quiz.failed', { score, threshold: quiz.successThreshold })}
      </Alert>
      {last ? (
        <Stack gap="xs">
          <Title order={3} size="h5">
            {t('courses.quiz.lastAttempt', { attempt: last.attempt })}
          </Title>
          <AttemptFeedback attempt={last} />
          {!review?.revealed && quiz.revealAnswers === 'afterLast' && !record.done ? (
            <Text size="sm" c="dimmed">
              {t(quiz.afterLastFail.kind === 'end' ? 'courses.quiz.answersAfterLast' : 'courses.quiz.answersWhenPassed')}
            </Text>
          ) : null}
        </Stack>
      ) : null}
      {!record.done && standing.left > 0 ? (
        <Group>
          <Text size="sm">
            {standing.renewable ? t('courses.quiz.newSet', { count: standing.left }) : t('courses.quiz.retriesLeft', { count: standing.left })}
          </Text>
          <Button onClick={props.onRetry}>{t('courses.quiz.retry')}</Button>
        </Group>
      ) : null}
      {!record.done && standing.left === 0 && !standing.ended && !standing.waiting ? <Text size="sm">{t('courses.quiz.noRetries')}</Text> : null}
      <NextStep quiz={quiz} standing={standing} review={review} />
      <PastAttempts attempts={attempts} />
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
  const [focusResult, setFocusResult] = useState(false);
  const submit = useCourseStep(courseId, (input: Answers) => submitQuiz(courseId, block.id, input));
  const attempted = (record?.quizAttempts ?? 0) > 0;
  // Under the course's key: a step (this submit, an opening) reads it again with the records.
  const review = useQuery({ queryKey: ['user-course', courseId, 'quiz', block.id], queryFn: () => getQuizReview(courseId, block.id), enabled: attempted });
  const onFocused = () => setFocusResult(false);

  if (record && (record.done || (attempted && !retrying))) {
    return (
      <Outcome
        quiz={quiz}
        record={record}
        review={review.data}
        focus={focusResult}
        onFocused={onFocused}
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
        onSuccess: () => {
          setRetrying(false);
          setFocusResult(true);
        },
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
