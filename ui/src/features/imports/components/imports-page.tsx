import {
  Alert,
  Anchor,
  Badge,
  Button,
  Center,
  Checkbox,
  FileButton,
  Group,
  Loader,
  Pagination,
  Paper,
  Progress,
  SegmentedControl,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload, IconFileSpreadsheet } from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { IMPORT_COLUMNS, IMPORT_MAX_BYTES, IMPORT_MESSAGES } from '../../../../../domain/imports/user-import.rules.ts';
import { TableRegion } from '../../../components/table-region.tsx';
import { formatDateTime, formatNumber } from '../../../lib/i18n.ts';
import {
  downloadTemplate,
  getImport,
  type ImportDetail,
  type ImportStatus,
  listImportRows,
  listImports,
  type RowOutcome,
  startImport,
  uploadImport,
} from '../api/imports.ts';

// Dark shades: readable on white (WCAG AA), like the mail log's badges.
const STATUS_COLOUR: Record<ImportStatus, string> = { blocked: 'red.9', ready: 'blue.9', running: 'blue.9', completed: '#1b6e2f', failed: 'red.9' };
const OUTCOMES: readonly RowOutcome[] = ['created', 'updated', 'skipped', 'failed'];
const HEADER_OF = Object.fromEntries(IMPORT_COLUMNS.map((c) => [c.key, c.header])) as Record<string, string>;

const StatusBadge = ({ status }: { status: ImportStatus }) => {
  const { t } = useTranslation();
  return (
    <Badge variant="outline" color={STATUS_COLOUR[status]} data-testid="import-status">
      {t(`imports.status.${status}`)}
    </Badge>
  );
};

/** The precheck's problems, by row and column, as the server words them (spec §8). */
const ProblemsTable = ({ detail }: { detail: ImportDetail }) => {
  const { t } = useTranslation();
  return (
    <Stack gap="xs">
      <Alert color="red" title={IMPORT_MESSAGES.blocked}>
        {t('imports.problems', { count: detail.problemCount, n: formatNumber(detail.problemCount) })}
        {detail.problemCount > detail.problems.length
          ? ` ${t('imports.problemsShown', { shown: formatNumber(detail.problems.length), count: detail.problems.length })}`
          : ''}
      </Alert>
      <TableRegion label={t('imports.problemsTable')} maxHeight={480}>
        <Table striped aria-label={t('imports.problemsTable')} data-testid="import-problems">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('imports.row')}</Table.Th>
              <Table.Th>{t('imports.column')}</Table.Th>
              <Table.Th>{t('imports.problem')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {detail.problems.map((problem, index) => (
              // A row may have several problems in one column: the position in the list tells them apart.
              // biome-ignore lint/suspicious/noArrayIndexKey: the list never reorders.
              <Table.Tr key={index} data-row={problem.row}>
                <Table.Td>{problem.row}</Table.Td>
                <Table.Td>{problem.column ? HEADER_OF[problem.column] : '–'}</Table.Td>
                <Table.Td>{problem.message}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </TableRegion>
      <Text size="sm">{t('imports.fixAndUpload')}</Text>
    </Stack>
  );
};

/** What became of each row, filtered by outcome, a page at a time. */
const ResultRows = ({ id }: { id: number }) => {
  const { t } = useTranslation();
  const [outcome, setOutcome] = useState<RowOutcome | 'all'>('all');
  const [page, setPage] = useState(1);
  const rows = useQuery({
    queryKey: ['imports', id, 'rows', outcome, page],
    queryFn: () => listImportRows(id, outcome === 'all' ? null : outcome, page),
    placeholderData: keepPreviousData,
    // Users the job made a moment ago may not be in the users read model yet: ask again until they are.
    refetchInterval: (query) => (query.state.data?.items.some((r) => r.outcome !== 'failed' && r.user === null) ? 1000 : false),
  });
  return (
    <Stack gap="xs">
      <SegmentedControl
        aria-label={t('imports.filter')}
        value={outcome}
        onChange={(value) => {
          setOutcome(value as RowOutcome | 'all');
          setPage(1);
        }}
        data={[{ value: 'all', label: t('imports.outcome.all') }, ...OUTCOMES.map((o) => ({ value: o, label: t(`imports.outcome.${o}`) }))]}
      />
      <TableRegion label={t('imports.rowsTable')}>
        <Table striped aria-label={t('imports.rowsTable')} data-testid="import-rows">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('imports.row')}</Table.Th>
              <Table.Th>{t('imports.user')}</Table.Th>
              <Table.Th>{t('imports.result')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(rows.data?.items ?? []).map((row) => (
              <Table.Tr key={row.row}>
                <Table.Td>{row.row}</Table.Td>
                <Table.Td>
                  {row.user ? (
                    <Anchor component={Link} to={`/admin/users/${row.user.id}`}>
                      {row.user.name} ({row.user.username})
                    </Anchor>
                  ) : (
                    '–'
                  )}
                </Table.Td>
                <Table.Td>
                  {t(`imports.outcome.${row.outcome}`)}
                  {row.message ? `: ${row.message}` : ''}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </TableRegion>
      {(rows.data?.total ?? 0) > 20 ? (
        <Pagination
          total={Math.ceil((rows.data?.total ?? 0) / 20)}
          value={page}
          onChange={setPage}
          getControlProps={(control) => ({ 'aria-label': t(`table.${control}`) })}
          getItemProps={(n) => ({ 'aria-label': t('imports.page', { page: n }) })}
        />
      ) : null}
    </Stack>
  );
};

/** One import: its precheck, the start (with or without the welcome mail), the job's progress (polled) and the result. */
const ImportPanel = ({ id }: { id: number }) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [sendWelcome, setSendWelcome] = useState(true);
  const detail = useQuery({
    queryKey: ['imports', id],
    queryFn: () => getImport(id),
    // The page polls while the job runs (the progress bar), and stops when it is done.
    refetchInterval: (query) => (query.state.data?.status === 'running' ? 1000 : false),
  });
  const start = useMutation({
    mutationFn: (welcome: boolean) => startImport(id, welcome),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['imports'] }),
    onError: (error) => notifications.show({ color: 'red', message: error.message || IMPORT_MESSAGES.importFailed }),
  });
  if (detail.isPending)
    return (
      <Center py="md">
        <Loader role="status" aria-label={t('common.loading')} />
      </Center>
    );
  if (!detail.data) return <Alert color="red">{t('imports.loadFailed')}</Alert>;
  const d = detail.data;
  const percent = d.rows === 0 ? 0 : Math.round((d.processed / d.rows) * 100);
  return (
    <Paper withBorder radius="md" p="lg" data-testid="import-panel">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4">
            {d.fileName}
          </Title>
          <StatusBadge status={d.status} />
        </Group>
        <Text size="sm" c="dimmed">
          {t('imports.uploaded', { when: formatDateTime(d.uploadedAt), who: d.uploadedBy?.name ?? '–' })} ·{' '}
          {t('imports.rows', { count: d.rows, n: formatNumber(d.rows) })}
        </Text>
        {d.status === 'blocked' ? <ProblemsTable detail={d} /> : null}
        {d.status === 'ready' ? (
          <>
            <Alert color="teal">
              <Text size="sm" fw={700}>
                {t('imports.clean')}
              </Text>
              <Text size="sm">{d.existing > 0 ? t('imports.existing', { count: d.existing, n: formatNumber(d.existing) }) : t('imports.allNew')}</Text>
            </Alert>
            <Checkbox
              label={t('imports.sendWelcome')}
              description={t('imports.sendWelcomeHint')}
              checked={sendWelcome}
              onChange={(e) => setSendWelcome(e.currentTarget.checked)}
            />
            <Group>
              <Button onClick={() => start.mutate(sendWelcome)} loading={start.isPending}>
                {t('imports.start')}
              </Button>
            </Group>
          </>
        ) : null}
        {d.status === 'running' || d.status === 'completed' || d.status === 'failed' ? (
          <Stack gap={4}>
            <Progress value={percent} size="lg" aria-label={t('imports.progress')} animated={d.status === 'running'} data-testid="import-progress" />
            <Text size="sm">{t('imports.processed', { processed: formatNumber(d.processed), rows: formatNumber(d.rows), percent, count: d.rows })}</Text>
          </Stack>
        ) : null}
        {d.status === 'failed' ? (
          <Alert color="red" title={IMPORT_MESSAGES.importFailed}>
            <Stack gap="xs">
              <Text size="sm">{t('imports.resumeHint')}</Text>
              <Group>
                <Button variant="light" onClick={() => start.mutate(d.sendWelcome ?? false)} loading={start.isPending}>
                  {t('imports.resume')}
                </Button>
              </Group>
            </Stack>
          </Alert>
        ) : null}
        {d.status === 'completed' || d.status === 'failed' || (d.status === 'running' && d.processed > 0) ? (
          <>
            <Group gap="lg" data-testid="import-counts">
              {OUTCOMES.map((o) => (
                <Text key={o} size="sm" data-outcome={o}>
                  {t(`imports.count.${o}`, { count: d[o], n: formatNumber(d[o]) })}
                </Text>
              ))}
            </Group>
            {d.status === 'running' ? null : <ResultRows id={d.id} />}
          </>
        ) : null}
      </Stack>
    </Paper>
  );
};

/** Earlier imports, newest first: who, when, which file, how many rows, state and counts. */
const ImportHistory = ({ selected, onOpen }: { selected: number | null; onOpen: (id: number) => void }) => {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const list = useQuery({
    queryKey: ['imports', 'list', page],
    queryFn: () => listImports(page),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.items.some((i) => i.status === 'running') ? 2000 : false),
  });
  if (!list.data || list.data.total === 0) return null;
  return (
    <Stack gap="xs">
      <Title order={2} size="h4">
        {t('imports.history')}
      </Title>
      <Paper withBorder radius="md">
        <TableRegion label={t('imports.history')}>
          <Table striped aria-label={t('imports.history')} data-testid="import-history">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('imports.when')}</Table.Th>
                <Table.Th>{t('imports.file')}</Table.Th>
                <Table.Th>{t('imports.who')}</Table.Th>
                <Table.Th>{t('imports.rowsHeader')}</Table.Th>
                <Table.Th>{t('imports.state')}</Table.Th>
                <Table.Th>{t('imports.counts')}</Table.Th>
                <Table.Th>
                  <VisuallyHidden>{t('imports.actions')}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.items.map((item) => (
                <Table.Tr key={item.id} aria-selected={item.id === selected}>
                  <Table.Td>{formatDateTime(item.uploadedAt)}</Table.Td>
                  <Table.Td>{item.fileName}</Table.Td>
                  <Table.Td>{item.uploadedBy?.name ?? '–'}</Table.Td>
                  <Table.Td>{formatNumber(item.rows)}</Table.Td>
                  <Table.Td>
                    <StatusBadge status={item.status} />
                  </Table.Td>
                  <Table.Td>
                    {item.status === 'blocked'
                      ? t('imports.problems', { count: item.problemCount, n: formatNumber(item.problemCount) })
                      : t('imports.summary', {
                          created: formatNumber(item.created),
                          updated: formatNumber(item.updated),
                          skipped: formatNumber(item.skipped),
                          failed: formatNumber(item.failed),
                        })}
                  </Table.Td>
                  <Table.Td>
                    <Button size="xs" variant="light" onClick={() => onOpen(item.id)} aria-label={t('imports.openFile', { name: item.fileName })}>
                      {t('imports.open')}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </TableRegion>
      </Paper>
      {list.data.total > 10 ? (
        <Pagination
          total={Math.ceil(list.data.total / 10)}
          value={page}
          onChange={setPage}
          getControlProps={(control) => ({ 'aria-label': t(`table.${control}`) })}
          getItemProps={(n) => ({ 'aria-label': t('imports.page', { page: n }) })}
        />
      ) : null}
    </Stack>
  );
};

/**
 * /admin/imports (issue 17 item 1, decision 0025): users (with their company and unit) from an xlsx
 * or xls. The file is prechecked on upload: every row and column, every problem of spec §8, and
 * the import stays blocked until a corrected file is uploaded. A clean file is imported as a
 * background job whose progress the page polls; the result lists what was created, updated and
 * skipped. The same file imported again creates nobody twice.
 */
export const ImportsPage = () => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const selected = Number(params.get('uvoz')) || null;
  const open = (id: number) => setParams({ uvoz: String(id) });
  const upload = useMutation({
    mutationFn: uploadImport,
    onSuccess: async (result) => {
      await queryClient.invalidateQueries({ queryKey: ['imports'] });
      open(result.id);
    },
    onError: (error) => notifications.show({ color: 'red', message: error.message || IMPORT_MESSAGES.precheckFailed }),
  });
  const template = useMutation({
    mutationFn: downloadTemplate,
    onError: () => notifications.show({ color: 'red', message: t('imports.templateFailed') }),
  });
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('imports.title')}
      </Title>
      <Paper withBorder radius="md" p="lg">
        <Stack gap="sm">
          <Text size="sm">{t('imports.intro')}</Text>
          <Text size="sm" c="dimmed">
            {t('imports.columns', {
              required: IMPORT_COLUMNS.filter((c) => c.required)
                .map((c) => c.header)
                .join(', '),
              optional: IMPORT_COLUMNS.filter((c) => !c.required)
                .map((c) => c.header)
                .join(', '),
            })}
          </Text>
          <Text size="sm" c="dimmed">
            {t('imports.roles')}
          </Text>
          <Group>
            <FileButton
              accept=".xlsx,.xls,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,application/vnd.ms-excel"
              onChange={(file) => {
                if (!file) return;
                if (file.size > IMPORT_MAX_BYTES) notifications.show({ color: 'red', message: IMPORT_MESSAGES.tooLarge });
                else upload.mutate(file);
              }}
            >
              {(button) => (
                <Button {...button} leftSection={<IconFileSpreadsheet size={18} aria-hidden />} loading={upload.isPending}>
                  {t('imports.upload')}
                </Button>
              )}
            </FileButton>
            <Button variant="default" leftSection={<IconDownload size={18} aria-hidden />} onClick={() => template.mutate()} loading={template.isPending}>
              {t('imports.template')}
            </Button>
          </Group>
        </Stack>
      </Paper>
      {selected ? <ImportPanel key={selected} id={selected} /> : null}
      <ImportHistory selected={selected} onOpen={open} />
    </Stack>
  );
};
