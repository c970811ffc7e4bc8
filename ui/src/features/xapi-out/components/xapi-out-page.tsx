import { Alert, Badge, Center, Group, Loader, NativeSelect, Pagination, Paper, SegmentedControl, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { backfillRule, DELIVERY_STATUSES, type DeliveryStatus } from '../../../../../domain/xapi-out/xapi-out.rules.ts';
import { BorderedTable } from '../../../components/bordered-table.tsx';
import { ColumnHeads } from '../../../components/column-heads.tsx';
import { DateField } from '../../../components/date-fields.tsx';
import { FormPanel } from '../../../components/form-panel.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { formatDateTime, formatNumber } from '../../../lib/i18n.ts';
import {
  DELIVERIES_PAGE_SIZE,
  type Delivery,
  deliveriesQuery,
  startBackfill,
  XAPI_OUT_KEY,
  type XapiOutOverview,
  xapiOutOverviewQuery,
} from '../api/xapi-out.ts';

// Outline badges in dark shades: readable on white (WCAG AA), like the exports' and the mail log's.
const STATUS_COLOUR: Readonly<Record<DeliveryStatus, string>> = { pending: 'gray.7', sent: '#1b6e2f', failed: 'red.9' };

type Mode = 'from' | 'position';

/** "Pošlji znova od …": a day or an event position, checked by the API's own rule (one of the two). */
const BackfillForm = ({ running }: { running: boolean }) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [mode, setMode] = useState<Mode>('from');
  const [values, setValues] = useState<Record<Mode, string>>({ from: '', position: '' });
  const [errors, setErrors] = useState<Partial<Record<Mode, string>>>({});
  const start = useMutation({
    mutationFn: startBackfill,
    onSuccess: async () => {
      notifications.show({ color: 'teal', message: t('xapiOut.backfill.started') });
      setValues({ from: '', position: '' });
      await queryClient.invalidateQueries({ queryKey: XAPI_OUT_KEY });
    },
    onError: (error) => {
      const fieldErrors = error instanceof ApiError ? error.errors.filter((e) => e.field === 'from' || e.field === 'position') : [];
      if (fieldErrors.length > 0) setErrors({ [mode]: fieldErrors[0]?.message });
      else notifications.show({ color: 'red', message: error instanceof ApiError ? error.message : t('xapiOut.backfill.failed') });
    },
  });
  const submit = () => {
    const value = values[mode].trim();
    const parsed = backfillRule.safeParse(value === '' ? {} : { [mode]: value });
    if (!parsed.success) {
      // The rule puts "one of the two" on `from`: here it belongs to the field shown.
      setErrors({ [mode]: parsed.error.issues[0]?.message });
      return;
    }
    setErrors({});
    start.mutate(parsed.data);
  };
  return (
    <FormPanel title={t('xapiOut.backfill.title')} onSubmit={submit} submitLabel={t('xapiOut.backfill.submit')} submitting={start.isPending}>
      <Text size="sm" c="dimmed">
        {t('xapiOut.backfill.about')}
      </Text>
      {running ? (
        <Alert color="blue" role="status">
          {t('xapiOut.backfill.wait')}
        </Alert>
      ) : null}
      <SegmentedControl
        aria-label={t('xapiOut.backfill.mode')}
        value={mode}
        onChange={(next) => {
          setMode(next as Mode);
          setErrors({});
        }}
        data={[
          { value: 'from', label: t('xapiOut.backfill.fromDay') },
          { value: 'position', label: t('xapiOut.backfill.fromPosition') },
        ]}
        maw={420}
      />
      {mode === 'from' ? (
        <DateField
          label={t('xapiOut.backfill.day')}
          withAsterisk
          value={values.from}
          onChange={(day) => {
            setValues((v) => ({ ...v, from: day ?? '' }));
            setErrors({});
          }}
          error={errors.from}
          maw={260}
          data-testid="xapi-backfill-day"
        />
      ) : (
        <TextInput
          label={t('xapiOut.backfill.position')}
          description={t('xapiOut.backfill.positionHint')}
          withAsterisk
          value={values.position}
          onChange={(event) => {
            const position = event.currentTarget.value;
            setValues((v) => ({ ...v, position }));
            setErrors({});
          }}
          error={errors.position}
          maw={260}
          data-testid="xapi-backfill-position"
        />
      )}
    </FormPanel>
  );
};

/** Where statements go, how far the log was read, the counts by status and a backfill running. */
const Destination = ({ overview }: { overview: XapiOutOverview }) => {
  const { t } = useTranslation();
  if (!overview.endpoint) return <Alert color="yellow">{t('xapiOut.notConfigured')}</Alert>;
  const destination = overview.destination;
  return (
    <Paper withBorder radius="md" p="md">
      <Stack gap="xs">
        <Text>
          {t('xapiOut.endpoint')}: <strong>{overview.endpoint}</strong>
        </Text>
        {destination ? (
          <>
            <Text size="sm" c="dimmed">
              {t('xapiOut.readUpTo', { position: destination.readUpTo, head: overview.head ?? '–' })}
            </Text>
            <Group gap="xs" data-testid="xapi-counts">
              {DELIVERY_STATUSES.map((status) => (
                <Badge key={status} variant="outline" color={STATUS_COLOUR[status]}>
                  {t(`xapiOut.counts.${status}`)}: {formatNumber(destination.counts[status])}
                </Badge>
              ))}
            </Group>
            {destination.backfill ? (
              <Text size="sm" data-testid="xapi-backfill-running">
                {t('xapiOut.backfillRunning', { until: destination.backfill.until })}
              </Text>
            ) : null}
          </>
        ) : (
          <Text size="sm" c="dimmed">
            {t('xapiOut.notStarted')}
          </Text>
        )}
      </Stack>
    </Paper>
  );
};

const StatusCell = ({ item }: { item: Delivery }) => {
  const { t } = useTranslation();
  return (
    <Stack gap={2}>
      <Badge variant="outline" color={STATUS_COLOUR[item.status]} data-status={item.status}>
        {t(`xapiOut.statuses.${item.status}`)}
      </Badge>
      {item.status === 'pending' && item.nextAttemptAt && item.attempts > 0 ? (
        <Text size="xs" c="dimmed">
          {t('xapiOut.nextAttempt', { at: formatDateTime(item.nextAttemptAt) })}
        </Text>
      ) : null}
      {item.accepted > 1 ? (
        <Text size="xs" c="dimmed">
          {t('xapiOut.accepted', { times: item.accepted })}
        </Text>
      ) : null}
    </Stack>
  );
};

/**
 * /admin/zapisi-xapi (issue 35 item 5, decision 0061): the platform's learning events as xAPI
 * statements sent to the external LRS. Where they go and how far, the delivery log by status
 * (čaka, poslano, napaka) with attempts and the last error, and "Pošlji znova od …".
 */
export const XapiOutPage = () => {
  const { t } = useTranslation();
  const [status, setStatus] = useState<DeliveryStatus | null>(null);
  const [page, setPage] = useState(1);
  const overview = useQuery(xapiOutOverviewQuery);
  const live = Boolean(overview.data?.destination && (overview.data.destination.counts.pending > 0 || overview.data.destination.backfill));
  const log = useQuery({ ...deliveriesQuery(status, page, live), enabled: Boolean(overview.data?.endpoint) });
  if (overview.isPending)
    return (
      <Center py="xl">
        <Loader role="status" aria-label={t('common.loading')} />
      </Center>
    );
  if (overview.isError || !overview.data) return <Alert color="red">{t('xapiOut.loadFailed')}</Alert>;
  const pages = Math.max(1, Math.ceil((log.data?.total ?? 0) / DELIVERIES_PAGE_SIZE));
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('pages.admin.xapiOut')}
      </Title>
      <Text c="dimmed" size="sm">
        {t('xapiOut.intro')}
      </Text>
      <Destination overview={overview.data} />
      {overview.data.endpoint ? (
        <>
          <BackfillForm running={Boolean(overview.data.destination?.backfill)} />
          <Title order={2} size="h4">
            {t('xapiOut.log')}
          </Title>
          <NativeSelect
            label={t('xapiOut.filter')}
            data={[{ value: '', label: t('xapiOut.allStatuses') }, ...DELIVERY_STATUSES.map((s) => ({ value: s, label: t(`xapiOut.statuses.${s}`) }))]}
            value={status ?? ''}
            onChange={(event) => {
              setStatus((event.currentTarget.value || null) as DeliveryStatus | null);
              setPage(1);
            }}
            maw={220}
            data-testid="xapi-status-filter"
          />
          {log.isError ? <Alert color="red">{t('xapiOut.loadFailed')}</Alert> : null}
          {log.data && log.data.items.length === 0 ? <Text c="dimmed">{t('xapiOut.none')}</Text> : null}
          {log.data && log.data.items.length > 0 ? (
            <BorderedTable label={t('xapiOut.log')} minWidth={1000} data-testid="xapi-deliveries">
              <ColumnHeads
                columns={(['eventAt', 'statement', 'course', 'position', 'status', 'attempts', 'lastError', 'sentAt'] as const).map((key) =>
                  t(`xapiOut.columns.${key}`),
                )}
              />
              <Table.Tbody>
                {log.data.items.map((item) => (
                  <Table.Tr key={item.statementId} data-testid="xapi-delivery" data-status={item.status}>
                    <Table.Td>{formatDateTime(item.eventAt)}</Table.Td>
                    <Table.Td>
                      <Text size="sm">{t(`xapiOut.verbs.${item.verb}`, { defaultValue: item.verb })}</Text>
                      <Text size="xs" c="dimmed">
                        {t(`xapiOut.eventTypes.${item.eventType}`, { defaultValue: item.eventType })}
                      </Text>
                    </Table.Td>
                    <Table.Td>{item.courseTitle ?? (item.courseId ? `#${item.courseId}` : '')}</Table.Td>
                    <Table.Td>
                      <Text size="xs" ff="monospace">
                        {item.position}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <StatusCell item={item} />
                    </Table.Td>
                    <Table.Td ta="right">{formatNumber(item.attempts)}</Table.Td>
                    <Table.Td>
                      {item.lastError ? (
                        <Text size="xs" c={item.status === 'failed' ? 'red.9' : undefined}>
                          {item.lastError}
                        </Text>
                      ) : null}
                    </Table.Td>
                    <Table.Td>{item.sentAt ? formatDateTime(item.sentAt) : ''}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </BorderedTable>
          ) : null}
          {pages > 1 ? <Pagination total={pages} value={page} onChange={setPage} aria-label={t('xapiOut.pages')} /> : null}
        </>
      ) : null}
    </Stack>
  );
};
