import { Anchor, Group, SegmentedControl, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Bar, BarChart, CartesianGrid, Cell, LabelList, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { NpsBreakdownTable } from '../../../components/nps-breakdown-table.tsx';
import { TableRegion } from '../../../components/table-region.tsx';
import { formatDateTime, formatNps, formatNumber } from '../../../lib/i18n.ts';
import { NPS_LEVEL_COLORS } from '../../../lib/nps-level-colors.ts';
import { useLiveReadModels } from '../../../lib/use-live-read-models.ts';
import { type NpsSummary, npsCommunitiesQuery, npsOverviewQuery, STATS_KEY, STATS_READ_MODELS } from '../api/stats.ts';
import { CHART_MARGIN, valueLabels, xAxisTitle, yAxisTitle } from './chart-labels.ts';
import { Figure, StatsFrame, useAsOf } from './stats-frame.tsx';

const CATEGORY_COLORS = { detractor: '#b42318', neutral: '#8a5a00', promoter: '#1b6e2f' } as const;
const categoryOf = (score: number) => (score >= 9 ? 'promoter' : score >= 7 ? 'neutral' : 'detractor');

const Score = ({ nps }: { nps: NpsSummary }) => {
  const { t } = useTranslation();
  return (
    <Group>
      <Figure label={t('stats.nps.score')} value={formatNps(nps.score)} color={NPS_LEVEL_COLORS[nps.level]} testId="nps-score" />
      <Figure label={t('stats.nps.grade')} value={t(`stats.nps.grades.${nps.grade}`)} color={NPS_LEVEL_COLORS[nps.level]} />
      <Figure label={t('stats.nps.answers')} value={formatNumber(nps.answers)} testId="nps-answers" />
      <Figure label={t('stats.nps.promoters')} value={formatNumber(nps.promoters)} color={CATEGORY_COLORS.promoter} />
      <Figure label={t('stats.nps.neutrals')} value={formatNumber(nps.neutrals)} color={CATEGORY_COLORS.neutral} />
      <Figure label={t('stats.nps.detractors')} value={formatNumber(nps.detractors)} color={CATEGORY_COLORS.detractor} />
    </Group>
  );
};

/** /admin/courses/{id}/nps/{blockId}/overview/{intervalId}: the score, its distribution, the follow-up reasons and comments; live. */
export const NpsOverviewPage = ({ courseId, blockId, intervalId }: { courseId: number; blockId: number; intervalId: number }) => {
  const { t } = useTranslation();
  const [asOf] = useAsOf();
  const query = useQuery(npsOverviewQuery(courseId, blockId, { intervalId, asOf }));
  useLiveReadModels(STATS_READ_MODELS, STATS_KEY);
  const data = query.data;
  return (
    <StatsFrame title={t('stats.nps.title')} subtitle={data?.course.title} window={data?.window} query={query}>
      {data ? (
        <Stack gap="lg">
          <Score nps={data.nps} />
          <div style={{ width: '100%', height: 260 }} aria-label={t('stats.nps.distribution')} role="img">
            <ResponsiveContainer>
              <BarChart data={data.nps.distribution} margin={CHART_MARGIN}>
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis dataKey="score" label={xAxisTitle(t('stats.axes.score'))} />
                <YAxis allowDecimals={false} tickFormatter={(v: number) => formatNumber(v)} label={yAxisTitle(t('stats.axes.answers'))} />
                <Tooltip formatter={(value) => [formatNumber(Number(value)), t('stats.nps.answers')]} />
                <Bar dataKey="count" isAnimationActive={false}>
                  <LabelList dataKey="count" {...valueLabels(formatNumber)} />
                  {data.nps.distribution.map((d) => (
                    <Cell key={d.score} fill={CATEGORY_COLORS[categoryOf(d.score)]} />
                  ))}
                </Bar>
              </BarChart>
            </ResponsiveContainer>
          </div>
          <Title order={2} size="h4">
            {t('stats.nps.reasons')}
          </Title>
          {data.nps.reasons.length === 0 ? (
            <Text c="dimmed">{t('stats.none')}</Text>
          ) : (
            <TableRegion label={t('stats.nps.reasons')}>
              <Table striped>
                <Table.Tbody>
                  {data.nps.reasons.map((r) => (
                    <Table.Tr key={`${r.category}-${r.reason}`}>
                      <Table.Td>{r.reason}</Table.Td>
                      <Table.Td>{t(`stats.nps.categories.${r.category}`)}</Table.Td>
                      <Table.Td ta="right">{formatNumber(r.count)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </TableRegion>
          )}
          <Title order={2} size="h4">
            {t('stats.nps.comments')}
          </Title>
          {data.nps.comments.length === 0 ? (
            <Text c="dimmed">{t('stats.none')}</Text>
          ) : (
            <Stack gap="xs">
              {data.nps.comments.map((c) => (
                <Text key={`${c.at}-${c.comment}`} size="sm">
                  <Text span fw={700} c={CATEGORY_COLORS[categoryOf(c.score)]}>
                    {c.score}
                  </Text>{' '}
                  {c.comment}{' '}
                  <Text span c="dimmed" size="xs">
                    ({formatDateTime(c.at)})
                  </Text>
                </Text>
              ))}
            </Stack>
          )}
        </Stack>
      ) : null}
    </StatsFrame>
  );
};

const KINDS = ['unit', 'company', 'group', 'profession'] as const;

/** /admin/courses/{id}/nps/{blockId}/communities/{intervalId}: the score per unit, company, community group or profession. */
export const NpsCommunitiesPage = ({ courseId, blockId, intervalId }: { courseId: number; blockId: number; intervalId: number }) => {
  const { t } = useTranslation();
  const [asOf] = useAsOf();
  const [kind, setKind] = useState<(typeof KINDS)[number]>('unit');
  const query = useQuery(npsCommunitiesQuery(courseId, blockId, { intervalId, asOf }, kind));
  useLiveReadModels(STATS_READ_MODELS, STATS_KEY);
  const data = query.data;
  return (
    <StatsFrame title={t('stats.nps.communitiesTitle')} subtitle={data?.course.title} window={data?.window} query={query}>
      <Stack gap="md">
        <SegmentedControl
          value={kind}
          onChange={(v) => setKind(v as (typeof KINDS)[number])}
          data={KINDS.map((k) => ({ value: k, label: t(`stats.kinds.${k}`) }))}
        />
        {data && data.rows.length === 0 ? <Text c="dimmed">{t('stats.none')}</Text> : null}
        {data && data.rows.length > 0 ? (
          <>
            <div style={{ width: '100%', height: Math.max(160, data.rows.length * 36) }} role="img" aria-label={t('stats.nps.communitiesTitle')}>
              <ResponsiveContainer>
                <BarChart
                  data={data.rows.map((r) => ({ name: r.name, score: r.score ?? 0, level: r.level }))}
                  layout="vertical"
                  margin={{ ...CHART_MARGIN, left: 24, right: 48 }}
                >
                  <CartesianGrid strokeDasharray="3 3" />
                  <XAxis type="number" domain={[-100, 100]} tickFormatter={(v: number) => formatNumber(v)} label={xAxisTitle(t('stats.axes.nps'))} />
                  <YAxis type="category" dataKey="name" width={160} />
                  <Tooltip formatter={(value) => [formatNps(Number(value)), t('stats.nps.score')]} />
                  <Bar dataKey="score" isAnimationActive={false}>
                    <LabelList dataKey="score" {...valueLabels(formatNps, 'right')} />
                    {data.rows.map((r) => (
                      <Cell key={r.id} fill={NPS_LEVEL_COLORS[r.level]} />
                    ))}
                  </Bar>
                </BarChart>
              </ResponsiveContainer>
            </div>
            <TableRegion label={t('pages.admin.courseNpsCommunities')}>
              <NpsBreakdownTable
                data-testid="nps-communities"
                kindLabel={t(`stats.kinds.${kind}`)}
                rows={data.rows}
                name={(r) =>
                  /* Issue 18: a unit's row leads to the course's success in that unit (spec §2's community success page). */
                  kind === 'unit' ? (
                    <Anchor
                      component={Link}
                      to={`/admin/courses/${courseId}/communities/${r.id}/success/${intervalId}`}
                      title={t('stats.success.communityTitle')}
                    >
                      {r.name}
                    </Anchor>
                  ) : (
                    r.name
                  )
                }
              />
            </TableRegion>
          </>
        ) : null}
      </Stack>
    </StatsFrame>
  );
};
