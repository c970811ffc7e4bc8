import { Alert, Box, Button, Checkbox, Group, Radio, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { answerNps, type Block, type BlockRecord, type NpsFields } from '../api/courses.ts';
import { useCourseStep } from '../hooks/use-course-step.ts';

/** spec §9: promoters 9 to 10, neutrals 7 to 8, detractors 6 or lower. */
const category = (score: number) => (score >= 9 ? 'promoter' : score >= 7 ? 'neutral' : 'detractor');
const SCORES = Array.from({ length: 11 }, (_, i) => String(i));
/**
 * Issue 33: the 0 to 10 scale is one row at any width, as a scale reads (it wrapped to two rows on a
 * phone): eleven equal columns up to 44 px each; on a 390 px phone each is still about 29 px wide and
 * 44 px tall, above the 24 px target size of WCAG 2.2 (2.5.8).
 */
const SCALE_WIDTH = 11 * 44 + 10 * 6;

/** The NPS question 0 to 10, the reasons of the chosen score's category, follow-ups and a comment. */
export const NpsBlock = ({ courseId, block, record }: { courseId: number; block: Block; record: BlockRecord | undefined }) => {
  const { t } = useTranslation();
  const nps = block.fields as NpsFields;
  const [score, setScore] = useState<string | null>(null);
  const [reasons, setReasons] = useState<string[]>([]);
  const [comment, setComment] = useState('');
  const [followUps, setFollowUps] = useState<Record<number, string>>({});
  const [error, setError] = useState<string | null>(null);
  const answer = useCourseStep(courseId, (input: Parameters<typeof answerNps>[2]) => answerNps(courseId, block.id, input));

  if (record?.done) {
    return (
      <Alert color="green" data-testid="nps-done">
        {t('courses.nps.thanks')}
      </Alert>
    );
  }
  const value = score === null ? null : Number(score);
  const offered = value === null ? [] : nps.reasons[category(value)];
  const submit = () => {
    if (value === null) {
      setError(t('courses.nps.chooseScore'));
      return;
    }
    answer.mutate({
      score: value,
      reasons: reasons.filter((r) => offered.includes(r)),
      comment: nps.commentEnabled && comment.trim() ? comment.trim() : null,
      followUps: Object.values(followUps),
    });
  };

  return (
    <Stack gap="lg">
      <Radio.Group
        label={nps.question}
        description={t('courses.nps.scale')}
        value={score}
        onChange={(v) => {
          setScore(v);
          setReasons([]);
          setError(null);
        }}
        error={error}
      >
        <Box
          mt="xs"
          maw={SCALE_WIDTH}
          data-nps-scale
          style={{ display: 'grid', gridTemplateColumns: 'repeat(11, minmax(0, 1fr))', gap: 'clamp(2px, 1vw, 6px)' }}
        >
          {SCORES.map((s) => (
            <Radio.Card
              key={s}
              value={s}
              radius="md"
              h={44}
              miw={0}
              data-score={s}
              aria-label={s}
              bg={score === s ? 'brand.8' : undefined}
              style={{ display: 'grid', placeItems: 'center' }}
            >
              <Text fw={600} c={score === s ? 'white' : undefined}>
                {s}
              </Text>
            </Radio.Card>
          ))}
        </Box>
        <Group justify="space-between" mt={4} maw={SCALE_WIDTH}>
          <Text size="xs" c="dimmed">
            {t('courses.nps.unlikely')}
          </Text>
          <Text size="xs" c="dimmed">
            {t('courses.nps.likely')}
          </Text>
        </Group>
      </Radio.Group>
      {offered.length > 0 ? (
        <Checkbox.Group label={t('courses.nps.reasons')} value={reasons} onChange={setReasons}>
          <Stack gap="xs" mt="xs">
            {offered.map((reason) => (
              <Checkbox key={reason} value={reason} label={reason} />
            ))}
          </Stack>
        </Checkbox.Group>
      ) : null}
      {(nps.followUps ?? []).map((followUp, i) => (
        <Radio.Group
          // biome-ignore lint/suspicious/noArrayIndexKey: follow-ups have no id and keep their order
          key={i}
          label={followUp.question}
          value={followUps[i] ?? null}
          onChange={(v) => setFollowUps((current) => ({ ...current, [i]: v }))}
        >
          <Stack gap="xs" mt="xs">
            {followUp.answers.map((a) => (
              <Radio key={a} value={a} label={a} />
            ))}
          </Stack>
        </Radio.Group>
      ))}
      {nps.commentEnabled ? (
        <Textarea label={t('courses.nps.comment')} value={comment} onChange={(e) => setComment(e.currentTarget.value)} maxLength={2000} autosize minRows={3} />
      ) : null}
      <Button onClick={submit} loading={answer.isPending} style={{ alignSelf: 'flex-start' }}>
        {t('courses.nps.submit')}
      </Button>
    </Stack>
  );
};
