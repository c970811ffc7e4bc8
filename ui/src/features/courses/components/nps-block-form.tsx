import { Button, Grid, Group, Paper, Select, Stack, Switch, TagsInput, Text, Textarea, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { NPS_SETS, npsBlockRule } from '../../../../../domain/courses/course.rules.ts';
import { NPS_SET_DEFAULTS, type NpsSetId } from '../../../../../domain/courses/nps-sets.rules.ts';
import { listProfessionGroupOptions } from '../api/admin-blocks.ts';
import { type BlockTarget, useBlockForm } from '../hooks/use-block-form.ts';
import { BlockFormFrame, BlockNameField } from './block-form-frame.tsx';
import { RemoveRowButton, withoutIndex } from './remove-row-button.tsx';

type Nps = z.input<typeof npsBlockRule>;
type Group3 = 'detractor' | 'neutral' | 'promoter';
const GROUPS: Group3[] = ['detractor', 'neutral', 'promoter'];

const fromSet = (set: NpsSetId) => ({
  question: NPS_SET_DEFAULTS[set].question,
  reasons: {
    detractor: [...NPS_SET_DEFAULTS[set].reasons.detractor],
    neutral: [...NPS_SET_DEFAULTS[set].reasons.neutral],
    promoter: [...NPS_SET_DEFAULTS[set].reasons.promoter],
  },
});

export const EMPTY_NPS: Nps = { kind: 'nps', name: '', set: 1, ...fromSet(1), commentEnabled: true, followUps: [] };

/**
 * The NPS survey editor (spec §3): the question, a predefined set (1 to 5 and 8) whose question and
 * detractor, neutral and promoter reasons fill in when it is chosen and stay editable, an optional
 * comment, and follow-up questions for everyone or for one profession group.
 */
export const NpsBlockForm = (props: { title: string; initial: Nps; target: BlockTarget; backTo: string; actions?: ReactNode }) => {
  const { t } = useTranslation();
  const { form, submit, submitting } = useBlockForm(npsBlockRule, props.initial, props.target);
  const groups = useQuery({ queryKey: ['admin-blocks', 'profession-groups'], queryFn: listProfessionGroupOptions });
  const v = form.values;
  const e = form.errors;
  const followUps = v.followUps ?? [];
  const setFollowUp = (index: number, change: Partial<(typeof followUps)[number]>) =>
    form.set(
      'followUps',
      followUps.map((f, i) => (i === index ? { ...f, ...change } : f)),
    );
  const chooseSet = (next: NpsSetId) => {
    const previous = NPS_SET_DEFAULTS[v.set as NpsSetId];
    const defaults = fromSet(next);
    form.set('set', next);
    // A question the author wrote stays; one that came from the previous set follows the new set.
    if (v.question.trim() === '' || v.question === previous?.question) form.set('question', defaults.question);
    form.set('reasons', defaults.reasons);
  };

  return (
    <BlockFormFrame title={props.title} backTo={props.backTo} submit={submit} submitting={submitting} actions={props.actions}>
      <Grid>
        <Grid.Col span={{ base: 12, md: 6 }}>
          <BlockNameField value={v.name} onChange={(name) => form.set('name', name)} error={e.name} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 6 }}>
          <Select
            label={t('blocks.nps.set')}
            description={t('blocks.nps.setHint')}
            withAsterisk
            allowDeselect={false}
            data={NPS_SETS.map((set) => ({ value: String(set), label: `${set} · ${NPS_SET_DEFAULTS[set].label}` }))}
            value={String(v.set)}
            onChange={(x) => (x ? chooseSet(Number(x) as NpsSetId) : undefined)}
            error={e.set}
          />
        </Grid.Col>
        <Grid.Col span={12}>
          <Textarea
            label={t('blocks.nps.question')}
            withAsterisk
            autosize
            minRows={2}
            value={v.question}
            onChange={(x) => form.set('question', x.currentTarget.value)}
            error={e.question}
          />
        </Grid.Col>
        {GROUPS.map((group) => (
          <Grid.Col key={group} span={{ base: 12, md: 4 }}>
            <TagsInput
              label={t(`blocks.nps.reasons.${group}`)}
              description={t(`blocks.nps.reasonsHint.${group}`)}
              clearable
              maxTags={50}
              value={v.reasons[group] ?? []}
              onChange={(values) => form.set('reasons', { ...v.reasons, [group]: values })}
              error={e[`reasons.${group}`] ?? Object.entries(e).find(([key, message]) => key.startsWith(`reasons.${group}.`) && message)?.[1]}
            />
          </Grid.Col>
        ))}
        <Grid.Col span={12}>
          <Switch label={t('blocks.nps.comment')} checked={Boolean(v.commentEnabled)} onChange={(x) => form.set('commentEnabled', x.currentTarget.checked)} />
        </Grid.Col>
      </Grid>
      <Stack gap="xs">
        <Title order={2} size="h4">
          {t('blocks.nps.followUps')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('blocks.nps.followUpsHint')}
        </Text>
        {followUps.map((followUp, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a follow-up has no id; rows are appended or removed.
          <Paper key={index} withBorder p="sm" data-testid={`follow-up-${index}`}>
            <Grid align="flex-start">
              <Grid.Col span={{ base: 12, md: 4 }}>
                <Select
                  label={t('blocks.nps.forGroup')}
                  data={[{ value: '', label: t('blocks.nps.everyone') }, ...(groups.data ?? []).map((g) => ({ value: String(g.id), label: g.name }))]}
                  value={followUp.professionGroupId === null ? '' : String(followUp.professionGroupId)}
                  allowDeselect={false}
                  onChange={(x) => setFollowUp(index, { professionGroupId: x ? Number(x) : null })}
                />
              </Grid.Col>
              <Grid.Col span={{ base: 12, md: 7 }}>
                <Textarea
                  label={t('blocks.nps.followUpQuestion', { index: index + 1 })}
                  withAsterisk
                  autosize
                  minRows={1}
                  value={followUp.question}
                  onChange={(x) => setFollowUp(index, { question: x.currentTarget.value })}
                  error={e[`followUps.${index}.question`]}
                />
              </Grid.Col>
              <Grid.Col span={{ base: 12, md: 1 }}>
                <RemoveRowButton
                  mt={{ md: 28 }}
                  label={t('blocks.nps.removeFollowUp', { index: index + 1 })}
                  onRemove={() => form.set('followUps', withoutIndex(followUps, index))}
                />
              </Grid.Col>
              <Grid.Col span={12}>
                <TagsInput
                  label={t('blocks.nps.followUpAnswers')}
                  description={t('blocks.nps.followUpAnswersHint')}
                  withAsterisk
                  value={followUp.answers}
                  onChange={(answers) => setFollowUp(index, { answers })}
                  error={e[`followUps.${index}.answers`]}
                />
              </Grid.Col>
            </Grid>
          </Paper>
        ))}
        <Group>
          <Button variant="default" onClick={() => form.set('followUps', [...followUps, { professionGroupId: null, question: '', answers: [] }])}>
            {t('blocks.nps.addFollowUp')}
          </Button>
        </Group>
      </Stack>
    </BlockFormFrame>
  );
};
