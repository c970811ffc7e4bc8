import { Group, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { TableRegion } from '../../../components/table-region.tsx';
import { formatEuroCents, formatNumber, formatPercent, formatPeriod } from '../../../lib/i18n.ts';
import { useLiveReadModels } from '../../../lib/use-live-read-models.ts';
import { costsQuery, STATS_KEY, STATS_READ_MODELS } from '../api/stats.ts';
import { Figure, StatsFrame, useAsOf } from './stats-frame.tsx';

/**
 * /admin/courses/{id}/profit (the "profit" tab of spec §2, issue 15 item 11): what the course earns
 * the platform, from the same costs read model as the costs tab: the amount billed to the sponsor
 * (spec §3 finalAmount, after the discount), less the revenue shared per view (views x sharedCost),
 * is the profit; the margin is the profit's share of the amount billed. As of any moment, live.
 */
export const ProfitPage = ({ courseId, intervalId }: { courseId: number; intervalId: number }) => {
  const { t } = useTranslation();
  const [asOf] = useAsOf();
  const query = useQuery(costsQuery(courseId, { intervalId, asOf }, 'month'));
  useLiveReadModels(STATS_READ_MODELS, STATS_KEY);
  const data = query.data;
  const sharedPerView = Number(data?.costs.sharedCost ?? 0);
  const profit = data ? data.figures.finalAmount - data.figures.shareEarnings : 0;
  const margin = data && data.figures.finalAmount > 0 ? Math.round((profit / data.figures.finalAmount) * 1000) / 10 : null;
  return (
    <StatsFrame title={t('stats.profit.title')} subtitle={data?.course.title} window={data?.window} query={query}>
      {data ? (
        <Stack gap="lg">
          <Group>
            <Figure label={t('stats.profit.billed')} value={formatEuroCents(data.figures.finalAmount)} testId="profit-billed" />
            <Figure label={t('stats.profit.shared')} value={formatEuroCents(data.figures.shareEarnings)} testId="profit-shared" />
            <Figure label={t('stats.profit.profit')} value={formatEuroCents(profit)} color={profit < 0 ? 'red.9' : 'teal.9'} testId="profit-profit" />
            <Figure label={t('stats.profit.margin')} value={formatPercent(margin)} testId="profit-margin" />
          </Group>
          <Text size="sm" c="dimmed">
            {t('stats.profit.explain', { views: formatNumber(data.figures.views), perView: formatEuroCents(sharedPerView), count: data.figures.views })}
          </Text>
          <Title order={2} size="h4">
            {t('stats.profit.byMonth')}
          </Title>
          {data.timeline.length === 0 ? (
            <Text c="dimmed">{t('stats.none')}</Text>
          ) : (
            <TableRegion label={t('stats.profit.byMonth')}>
              <Table striped data-testid="profit-timeline">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('stats.costs.period')}</Table.Th>
                    <Table.Th ta="right">{t('stats.costs.views')}</Table.Th>
                    <Table.Th ta="right">{t('stats.profit.billedSoFar')}</Table.Th>
                    <Table.Th ta="right">{t('stats.profit.profitSoFar')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.timeline.map((p) => (
                    <Table.Tr key={p.period}>
                      <Table.Td>{formatPeriod(p.period, 'month')}</Table.Td>
                      <Table.Td ta="right">{formatNumber(p.views)}</Table.Td>
                      <Table.Td ta="right">{formatEuroCents(p.finalAmount)}</Table.Td>
                      <Table.Td ta="right">{formatEuroCents(p.finalAmount - p.cumulativeViews * sharedPerView)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </TableRegion>
          )}
        </Stack>
      ) : null}
    </StatsFrame>
  );
};
