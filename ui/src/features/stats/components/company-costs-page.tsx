import { Anchor, Group, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { Bar, BarChart, CartesianGrid, LabelList, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { numeric } from '../../../components/column-heads.tsx';
import { FiguresTable } from '../../../components/figures-table.tsx';
import { TableRegion } from '../../../components/table-region.tsx';
import { formatEuroCents, formatNumber, formatPeriod } from '../../../lib/i18n.ts';
import { useLiveReadModels } from '../../../lib/use-live-read-models.ts';
import { companyCostsQuery, STATS_KEY, STATS_READ_MODELS } from '../api/stats.ts';
import { CHART_MARGIN, labelsFit, valueLabels, xAxisTitle, yAxisTitle } from './chart-labels.ts';
import { Figure, StatsFrame, useAsOf } from './stats-frame.tsx';

const BUCKETS = ['day', 'week', 'month'] as const;

/**
 * /stroski (not in spec §2; issue 7 "a cost timeline per company"): the courses billed to a company,
 * views and amounts per period summed over them, and a link to each course's costs. The accountant
 * sees their own company; an admin chooses one.
 */
export const CompanyCostsPage = ({ companies }: { companies: readonly { id: number; name: string }[] }) => {
  const { t } = useTranslation();
  const [asOf] = useAsOf();
  const [params, setParams] = useSearchParams();
  const [bucket, setBucket] = useState<(typeof BUCKETS)[number]>('month');
  const companyId = Number(params.get('company')) || companies[0]?.id || 0;
  const query = useQuery({ ...companyCostsQuery(companyId, asOf, bucket), enabled: companyId > 0 });
  useLiveReadModels(STATS_READ_MODELS, STATS_KEY);
  const data = query.data;
  const periods = new Map<string, { period: string; views: number; viewsAmount: number }>();
  for (const c of data?.courses ?? []) {
    for (const p of c.timeline) {
      const entry = periods.get(p.period) ?? { period: p.period, views: 0, viewsAmount: 0 };
      entry.views += p.views;
      entry.viewsAmount += p.viewsAmount;
      periods.set(p.period, entry);
    }
  }
  const timeline = [...periods.values()].sort((a, b) => a.period.localeCompare(b.period));
  const now = new Date().toISOString();
  const window = data ? { intervalId: 0, from: new Date(0).toISOString(), to: asOf ?? now, asOf: asOf ?? now } : undefined;
  if (companies.length === 0) return <Text c="dimmed">{t('stats.company.none')}</Text>;
  return (
    <StatsFrame title={t('pages.companyCosts')} window={window} query={companyId > 0 ? query : { isPending: false, isError: false, error: null }}>
      <Stack gap="lg">
        {companies.length > 1 ? (
          <Select
            label={t('stats.kinds.company')}
            data={companies.map((c) => ({ value: String(c.id), label: c.name }))}
            value={String(companyId)}
            onChange={(value) => value && setParams({ company: value })}
            allowDeselect={false}
            w={320}
          />
        ) : (
          <Text fw={700}>{companies[0]?.name}</Text>
        )}
        {data ? (
          <>
            <Group>
              <Figure label={t('stats.costs.views')} value={formatNumber(data.views)} />
              <Figure label={t('stats.costs.total')} value={formatEuroCents(data.totalAmount)} />
              <Figure label={t('stats.costs.final')} value={formatEuroCents(data.finalAmount)} testId="company-final" />
            </Group>
            <SegmentedControl
              value={bucket}
              onChange={(v) => setBucket(v as (typeof BUCKETS)[number])}
              data={BUCKETS.map((b) => ({ value: b, label: t(`stats.costs.buckets.${b}`) }))}
            />
            {timeline.length > 0 ? (
              <div style={{ width: '100%', height: 260 }} role="img" aria-label={t('stats.costs.timeline')}>
                <ResponsiveContainer>
                  <BarChart data={timeline.map((p) => ({ ...p, amount: p.viewsAmount / 100 }))} margin={CHART_MARGIN}>
                    <CartesianGrid strokeDasharray="3 3" />
                    <XAxis dataKey="period" tickFormatter={(p: string) => formatPeriod(p, bucket)} label={xAxisTitle(t('stats.axes.period'))} />
                    <YAxis tickFormatter={(v: number) => formatNumber(v)} label={yAxisTitle(t('stats.axes.amountEur'))} width={72} />
                    <Tooltip labelFormatter={(p) => formatPeriod(String(p), bucket)} formatter={(value) => formatEuroCents(Number(value) * 100)} />
                    <Legend verticalAlign="top" />
                    <Bar dataKey="amount" name={t('stats.costs.viewsAmount')} fill="#0b6e69" isAnimationActive={false}>
                      {labelsFit(timeline.length) ? <LabelList dataKey="amount" {...valueLabels((v) => formatEuroCents(v * 100))} /> : null}
                    </Bar>
                  </BarChart>
                </ResponsiveContainer>
              </div>
            ) : null}
            {data.courses.length === 0 ? (
              <Text c="dimmed">{t('stats.company.noCourses')}</Text>
            ) : (
              <TableRegion label={t('pages.companyCosts')}>
                <FiguresTable
                  data-testid="company-courses"
                  columns={[t('stats.platform.course'), ...numeric([t('stats.costs.views'), t('stats.costs.total'), t('stats.costs.final')])]}
                  rows={data.courses.map((c) => ({
                    key: c.course.id,
                    name: (
                      <Anchor component={Link} to={`/admin/courses/${c.course.id}/costs/0`}>
                        {c.course.title}
                      </Anchor>
                    ),
                    figures: [formatNumber(c.figures.views), formatEuroCents(c.figures.totalAmount), formatEuroCents(c.figures.finalAmount)],
                  }))}
                />
              </TableRegion>
            )}
          </>
        ) : null}
      </Stack>
    </StatsFrame>
  );
};
