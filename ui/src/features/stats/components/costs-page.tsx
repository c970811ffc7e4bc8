import { Button, Group, Modal, NumberInput, SegmentedControl, Select, Stack, Table, Text, Textarea, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Bar, CartesianGrid, ComposedChart, LabelList, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { ConfirmButton } from '../../../components/confirm-button.tsx';
import { TableRegion } from '../../../components/table-region.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { formatDateTime, formatEuroCents, formatNumber, formatPeriod } from '../../../lib/i18n.ts';
import { useLiveReadModels } from '../../../lib/use-live-read-models.ts';
import { type Costs, costsQuery, STATS_KEY, STATS_READ_MODELS, setCourseCosts, withdrawCourseCosts } from '../api/stats.ts';
import { CHART_MARGIN, labelsFit, valueLabels, xAxisTitle, yAxisTitle } from './chart-labels.ts';
import { Figure, StatsFrame, useAsOf } from './stats-frame.tsx';

const AMOUNTS = [
  'archiveAmount',
  'productionAmount',
  'viewAmount',
  'detailedNpsAmount',
  'insidePoolAmount',
  'otherAmount',
  'fixedAmount',
  'sharedCost',
] as const;
const BUCKETS = ['day', 'week', 'month'] as const;

type Company = { readonly id: number; readonly name: string };
type DealRights = { readonly create: boolean; readonly update: boolean; readonly withdraw: boolean };

/**
 * Agreeing (1053) or changing (1054) the course's deal: the costs and the company billed. Amounts
 * in euros here, cents in the API; refused by the server while the course is active.
 */
const CostsEditor = ({
  courseId,
  costs,
  deal,
  companies,
  onClose,
}: {
  courseId: number;
  costs: Costs['costs'];
  deal: 'new' | 'existing';
  companies: readonly Company[];
  onClose: () => void;
}) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<Record<string, number | string>>(() =>
    Object.fromEntries([
      ...AMOUNTS.map((k) => [k, Number(costs[k] ?? 0) / 100]),
      ['discount', Number(costs.discount ?? 0)],
      ['comment', String(costs.comment ?? '')],
    ]),
  );
  const [companyId, setCompanyId] = useState<string | null>(costs.companyId ? String(costs.companyId) : null);
  const [error, setError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: () =>
      setCourseCosts(
        courseId,
        {
          ...Object.fromEntries(AMOUNTS.map((k) => [k, Math.round(Number(values[k] ?? 0) * 100)])),
          discount: Number(values.discount ?? 0),
          comment: String(values.comment ?? ''),
          activeCampaignPackage: costs.activeCampaignPackage ?? 0,
          companyId: companyId ? Number(companyId) : null,
        },
        deal,
      ),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: STATS_KEY });
      notifications.show({ color: 'green', message: t('stats.costs.saved') });
      onClose();
    },
    onError: (e) => setError(e instanceof ApiError ? e.message : t('stats.loadFailed')),
  });
  return (
    <Modal opened onClose={onClose} title={t(deal === 'new' ? 'stats.costs.create' : 'stats.costs.edit')} centered size="lg">
      <Stack>
        <Select
          label={t('stats.costs.company')}
          placeholder={t('form.none')}
          data={companies.map((c) => ({ value: String(c.id), label: c.name }))}
          value={companyId}
          onChange={setCompanyId}
          clearable
          searchable
        />
        {AMOUNTS.map((k) => (
          <NumberInput
            key={k}
            label={t(`stats.costs.fields.${k}`)}
            value={values[k]}
            onChange={(v) => setValues((c) => ({ ...c, [k]: v }))}
            decimalScale={2}
            decimalSeparator=","
            thousandSeparator="."
            min={0}
            suffix=" €"
          />
        ))}
        <NumberInput
          label={t('stats.costs.fields.discount')}
          value={values.discount}
          onChange={(v) => setValues((c) => ({ ...c, discount: v }))}
          min={0}
          max={100}
          suffix=" %"
        />
        <Textarea
          label={t('stats.costs.fields.comment')}
          value={String(values.comment ?? '')}
          onChange={(e) => setValues((c) => ({ ...c, comment: e.currentTarget.value }))}
        />
        {error ? (
          <Text c="red.9" role="alert">
            {error}
          </Text>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button onClick={() => save.mutate()} loading={save.isPending}>
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
};

/** /admin/courses/{id}/costs/{intervalId}: the amounts, views and the timeline per day, week or month; edit only with 1054. */
export const CostsPage = ({
  courseId,
  intervalId,
  deal,
  companies,
}: {
  courseId: number;
  intervalId: number;
  deal: DealRights;
  companies: readonly Company[];
}) => {
  const { t } = useTranslation();
  const [asOf] = useAsOf();
  const [bucket, setBucket] = useState<(typeof BUCKETS)[number]>('day');
  const [editing, setEditing] = useState(false);
  const query = useQuery(costsQuery(courseId, { intervalId, asOf }, bucket));
  const queryClient = useQueryClient();
  const withdraw = useMutation({
    mutationFn: () => withdrawCourseCosts(courseId),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: STATS_KEY });
      notifications.show({ color: 'green', message: t('stats.costs.withdrawn') });
    },
    onError: (e) => notifications.show({ color: 'red', message: e instanceof ApiError ? e.message : t('stats.loadFailed') }),
  });
  useLiveReadModels(STATS_READ_MODELS, STATS_KEY);
  const data = query.data;
  return (
    <StatsFrame title={t('stats.costs.title')} subtitle={data?.course.title} window={data?.window} query={query}>
      {data ? (
        <Stack gap="lg">
          <Group>
            <Figure label={t('stats.costs.views')} value={formatNumber(data.figures.views)} testId="costs-views" />
            <Figure label={t('stats.costs.total')} value={formatEuroCents(data.figures.totalAmount)} />
            <Figure label={t('stats.costs.final')} value={formatEuroCents(data.figures.finalAmount)} testId="costs-final" />
            <Figure label={t('stats.costs.shareEarnings')} value={formatEuroCents(data.figures.shareEarnings)} />
          </Group>
          <Group justify="space-between">
            <SegmentedControl
              value={bucket}
              onChange={(v) => setBucket(v as (typeof BUCKETS)[number])}
              data={BUCKETS.map((b) => ({ value: b, label: t(`stats.costs.buckets.${b}`) }))}
            />
            <Group>
              {(data.setAt ? deal.update : deal.create) && data.locked ? (
                <Text size="sm" c="dimmed" data-testid="costs-locked">
                  {t('stats.costs.locked')}
                </Text>
              ) : null}
              {(data.setAt ? deal.update : deal.create) && !data.locked ? (
                <Button onClick={() => setEditing(true)}>{t(data.setAt ? 'stats.costs.edit' : 'stats.costs.create')}</Button>
              ) : null}
              {data.setAt && deal.withdraw && !data.locked ? (
                <ConfirmButton
                  label={t('stats.costs.withdraw')}
                  question={t('stats.costs.withdrawQuestion')}
                  pending={withdraw.isPending}
                  onConfirm={() => withdraw.mutateAsync().catch(() => undefined)}
                />
              ) : null}
            </Group>
          </Group>
          {data.timeline.length === 0 ? (
            <Text c="dimmed">{t('stats.none')}</Text>
          ) : (
            <div style={{ width: '100%', height: 280 }} role="img" aria-label={t('stats.costs.timeline')}>
              <ResponsiveContainer>
                <ComposedChart data={data.timeline.map((p) => ({ ...p, final: p.finalAmount / 100 }))} margin={CHART_MARGIN}>
                  <CartesianGrid strokeDasharray="3 3" />
                  <XAxis dataKey="period" tickFormatter={(p: string) => formatPeriod(p, bucket)} label={xAxisTitle(t('stats.axes.period'))} />
                  <YAxis yAxisId="views" allowDecimals={false} tickFormatter={(v: number) => formatNumber(v)} label={yAxisTitle(t('stats.axes.views'))} />
                  <YAxis
                    yAxisId="eur"
                    orientation="right"
                    tickFormatter={(v: number) => formatNumber(v)}
                    label={yAxisTitle(t('stats.axes.amountEur'), 'right')}
                    width={72}
                  />
                  <Tooltip
                    labelFormatter={(p) => formatPeriod(String(p), bucket)}
                    formatter={(value, name) => (name === t('stats.costs.final') ? formatEuroCents(Number(value) * 100) : formatNumber(Number(value)))}
                  />
                  <Legend verticalAlign="top" />
                  <Bar yAxisId="views" dataKey="views" name={t('stats.costs.views')} fill="#0b6e69" isAnimationActive={false}>
                    {labelsFit(data.timeline.length) ? <LabelList dataKey="views" {...valueLabels(formatNumber)} /> : null}
                  </Bar>
                  <Line yAxisId="eur" dataKey="final" name={t('stats.costs.final')} stroke="#5f3dc4" isAnimationActive={false}>
                    {labelsFit(data.timeline.length) ? <LabelList dataKey="final" {...valueLabels((v) => formatEuroCents(v * 100))} /> : null}
                  </Line>
                </ComposedChart>
              </ResponsiveContainer>
            </div>
          )}
          <Title order={2} size="h4">
            {t('stats.costs.items')}
          </Title>
          <TableRegion label={t('stats.costs.items')}>
            <Table striped data-testid="costs-items">
              <Table.Tbody>
                {AMOUNTS.map((k) => (
                  <Table.Tr key={k}>
                    <Table.Td>{t(`stats.costs.fields.${k}`)}</Table.Td>
                    <Table.Td ta="right">{formatEuroCents(Number(data.costs[k] ?? 0))}</Table.Td>
                  </Table.Tr>
                ))}
                <Table.Tr>
                  <Table.Td>{t('stats.costs.fields.discount')}</Table.Td>
                  <Table.Td ta="right">{formatNumber(Number(data.costs.discount ?? 0))} %</Table.Td>
                </Table.Tr>
              </Table.Tbody>
            </Table>
          </TableRegion>
          <Text size="sm" c="dimmed">
            {data.setAt ? t('stats.costs.setAt', { at: formatDateTime(data.setAt) }) : t('stats.costs.defaults')}
            {data.setAt ? ` · ${t('stats.costs.billedTo', { company: companies.find((c) => c.id === data.costs.companyId)?.name ?? t('form.none') })}` : ''}
            {data.costs.comment ? ` · ${String(data.costs.comment)}` : ''}
          </Text>
          <Title order={2} size="h4">
            {t('stats.costs.timeline')}
          </Title>
          <TableRegion label={t('stats.costs.timeline')}>
            <Table striped data-testid="costs-timeline">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('stats.costs.period')}</Table.Th>
                  <Table.Th ta="right">{t('stats.costs.views')}</Table.Th>
                  <Table.Th ta="right">{t('stats.costs.viewsAmount')}</Table.Th>
                  <Table.Th ta="right">{t('stats.costs.final')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.timeline.map((p) => (
                  <Table.Tr key={p.period}>
                    <Table.Td>{formatPeriod(p.period, bucket)}</Table.Td>
                    <Table.Td ta="right">{formatNumber(p.views)}</Table.Td>
                    <Table.Td ta="right">{formatEuroCents(p.viewsAmount)}</Table.Td>
                    <Table.Td ta="right">{formatEuroCents(p.finalAmount)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </TableRegion>
          {editing ? (
            <CostsEditor
              courseId={courseId}
              costs={data.costs}
              deal={data.setAt ? 'existing' : 'new'}
              companies={companies}
              onClose={() => setEditing(false)}
            />
          ) : null}
        </Stack>
      ) : null}
    </StatsFrame>
  );
};
