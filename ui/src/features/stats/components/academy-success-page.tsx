import { Group, Select, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { YAxis } from 'recharts';
import { numeric } from '../../../components/column-heads.tsx';
import { FiguresTable } from '../../../components/figures-table.tsx';
import { TableRegion } from '../../../components/table-region.tsx';
import { formatNumber, formatPercent } from '../../../lib/i18n.ts';
import { useLiveReadModels } from '../../../lib/use-live-read-models.ts';
import { academySuccessQuery, STATS_KEY, STATS_READ_MODELS, unitOptionsQuery } from '../api/stats.ts';
import { yAxisTitle } from './chart-labels.ts';
import { PairedBarChart } from './paired-bar-chart.tsx';
import { Figure, StatsFrame, useAsOf } from './stats-frame.tsx';

/** /admin/academies/{id}/success/{intervalId} and its community variant: each course of the series and whole-series completions; live. */
export const AcademySuccessPage = ({ academyId, intervalId, communityId }: { academyId: number; intervalId: number; communityId: number | null }) => {
  const { t } = useTranslation();
  const [asOf] = useAsOf();
  const query = useQuery(academySuccessQuery(academyId, { intervalId, asOf }, communityId));
  useLiveReadModels(STATS_READ_MODELS, STATS_KEY);
  const data = query.data;
  const window = data ? { intervalId, from: new Date(0).toISOString(), to: data.asOf, asOf: data.asOf } : undefined;
  // Issue 18: the series' success in one unit, which no page led to before; the server refuses a unit out of reach.
  const navigate = useNavigate();
  const units = useQuery(unitOptionsQuery);
  const unitPicker = (
    <Select
      label={t('stats.academy.unit')}
      placeholder={t('stats.academy.allUnits')}
      data={(units.data?.items ?? []).map((u) => ({ value: String(u.id), label: u.company_name ? `${u.name} (${u.company_name})` : u.name }))}
      value={communityId === null ? null : String(communityId)}
      onChange={(value) =>
        navigate(value ? `/admin/academies/${academyId}/communities/${value}/success/${intervalId}` : `/admin/academies/${academyId}/success/${intervalId}`)
      }
      searchable
      clearable
      maw={360}
      data-testid="academy-unit"
    />
  );
  return (
    <StatsFrame title={communityId ? t('stats.academy.communityTitle') : t('stats.academy.title')} subtitle={data?.academy.title} window={window} query={query}>
      {data ? (
        <Stack gap="lg">
          {unitPicker}
          <Group>
            <Figure label={t('stats.academy.completedSeries')} value={formatNumber(data.completedSeries)} testId="academy-series" />
            <Figure label={t('stats.success.successRate')} value={formatPercent(data.successRate)} />
            <Figure label={t('stats.success.completionRate')} value={formatPercent(data.completionRate)} />
          </Group>
          {data.courses.length === 0 ? (
            <Text c="dimmed">{t('stats.none')}</Text>
          ) : (
            <>
              <PairedBarChart
                label={t('stats.academy.title')}
                xTitle={t('stats.axes.course')}
                data={data.courses.map((c) => ({ name: c.course.title, started: c.success.started, completed: c.success.completed }))}
                series={[
                  { key: 'started', name: t('stats.success.started') },
                  { key: 'completed', name: t('stats.success.completed') },
                ]}
                format={formatNumber}
                yAxis={<YAxis allowDecimals={false} tickFormatter={(v: number) => formatNumber(v)} label={yAxisTitle(t('stats.axes.people'))} />}
              />
              <TableRegion label={t('pages.admin.academySuccess')}>
                <FiguresTable
                  columns={[
                    t('stats.platform.course'),
                    ...numeric((['started', 'completed', 'successRate', 'firstAttemptRate'] as const).map((key) => t(`stats.success.${key}`))),
                  ]}
                  rows={data.courses.map((c) => ({
                    key: c.course.id,
                    name: c.course.title,
                    figures: [
                      formatNumber(c.success.started),
                      formatNumber(c.success.completed),
                      formatPercent(c.success.successRate),
                      formatPercent(c.success.firstAttemptRate),
                    ],
                  }))}
                />
              </TableRegion>
            </>
          )}
        </Stack>
      ) : null}
    </StatsFrame>
  );
};
