import { Alert, Button, Center, Checkbox, Group, Loader, Paper, Progress, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { IMPORT_MESSAGES } from '../../../../../domain/imports/user-import.rules.ts';
import { formatDateTime, formatNumber } from '../../../lib/i18n.ts';
import { getImport, startImport } from '../api/imports.ts';
import { ProblemsTable } from './import-problems-table.tsx';
import { OUTCOMES, ResultRows } from './import-result-rows.tsx';
import { StatusBadge } from './import-status-badge.tsx';

/** One import: its precheck, the start (with or without the welcome mail), the job's progress (polled) and the result. */
export const ImportPanel = ({ id }: { id: number }) => {
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
