import { Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Bar, CartesianGrid, ComposedChart, LabelList, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { ColumnHeads, numeric } from '../../../components/column-heads.tsx';
import { TableRegion } from '../../../components/table-region.tsx';
import { formatMonth, formatNps, formatNumber } from '../../../lib/i18n.ts';
import { platformTrendsQuery } from '../api/stats.ts';
import { CHART_MARGIN, valueLabels, xAxisTitle, yAxisTitle } from './chart-labels.ts';

const COLORS = { users: '#0b6e69', enrollments: '#1c7ed6', completions: '#5f3dc4', certificates: '#e8590c', creditPoints: '#2b8a3e', nps: '#c2255c' };

/** The table's columns of figures, one a month. */
const TREND_COLUMNS = ['users', 'enrollments', 'completions', 'certificates', 'creditPoints', 'nps', 'npsAnswers'] as const;

const number = (value: unknown) => (typeof value === 'number' ? formatNumber(value) : '–');

/** A chart of the months, its x axis in Slovenian month names ("nov. 2026"). */
const MonthChart = ({ label, monthTitle, data, children }: { label: string; monthTitle: string; data: readonly object[]; children: ReactNode }) => (
  <div style={{ width: '100%', height: 260 }} role="img" aria-label={label} data-testid="trend-chart">
    <ResponsiveContainer>
      <ComposedChart data={[...data]} margin={CHART_MARGIN}>
        <CartesianGrid strokeDasharray="3 3" />
        <XAxis dataKey="month" tickFormatter={(m: string) => formatMonth(m)} label={xAxisTitle(monthTitle)} />
        {children}
        <Tooltip labelFormatter={(m) => formatMonth(String(m))} formatter={(value) => number(value)} />
        <Legend verticalAlign="top" />
      </ComposedChart>
    </ResponsiveContainer>
  </div>
);

/**
 * /admin/stats trends (issue 17 item 7): the last 12 months (Ljubljana), new users, courses started
 * and completed, certificates and credit points issued, NPS of the answers given each month; charts,
 * then the same numbers in a table. Live with the page (the `stats` read model).
 */
export const PlatformTrends = ({ asOf }: { asOf: string | null }) => {
  const { t } = useTranslation();
  const query = useQuery(platformTrendsQuery(asOf));
  if (!query.data) return query.isError ? <Text c="red.9">{t('stats.loadFailed')}</Text> : null;
  const months = query.data.months;
  const data = months.map((m) => ({ ...m, score: m.nps.score }));
  return (
    <Stack gap="md" data-testid="platform-trends">
      <Title order={2} size="h4">
        {t('stats.trends.title')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('stats.trends.intro')}
      </Text>
      <MonthChart label={t('stats.trends.activity')} monthTitle={t('stats.axes.month')} data={data}>
        <YAxis allowDecimals={false} tickFormatter={(v: number) => formatNumber(v)} label={yAxisTitle(t('stats.axes.people'))} />
        <Bar dataKey="users" name={t('stats.trends.users')} fill={COLORS.users} isAnimationActive={false}>
          <LabelList dataKey="users" {...valueLabels(formatNumber, 'top', true)} />
        </Bar>
        <Bar dataKey="enrollments" name={t('stats.trends.enrollments')} fill={COLORS.enrollments} isAnimationActive={false}>
          <LabelList dataKey="enrollments" {...valueLabels(formatNumber, 'top', true)} />
        </Bar>
        <Bar dataKey="completions" name={t('stats.trends.completions')} fill={COLORS.completions} isAnimationActive={false}>
          <LabelList dataKey="completions" {...valueLabels(formatNumber, 'top', true)} />
        </Bar>
      </MonthChart>
      <MonthChart label={t('stats.trends.issued')} monthTitle={t('stats.axes.month')} data={data}>
        <YAxis yAxisId="count" allowDecimals={false} tickFormatter={(v: number) => formatNumber(v)} label={yAxisTitle(t('stats.trends.certificates'))} />
        <YAxis yAxisId="points" orientation="right" tickFormatter={(v: number) => formatNumber(v)} label={yAxisTitle(t('stats.axes.creditPoints'), 'right')} />
        <Bar yAxisId="count" dataKey="certificates" name={t('stats.trends.certificates')} fill={COLORS.certificates} isAnimationActive={false}>
          <LabelList dataKey="certificates" {...valueLabels(formatNumber, 'top', true)} />
        </Bar>
        <Line yAxisId="points" dataKey="creditPoints" name={t('stats.trends.creditPoints')} stroke={COLORS.creditPoints} isAnimationActive={false}>
          <LabelList dataKey="creditPoints" {...valueLabels(formatNumber, 'top', true)} />
        </Line>
      </MonthChart>
      <MonthChart label={t('stats.trends.npsChart')} monthTitle={t('stats.axes.month')} data={data}>
        <YAxis domain={[-100, 100]} ticks={[-100, -50, 0, 50, 100]} tickFormatter={(v: number) => formatNumber(v)} label={yAxisTitle(t('stats.axes.nps'))} />
        <Line dataKey="score" name={t('stats.trends.nps')} stroke={COLORS.nps} connectNulls={false} isAnimationActive={false}>
          <LabelList dataKey="score" {...valueLabels(formatNps)} />
        </Line>
      </MonthChart>
      <TableRegion label={t('stats.trends.table')}>
        <Table striped data-testid="trends-table">
          <Table.Caption>{t('stats.trends.table')}</Table.Caption>
          <ColumnHeads scope="col" columns={[t('stats.trends.month'), ...numeric(TREND_COLUMNS.map((key) => t(`stats.trends.${key}`)))]} />
          <Table.Tbody>
            {months.map((m) => (
              <Table.Tr key={m.month} data-month={m.month}>
                <Table.Th scope="row" fw="normal">
                  {formatMonth(m.month)}
                </Table.Th>
                <Table.Td ta="right">{formatNumber(m.users)}</Table.Td>
                <Table.Td ta="right">{formatNumber(m.enrollments)}</Table.Td>
                <Table.Td ta="right">{formatNumber(m.completions)}</Table.Td>
                <Table.Td ta="right">{formatNumber(m.certificates)}</Table.Td>
                <Table.Td ta="right">{formatNumber(m.creditPoints)}</Table.Td>
                <Table.Td ta="right">{formatNps(m.nps.score)}</Table.Td>
                <Table.Td ta="right">{formatNumber(m.nps.answers)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </TableRegion>
    </Stack>
  );
};
