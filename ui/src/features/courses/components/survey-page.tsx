import { Alert, Button, Center, Checkbox, Container, Group, Loader, Paper, Radio, Stack, Text, Textarea, Title } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';
import { answerSurvey, getSurvey, type SurveyAnswer } from '../api/surveys.ts';

const SCORES = Array.from({ length: 11 }, (_, i) => i);
const category = (score: number) => (score >= 9 ? 'promoter' : score >= 7 ? 'neutral' : 'detractor');

/**
 * /anketa/{surveyId} (spec §2, a public page; issue 17 item 4): a survey (course type 9) answered
 * without logging in: each NPS question with its score from 0 to 10, the reasons of the chosen
 * score's group and an optional comment; once per person or browser. A survey that does not exist,
 * is closed or was answered already says so.
 */
export const SurveyPage = ({ surveyId }: { surveyId: number }) => {
  const { t } = useTranslation();
  const survey = useQuery({ queryKey: ['survey', surveyId], queryFn: () => getSurvey(surveyId), retry: false });
  const [answers, setAnswers] = useState<Record<number, SurveyAnswer>>({});
  const [missing, setMissing] = useState(false);
  const send = useMutation({ mutationFn: () => answerSurvey(surveyId, Object.values(answers)) });

  if (survey.isPending)
    return (
      <Center py="xl">
        <Loader role="status" aria-label={t('common.loading')} />
      </Center>
    );
  const frame = (title: string, body: React.ReactNode) => (
    <Container size="sm" py="xl">
      <Stack>
        <Title order={1} size="h2">
          {title}
        </Title>
        {body}
      </Stack>
    </Container>
  );
  if (survey.isError) {
    const status = survey.error instanceof ApiError ? survey.error.status : 0;
    return frame(
      t('pages.survey'),
      <Alert color={status === 410 ? 'yellow' : 'red'}>{t(status === 410 ? 'survey.closed' : status === 404 ? 'survey.missing' : 'survey.failed')}</Alert>,
    );
  }
  const s = survey.data;
  const answered = send.isSuccess || (send.error instanceof ApiError && send.error.status === 409);
  if (answered)
    return frame(
      s.title,
      <Alert color="teal" role="status">
        {t(send.isSuccess ? 'survey.thanks' : 'survey.already')}
      </Alert>,
    );
  const set = (blockId: number, change: Partial<SurveyAnswer>) =>
    setAnswers((all) => ({ ...all, [blockId]: { blockId, score: -1, reasons: [], comment: null, ...all[blockId], ...change } }));

  return frame(
    s.title,
    <>
      <Text style={{ whiteSpace: 'pre-line' }}>{s.description}</Text>
      {s.questions.map((q) => {
        const answer = answers[q.blockId];
        const chosen = answer && answer.score >= 0 ? answer.score : null;
        const reasons = chosen === null ? [] : q.reasons[category(chosen)];
        return (
          <Paper key={q.blockId} withBorder radius="md" p="md">
            <Stack gap="sm">
              <Radio.Group
                label={q.question}
                withAsterisk
                value={chosen === null ? null : String(chosen)}
                onChange={(v) => set(q.blockId, { score: Number(v), reasons: [] })}
                error={missing && chosen === null ? t('survey.chooseScore') : undefined}
              >
                <Group gap="xs" mt="xs">
                  {SCORES.map((score) => (
                    <Radio key={score} value={String(score)} label={String(score)} />
                  ))}
                </Group>
              </Radio.Group>
              {reasons.length > 0 ? (
                <Checkbox.Group label={t('survey.reasons')} value={answer?.reasons ?? []} onChange={(v) => set(q.blockId, { reasons: v })}>
                  <Stack gap={4} mt={4}>
                    {reasons.map((reason) => (
                      <Checkbox key={reason} value={reason} label={reason} />
                    ))}
                  </Stack>
                </Checkbox.Group>
              ) : null}
              {q.commentEnabled ? (
                <Textarea
                  label={t('survey.comment')}
                  maxLength={2000}
                  autosize
                  minRows={2}
                  value={answer?.comment ?? ''}
                  onChange={(e) => set(q.blockId, { comment: e.currentTarget.value })}
                />
              ) : null}
            </Stack>
          </Paper>
        );
      })}
      {send.isError && !answered ? <Alert color="red">{send.error.message}</Alert> : null}
      <Group>
        <Button
          loading={send.isPending}
          onClick={() => {
            const complete = s.questions.every((q) => (answers[q.blockId]?.score ?? -1) >= 0);
            setMissing(!complete);
            if (complete) send.mutate();
          }}
        >
          {t('survey.submit')}
        </Button>
      </Group>
    </>,
  );
};
