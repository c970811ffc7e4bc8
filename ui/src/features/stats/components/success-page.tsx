import { Group, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Bar, BarChart, CartesianGrid, LabelList, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { TableRegion } from '../../../components/table-region.tsx';
import { formatNumber, formatPercent } from '../../../lib/i18n.ts';
import { useLiveReadModels } from '../../../lib/use-live-read-models.ts';
import { STATS_KEY, STATS_READ_MODELS, successQuery } from '../api/stats.ts';
import { CHART_MARGIN, labelsFit, valueLabels, xAxisTitle, yAxisTitle } from './chart-labels.ts';
import { Figure, StatsFrame, useAsOf } from './stats-frame.tsx';

/**
 * /admin/courses/{id}/success/{intervalId} and /admin/courses/{id}/communities/{communityId}/success/{intervalId}:
 * passed over attempted, first-attempt passes, completions; live.
 */
export const SuccessPage = ({ courseId, intervalId, communityId }: { courseId: number; intervalId: number; communityId: number | null }) => {
  const { t } = useTranslation();
  const [asOf] = useAsOf();
  const query = useQuery(successQuery(courseId, { intervalId, asOf }, communityId));
  useLiveReadModels(STATS_READ_MODELS, STATS_KEY);
  const data = query.data;
  const s = data?.success;
  return (
    <StatsFrame
      title={communityId ? t('stats.success.communityTitle') : t('stats.success.title')}
      subtitle={data?.course.title}
      window={data?.window}
      query={query}
    >
      {s ? (
        <Stack gap="lg">
          <Group>
            <Figure label={t('stats.success.started')} value={formatNumber(s.started)} testId="success-started" />
            <Figure label={t('stats.success.completed')} value={formatNumber(s.completed)} />
            <Figure label={t('stats.success.completionRate')} value={formatPercent(s.completionRate)} />
            <Figure label={t('stats.success.successRate')} value={formatPercent(s.successRate)} testId="success-rate" />
            <Figure label={t('stats.success.firstAttemptRate')} value={formatPercent(s.firstAttemptRate)} />
          </Group>
          {s.quizzes.length === 0 ? (
            <Text c="dimmed">{t('stats.none')}</Text>
          ) : (
            <>
              <div style={{ width: '100%', height: 260 }} role="img" aria-label={t('stats.success.title')}>
                <ResponsiveContainer>
                  <BarChart
                    data={s.quizzes.map((q, i) => ({
                      name: `${t('stats.success.quiz')} ${i + 1}`,
                      success: q.successRate ?? 0,
                      first: q.firstAttemptRate ?? 0,
                    }))}
                    margin={CHART_MARGIN}
                  >
                    <CartesianGrid strokeDasharray="3 3" />
                    <XAxis dataKey="name" label={xAxisTitle(t('stats.axes.quiz'))} />
                    <YAxis domain={[0, 100]} unit=" %" label={yAxisTitle(t('stats.axes.percent'))} />
                    <Tooltip formatter={(value) => formatPercent(Number(value))} />
                    <Legend verticalAlign="top" />
                    <Bar dataKey="success" name={t('stats.success.successRate')} fill="#0b6e69" isAnimationActive={false}>
                      {labelsFit(s.quizzes.length * 2) ? <LabelList dataKey="success" {...valueLabels(formatPercent)} /> : null}
                    </Bar>
                    <Bar dataKey="first" name={t('stats.success.firstAttemptRate')} fill="#5f3dc4" isAnimationActive={false}>
                      {labelsFit(s.quizzes.length * 2) ? <LabelList dataKey="first" {...valueLabels(formatPercent)} /> : null}
                    </Bar>
                  </BarChart>
                </ResponsiveContainer>
              </div>
              <TableRegion label={t('pages.admin.courseSuccess')}>
                <Table striped>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('stats.success.quiz')}</Table.Th>
                      <Table.Th ta="right">{t('stats.success.attempted')}</Table.Th>
                      <Table.Th ta="right">{t('stats.success.passed')}</Table.Th>
                      <Table.Th ta="right">{t('stats.success.firstAttemptPassed')}</Table.Th>
                      <Table.Th ta="right">{t('stats.success.successRate')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {s.quizzes.map((q, i) => (
                      <Table.Tr key={q.blockId}>
                        <Table.Td>{`${t('stats.success.quiz')} ${i + 1}`}</Table.Td>
                        <Table.Td ta="right">{formatNumber(q.attempted)}</Table.Td>
                        <Table.Td ta="right">{formatNumber(q.passed)}</Table.Td>
                        <Table.Td ta="right">{formatNumber(q.firstAttemptPassed)}</Table.Td>
                        <Table.Td ta="right">{formatPercent(q.successRate)}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </TableRegion>
            </>
          )}
        </Stack>
      ) : null}
    </StatsFrame>
  );
};
