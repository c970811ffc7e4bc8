import { Button, Grid, Group, NumberInput, Radio, Select, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { QUIZ_OUTCOME_DEFAULTS, quizBlockRule, RETRY_WAIT_HOURS, REVEAL_ANSWERS } from '../../../../../domain/courses/course.rules.ts';
import { moved, SortableList } from '../../../components/sortable-list.tsx';
import { type BlockTarget, useBlockForm } from '../hooks/use-block-form.ts';
import { BlockFormFrame, BlockNameField } from './block-form-frame.tsx';
import { RemoveRowButton, withoutIndex } from './remove-row-button.tsx';

type Quiz = z.input<typeof quizBlockRule>;
type Question = Quiz['questions'][number];
type Answer = Question['answers'][number];
type AfterLastFail = NonNullable<Quiz['afterLastFail']>;

/** Question and answer ids only need to be unique within the quiz; records refer to them. */
const newId = (prefix: string) => `${prefix}${Math.random().toString(36).slice(2, 10)}`;
const newAnswer = (): Answer => ({ id: newId('a'), text: '', correct: false });
const newQuestion = (): Question => ({ id: newId('q'), text: '', answers: [newAnswer(), newAnswer()] });

export const EMPTY_QUIZ: Quiz = {
  kind: 'quiz',
  name: '',
  batchSize: 1,
  successThreshold: 80,
  retries: 1,
  questions: [newQuestion()],
  revealAnswers: QUIZ_OUTCOME_DEFAULTS.revealAnswers,
  afterLastFail: { ...QUIZ_OUTCOME_DEFAULTS.afterLastFail },
};

/**
 * The quiz editor (spec §3, §5): name, batch size (not above the number of questions), success
 * threshold in percent, retries, and the questions with their answers, exactly one of them correct
 * and an optional explanation; when the participant sees the right answers and what follows the last
 * failed attempt (decision 0053). Questions are reordered by dragging or with the arrows; every rule
 * is the domain's own.
 */
export const QuizBlockForm = (props: { title: string; initial: Quiz; target: BlockTarget; backTo: string; actions?: ReactNode }) => {
  const { t } = useTranslation();
  const { form, submit, submitting } = useBlockForm(quizBlockRule, props.initial, props.target);
  const v = form.values;
  const e = form.errors;
  const questions = v.questions;
  const setQuestion = (index: number, change: (q: Question) => Question) =>
    form.set(
      'questions',
      questions.map((q, i) => (i === index ? change(q) : q)),
    );
  const setAnswer = (qi: number, ai: number, change: (a: Answer) => Answer) =>
    setQuestion(qi, (q) => ({ ...q, answers: q.answers.map((a, i) => (i === ai ? change(a) : a)) }));
  // A quiz stored before these settings existed has none: the form shows the defaults it is read with.
  const after: AfterLastFail = v.afterLastFail ?? { ...QUIZ_OUTCOME_DEFAULTS.afterLastFail };
  const setAfter = (change: Partial<AfterLastFail>) => form.set('afterLastFail', { ...after, ...change } as AfterLastFail);

  return (
    <BlockFormFrame title={props.title} backTo={props.backTo} submit={submit} submitting={submitting} actions={props.actions}>
      <Grid>
        <Grid.Col span={12}>
          <BlockNameField value={v.name} onChange={(name) => form.set('name', name)} error={e.name} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 4 }}>
          <NumberInput
            label={t('blocks.quiz.batchSize')}
            description={t('blocks.quiz.batchSizeHint')}
            withAsterisk
            min={1}
            allowDecimal={false}
            clampBehavior="none"
            value={v.batchSize}
            onChange={(x) => form.set('batchSize', typeof x === 'number' ? x : Number.NaN)}
            error={e.batchSize}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 4 }}>
          <NumberInput
            label={t('blocks.quiz.threshold')}
            description={t('blocks.quiz.thresholdHint')}
            withAsterisk
            suffix=" %"
            min={0}
            max={100}
            clampBehavior="none"
            value={v.successThreshold}
            onChange={(x) => form.set('successThreshold', typeof x === 'number' ? x : Number.NaN)}
            error={e.successThreshold}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 4 }}>
          <NumberInput
            label={t('blocks.quiz.retries')}
            description={t('blocks.quiz.retriesHint')}
            min={0}
            max={100}
            allowDecimal={false}
            clampBehavior="none"
            value={v.retries ?? 0}
            onChange={(x) => form.set('retries', typeof x === 'number' ? x : Number.NaN)}
            error={e.retries}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 6 }}>
          <Select
            label={t('blocks.quiz.revealAnswers')}
            description={t('blocks.quiz.revealAnswersHint')}
            data={REVEAL_ANSWERS.map((value) => ({ value, label: t(`blocks.quiz.reveal.${value}`) }))}
            allowDeselect={false}
            value={v.revealAnswers ?? QUIZ_OUTCOME_DEFAULTS.revealAnswers}
            onChange={(x) => form.set('revealAnswers', (x ?? QUIZ_OUTCOME_DEFAULTS.revealAnswers) as Quiz['revealAnswers'])}
            error={e.revealAnswers}
          />
        </Grid.Col>
        <Grid.Col span={12}>
          <Radio.Group
            label={t('blocks.quiz.afterLastFail')}
            description={t('blocks.quiz.afterLastFailHint')}
            value={after.kind}
            onChange={(kind) =>
              form.set('afterLastFail', kind === 'end' ? { kind: 'end', message: '', contact: '' } : { ...QUIZ_OUTCOME_DEFAULTS.afterLastFail })
            }
            error={e.afterLastFail}
          >
            <Stack gap={6} mt={4}>
              <Radio value="wait" label={t('blocks.quiz.afterLastFailWait')} />
              <Radio value="end" label={t('blocks.quiz.afterLastFailEnd')} />
            </Stack>
          </Radio.Group>
        </Grid.Col>
        {after.kind === 'wait' ? (
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <NumberInput
              label={t('blocks.quiz.waitHours')}
              description={t('blocks.quiz.waitHoursHint', RETRY_WAIT_HOURS)}
              withAsterisk
              min={RETRY_WAIT_HOURS.min}
              max={RETRY_WAIT_HOURS.max}
              allowDecimal={false}
              clampBehavior="none"
              value={after.hours}
              onChange={(x) => setAfter({ hours: typeof x === 'number' ? x : Number.NaN })}
              error={e['afterLastFail.hours']}
            />
          </Grid.Col>
        ) : (
          <>
            <Grid.Col span={12}>
              <Textarea
                label={t('blocks.quiz.endMessage')}
                description={t('blocks.quiz.endMessageHint')}
                withAsterisk
                autosize
                minRows={2}
                value={after.message}
                onChange={(x) => setAfter({ message: x.currentTarget.value })}
                error={e['afterLastFail.message']}
              />
            </Grid.Col>
            <Grid.Col span={12}>
              <TextInput
                label={t('blocks.quiz.endContact')}
                description={t('blocks.quiz.endContactHint')}
                withAsterisk
                value={after.contact}
                onChange={(x) => setAfter({ contact: x.currentTarget.value })}
                error={e['afterLastFail.contact']}
              />
            </Grid.Col>
          </>
        )}
      </Grid>
      <Stack gap="xs">
        <Title order={2} size="h4">
          {t('blocks.quiz.questions')}
        </Title>
        {e.questions ? (
          <Text c="red.8" size="sm" role="alert">
            {e.questions}
          </Text>
        ) : null}
        <SortableList
          items={questions}
          itemKey={(q) => q.id}
          itemLabel={(_q, i) => t('blocks.quiz.questionN', { index: i + 1 })}
          onMove={(from, to) => form.set('questions', moved(questions, from, to))}
          testId="quiz-questions"
        >
          {(question, qi) => (
            <Stack gap="xs" data-testid={`question-${qi}`}>
              <Group align="flex-start" wrap="nowrap">
                <Textarea
                  style={{ flex: 1 }}
                  label={t('blocks.quiz.questionN', { index: qi + 1 })}
                  withAsterisk
                  autosize
                  minRows={1}
                  value={question.text}
                  onChange={(x) => {
                    const text = x.currentTarget.value;
                    setQuestion(qi, (q) => ({ ...q, text }));
                  }}
                  error={e[`questions.${qi}.text`]}
                />
                <RemoveRowButton
                  mt={28}
                  label={t('blocks.quiz.removeQuestion', { index: qi + 1 })}
                  onRemove={() => form.set('questions', withoutIndex(questions, qi))}
                />
              </Group>
              <Radio.Group
                label={t('blocks.quiz.answers')}
                description={t('blocks.quiz.correctHint')}
                value={question.answers.find((a) => a.correct)?.id ?? null}
                onChange={(id) => setQuestion(qi, (q) => ({ ...q, answers: q.answers.map((a) => ({ ...a, correct: a.id === id })) }))}
                error={e[`questions.${qi}.answers`]}
              >
                <Stack gap={6} mt={4}>
                  {question.answers.map((answer, ai) => (
                    <Group key={answer.id} wrap="nowrap" align="flex-start">
                      <Radio mt={8} value={answer.id} aria-label={t('blocks.quiz.markCorrect', { question: qi + 1, answer: ai + 1 })} />
                      <TextInput
                        style={{ flex: 1 }}
                        aria-label={t('blocks.quiz.answerN', { question: qi + 1, answer: ai + 1 })}
                        placeholder={t('blocks.quiz.answerPlaceholder', { index: ai + 1 })}
                        value={answer.text}
                        onChange={(x) => {
                          const text = x.currentTarget.value;
                          setAnswer(qi, ai, (a) => ({ ...a, text }));
                        }}
                        error={e[`questions.${qi}.answers.${ai}.text`]}
                      />
                      <RemoveRowButton
                        mt={4}
                        label={t('blocks.quiz.removeAnswer', { question: qi + 1, answer: ai + 1 })}
                        onRemove={() => setQuestion(qi, (q) => ({ ...q, answers: withoutIndex(q.answers, ai) }))}
                      />
                    </Group>
                  ))}
                </Stack>
              </Radio.Group>
              <Group>
                <Button variant="subtle" size="xs" onClick={() => setQuestion(qi, (q) => ({ ...q, answers: [...q.answers, newAnswer()] }))}>
                  {t('blocks.quiz.addAnswer')}
                </Button>
              </Group>
              <Textarea
                label={t('blocks.quiz.explanationN', { index: qi + 1 })}
                description={t('blocks.quiz.explanationHint')}
                autosize
                minRows={1}
                value={question.explanation ?? ''}
                onChange={(x) => {
                  const explanation = x.currentTarget.value;
                  setQuestion(qi, (q) => ({ ...q, explanation }));
                }}
                error={e[`questions.${qi}.explanation`]}
              />
            </Stack>
          )}
        </SortableList>
        <Group>
          <Button variant="default" onClick={() => form.set('questions', [...questions, newQuestion()])}>
            {t('blocks.quiz.addQuestion')}
          </Button>
        </Group>
      </Stack>
    </BlockFormFrame>
  );
};
