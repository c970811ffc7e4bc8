import { Group, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { YAxis } from 'recharts';
import { numeric } from '../../../components/column-heads.tsx';
import { FiguresTable } from '../../../components/figures-table.tsx';
import { TableRegion } from '../../../components/table-region.tsx';
import { formatNumber, formatPercent } from '../../../lib/i18n.ts';
import { useLiveReadModels } from '../../../lib/use-live-read-models.ts';
import { STATS_KEY, STATS_READ_MODELS, successQuery } from '../api/stats.ts';
import { yAxisTitle } from './chart-labels.ts';
import { PackageAnswers } from './package-answers.tsx';
import { PairedBarChart } from './paired-bar-chart.tsx';
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
              <PairedBarChart
                label={t('stats.success.title')}
                xTitle={t('stats.axes.quiz')}
                data={s.quizzes.map((q, i) => ({
                  name: `${t('stats.success.quiz')} ${i + 1}`,
                  success: q.successRate ?? 0,
                  first: q.firstAttemptRate ?? 0,
                }))}
                series={[
                  { key: 'success', name: t('stats.success.successRate') },
                  { key: 'first', name: t('stats.success.firstAttemptRate') },
                ]}
                format={formatPercent}
                yAxis={<YAxis domain={[0, 100]} unit=" %" label={yAxisTitle(t('stats.axes.percent'))} />}
              />
              <TableRegion label={t('pages.admin.courseSuccess')}>
                <FiguresTable
                  columns={[
                    t('stats.success.quiz'),
                    ...numeric((['attempted', 'passed', 'firstAttemptPassed', 'successRate', 'averageScore'] as const).map((key) => t(`stats.success.${key}`))),
                  ]}
                  rows={s.quizzes.map((q, i) => ({
                    key: q.blockId,
                    name: `${t('stats.success.quiz')} ${i + 1}`,
                    figures: [
                      formatNumber(q.attempted),
                      formatNumber(q.passed),
                      formatNumber(q.firstAttemptPassed),
                      formatPercent(q.successRate),
                      formatPercent(q.averageScore),
                    ],
                  }))}
                />
              </TableRegion>
              <PackageAnswers courseId={courseId} blockIds={s.quizzes.map((q) => q.blockId)} />
            </>
          )}
        </Stack>
      ) : null}
    </StatsFrame>
  );
};
