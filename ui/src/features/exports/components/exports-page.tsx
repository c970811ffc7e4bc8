import { Alert, Badge, Button, Center, Loader, NativeSelect, Progress, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  EXPORT_FIELDS_REQUIRED,
  EXPORT_KIND_REQUIRED,
  EXPORT_USER_STATUSES,
  type ExportKind,
  exportFileName,
  exportRequestRule,
} from '../../../../../domain/exports/export.rules.ts';
import { BorderedTable } from '../../../components/bordered-table.tsx';
import { DateField } from '../../../components/date-fields.tsx';
import { FormPanel } from '../../../components/form-panel.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { downloadFile } from '../../../lib/download.ts';
import { formatDate, formatDateTime, formatDay, formatNumber } from '../../../lib/i18n.ts';
import { EXPORTS_KEY, type ExportItem, type ExportOptions, exportOptionsQuery, exportsQuery, requestExport } from '../api/exports.ts';

/** Which parameters each kind asks for (decision 0026); every one is required (spec §5). */
const FIELDS: Readonly<Record<ExportKind, readonly Field[]>> = {
  users: ['companyId', 'status'],
  participants: ['courseId', 'intervalId'],
  nps: ['courseId', 'from', 'to'],
  costs: ['companyId', 'from', 'to'],
  consents: ['companyId', 'from', 'to'],
  chambers: ['chamber', 'from', 'to'],
};
type Field = 'companyId' | 'status' | 'courseId' | 'intervalId' | 'chamber' | 'from' | 'to';
type Values = Record<Field, string>;
const EMPTY: Values = { companyId: '', status: '', courseId: '', intervalId: '', chamber: '', from: '', to: '' };
const NUMERIC: readonly Field[] = ['companyId', 'courseId', 'intervalId', 'chamber'];
const CHAMBERS = [1, 2, 3] as const;

/** The form's text values as the request the rule checks: an empty field stays missing. */
const toRequest = (kind: ExportKind | '', values: Values) => ({
  ...(kind ? { kind } : {}),
  parameters: Object.fromEntries(
    (kind ? FIELDS[kind] : []).flatMap((field) => (values[field] === '' ? [] : [[field, NUMERIC.includes(field) ? Number(values[field]) : values[field]]])),
  ),
});

// Outline badges in dark shades: readable on white (WCAG AA).
const STATUS_COLOUR = { initiated: 'gray.7', computing: 'blue.9', finished: '#1b6e2f', error: 'red.9' } as const;

/** `2026-03-01` as dates are shown in every table: 1. mar. 2026. */
const day = (value: string | number | undefined) => (/^\d{4}-\d{2}-\d{2}$/.test(String(value)) ? formatDay(String(value)) : String(value ?? ''));

const useParametersText = () => {
  const { t } = useTranslation();
  return (item: ExportItem) => {
    const p = item.parameters;
    const parts: string[] = [];
    if ('companyId' in p)
      parts.push(`${t('exports.fields.companyId')}: ${Number(p.companyId) === 0 ? t('exports.allCompanies') : (item.companyName ?? `#${p.companyId}`)}`);
    if ('courseId' in p) parts.push(`${t('exports.fields.courseId')}: ${item.courseTitle ?? `#${p.courseId}`}`);
    if ('intervalId' in p)
      parts.push(`${t('exports.fields.intervalId')}: ${Number(p.intervalId) === 0 ? t('exports.allTime') : t('exports.interval', { n: p.intervalId })}`);
    if ('chamber' in p) parts.push(`${t('exports.fields.chamber')}: ${t(`exports.chambers.${p.chamber}`)}`);
    if ('status' in p) parts.push(`${t('exports.fields.status')}: ${t(`exports.userStatuses.${p.status}`)}`);
    if ('from' in p) parts.push(`${t('exports.period')}: ${day(p.from)} – ${day(p.to)}`);
    return parts.join('; ');
  };
};

const ExportForm = ({ options }: { options: ExportOptions }) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<ExportKind | ''>(options.kinds.length === 1 ? (options.kinds[0] as ExportKind) : '');
  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [general, setGeneral] = useState<string | null>(null);
  const set = (field: Field, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: '' }));
  };
  const show = (issues: readonly { field: string | null; message: string }[]) => {
    const next: Record<string, string> = {};
    for (const issue of issues) if (issue.field) next[issue.field.replace(/^parameters\./, '')] ??= issue.message;
    setErrors(next);
    // spec §8: one message for what is missing; other messages stay on their fields.
    const missing = issues.some((i) => i.message === EXPORT_FIELDS_REQUIRED || i.message === EXPORT_KIND_REQUIRED);
    setGeneral(missing ? EXPORT_FIELDS_REQUIRED : (issues.find((i) => !i.field)?.message ?? null));
  };
  const ask = useMutation({
    mutationFn: requestExport,
    onSuccess: async () => {
      notifications.show({ color: 'teal', message: t('exports.queued') });
      await queryClient.invalidateQueries({ queryKey: EXPORTS_KEY });
    },
    onError: (error) => {
      if (error instanceof ApiError) show(error.errors);
      else notifications.show({ color: 'red', message: t('exports.failed') });
    },
  });
  const submit = () => {
    const parsed = exportRequestRule.safeParse(toRequest(kind, values));
    if (!parsed.success) {
      show(parsed.error.issues.map((issue) => ({ field: issue.path.map(String).join('.') || null, message: issue.message })));
      return;
    }
    setErrors({});
    setGeneral(null);
    ask.mutate(parsed.data);
  };
  // Mantine shows `true` as a red outline: the message itself is said once, above the fields.
  const errorOf = (field: string) => (errors[field] ? (errors[field] === EXPORT_FIELDS_REQUIRED ? true : errors[field]) : undefined);
  const choose = (label: string) => [{ value: '', label, disabled: true }];
  const companies = kind === 'costs' ? options.costCompanies : options.companies;
  const course = options.courses.find((c) => String(c.id) === values.courseId);
  const select = (field: Field, data: { value: string; label: string; disabled?: boolean }[]) => (
    <NativeSelect
      key={field}
      label={t(`exports.fields.${field}`)}
      withAsterisk
      data={data}
      value={values[field]}
      onChange={(e) => set(field, e.currentTarget.value)}
      error={errorOf(field)}
      data-testid={`export-${field}`}
    />
  );
  const fields: Record<Field, () => ReactNode> = {
    companyId: () =>
      select('companyId', [
        ...choose(t('exports.chooseCompany')),
        ...(kind === 'costs' ? [] : [{ value: '0', label: t('exports.allCompanies') }]),
        ...companies.map((c) => ({ value: String(c.id), label: c.name })),
      ]),
    status: () =>
      select('status', [...choose(t('exports.chooseStatus')), ...EXPORT_USER_STATUSES.map((s) => ({ value: s, label: t(`exports.userStatuses.${s}`) }))]),
    courseId: () =>
      select('courseId', [...choose(t('exports.chooseCourse')), ...options.courses.map((c) => ({ value: String(c.id), label: `${c.title} (#${c.id})` }))]),
    intervalId: () =>
      select('intervalId', [
        ...choose(t('exports.chooseInterval')),
        { value: '0', label: t('exports.allTime') },
        ...(course?.intervals ?? []).map((interval, i) => ({
          value: String(i + 1),
          label: `${t('exports.interval', { n: i + 1 })}: ${formatDate(interval.startsAt)} – ${formatDate(interval.stopsAt)}`,
        })),
      ]),
    chamber: () =>
      select('chamber', [...choose(t('exports.chooseChamber')), ...CHAMBERS.map((c) => ({ value: String(c), label: t(`exports.chambers.${c}`) }))]),
    from: () => (
      <DateField
        key="from"
        label={t('exports.fields.from')}
        withAsterisk
        value={values.from}
        onChange={(day) => set('from', day ?? '')}
        error={errorOf('from')}
      />
    ),
    to: () => (
      <DateField key="to" label={t('exports.fields.to')} withAsterisk value={values.to} onChange={(day) => set('to', day ?? '')} error={errorOf('to')} />
    ),
  };
  return (
    <FormPanel title={t('exports.new')} onSubmit={submit} submitLabel={t('exports.start')} submitting={ask.isPending}>
      {general ? (
        <Alert color="red" role="alert" data-testid="export-form-error">
          {general}
        </Alert>
      ) : null}
      <NativeSelect
        label={t('exports.kind')}
        withAsterisk
        data={[...choose(t('exports.chooseKind')), ...options.kinds.map((k) => ({ value: k, label: t(`exports.kinds.${k}`) }))]}
        value={kind}
        onChange={(e) => {
          setKind(e.currentTarget.value as ExportKind);
          setErrors({});
          setGeneral(null);
        }}
        error={errors.kind || undefined}
        data-testid="export-kind"
      />
      {kind ? (
        <Text size="sm" c="dimmed">
          {t(`exports.about.${kind}`)}
        </Text>
      ) : null}
      {kind ? FIELDS[kind].map((field) => fields[field]()) : null}
    </FormPanel>
  );
};

const StatusCell = ({ item }: { item: ExportItem }) => {
  const { t } = useTranslation();
  const percent = item.progress.total > 0 ? Math.round((item.progress.done / item.progress.total) * 100) : 0;
  return (
    <Stack gap={4}>
      <Badge variant="outline" color={STATUS_COLOUR[item.status]} data-testid="export-status" data-status={item.status}>
        {t(`exports.statuses.${item.status}`)}
      </Badge>
      {item.status === 'computing' ? (
        <>
          <Progress value={percent} size="sm" aria-label={t('exports.progress')} data-testid="export-progress" />
          <Text size="xs" c="dimmed">
            {item.progress.total > 0
              ? t('exports.progressText', { percent, done: formatNumber(item.progress.done), total: formatNumber(item.progress.total) })
              : t('exports.starting')}
          </Text>
        </>
      ) : null}
      {item.status === 'error' && item.error ? (
        <Text size="xs" c="red.9" data-testid="export-error">
          {item.error}
        </Text>
      ) : null}
      {item.status === 'finished' && item.rows !== null ? (
        <Text size="xs" c="dimmed">
          {t('exports.rows', { count: item.rows })}
        </Text>
      ) : null}
    </Stack>
  );
};

/**
 * /admin/exports (spec §2, §3 Export record, §4 statuses; issue 17 item 2; decision 0026): choose
 * what to export and its parameters (all required, spec §5 and §8), then follow it in the list: in
 * queue, computing with its progress, finished with the file to download, or the reason it failed.
 * Each person sees and may start only the kinds they may read: an admin all six, an editor users,
 * participants, NPS and chamber credit points, an accountant the costs of their company, an auditor consents.
 */
export const ExportsPage = () => {
  const { t } = useTranslation();
  const options = useQuery(exportOptionsQuery);
  const list = useQuery(exportsQuery);
  const parameters = useParametersText();
  const [downloading, setDownloading] = useState<number | null>(null);
  const download = async (item: ExportItem) => {
    setDownloading(item.id);
    try {
      await downloadFile(`/api/exports/${item.id}/file`, exportFileName(item.id, item.kind));
    } catch {
      notifications.show({ color: 'red', message: t('exports.downloadFailed') });
    } finally {
      setDownloading(null);
    }
  };
  if (options.isPending)
    return (
      <Center py="xl">
        <Loader role="status" aria-label={t('common.loading')} />
      </Center>
    );
  if (options.isError || !options.data) return <Alert color="red">{t('exports.loadFailed')}</Alert>;
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('pages.admin.exports')}
      </Title>
      <Text c="dimmed" size="sm">
        {t('exports.intro')}
      </Text>
      <ExportForm options={options.data} />
      <Title order={2} size="h4">
        {t('exports.list')}
      </Title>
      {list.data && list.data.items.length === 0 ? <Text c="dimmed">{t('exports.none')}</Text> : null}
      {list.data && list.data.items.length > 0 ? (
        <BorderedTable label={t('exports.list')} minWidth={900} aria-label={t('exports.list')} data-testid="exports">
          <Table.Thead>
            <Table.Tr>
              <Table.Th miw={130}>{t('exports.columns.createdAt')}</Table.Th>
              <Table.Th>{t('exports.columns.kind')}</Table.Th>
              <Table.Th>{t('exports.columns.parameters')}</Table.Th>
              <Table.Th miw={180}>{t('exports.columns.status')}</Table.Th>
              <Table.Th>{t('exports.columns.user')}</Table.Th>
              <Table.Th>{t('exports.columns.file')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.data.items.map((item) => (
              <Table.Tr key={item.id} data-testid="export-row" data-export={item.id} data-kind={item.kind}>
                <Table.Td>{formatDateTime(item.createdAt)}</Table.Td>
                <Table.Td>{t(`exports.kinds.${item.kind}`)}</Table.Td>
                <Table.Td>{parameters(item)}</Table.Td>
                <Table.Td>
                  <StatusCell item={item} />
                </Table.Td>
                <Table.Td>{item.user.name}</Table.Td>
                <Table.Td>
                  {item.fileAvailable ? (
                    <Button
                      size="xs"
                      variant="light"
                      leftSection={<IconDownload size={14} aria-hidden />}
                      loading={downloading === item.id}
                      onClick={() => void download(item)}
                      aria-label={t('exports.downloadNamed', { name: exportFileName(item.id, item.kind) })}
                    >
                      {t('exports.download')}
                    </Button>
                  ) : item.fileDiscarded ? (
                    <Text size="xs" c="dimmed">
                      {t('exports.discarded')}
                    </Text>
                  ) : null}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </BorderedTable>
      ) : null}
    </Stack>
  );
};
