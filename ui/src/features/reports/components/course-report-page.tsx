import { Alert, Anchor, Badge, Button, Center, Checkbox, Group, Loader, Paper, Select, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { courseReportRule } from '../../../../../domain/reports/course-report.rules.ts';
import { ColumnHeads } from '../../../components/column-heads.tsx';
import { DateTimeField } from '../../../components/date-fields.tsx';
import { FormPanel } from '../../../components/form-panel.tsx';
import { TableRegion } from '../../../components/table-region.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { formatDate, formatDateTime } from '../../../lib/i18n.ts';
import { useZodForm } from '../../../lib/use-zod-form.ts';
import { type CourseReportLog, courseReportLogQuery, courseReportQuery, generateCourseReport, invalidateReportLog } from '../api/course-reports.ts';
import { CourseReportView, useIntervalText } from './course-report-view.tsx';

/** The words for a failed request: not found, not allowed, or the report error of spec §8 (the server's message). */
export const useReportError = () => {
  const { t } = useTranslation();
  return (error: unknown, missing: 'report' | 'course' = 'report') =>
    error instanceof ApiError && error.status === 404
      ? t(missing === 'course' ? 'courseReports.courseNotFound' : 'courseReports.notFound')
      : error instanceof ApiError && error.status === 403
        ? t('courseReports.forbidden')
        : error instanceof ApiError && error.status >= 500 && error.message
          ? error.message
          : t('courseReports.failed');
};

const GenerateForm = ({ courseId, log, onGenerated }: { courseId: number; log: CourseReportLog; onGenerated: (id: number) => void }) => {
  const { t } = useTranslation();
  const form = useZodForm(courseReportRule, { intervalId: 0, children: true, npsDetailed: log.course.detailNps, npsReasons: true });
  const [date, setDate] = useState<string | null>(null);
  const generate = useMutation({
    mutationFn: (body: Parameters<typeof generateCourseReport>[1]) => generateCourseReport(courseId, body),
    onSuccess: ({ id }) => {
      notifications.show({ color: 'teal', message: t('courseReports.generated') });
      onGenerated(id);
    },
    onError: form.notifyServerErrors,
  });
  const intervals = [
    { value: '0', label: t('courseReports.allTime') },
    ...log.course.intervals.map((interval, i) => ({
      value: String(i + 1),
      label: t('courseReports.intervalN', { n: i + 1, from: formatDate(interval.startsAt), to: formatDate(interval.stopsAt) }),
    })),
  ];
  const submit = () => {
    const input = form.validate();
    if (input) generate.mutate({ ...input, ...(date ? { date } : {}) });
  };
  return (
    <FormPanel title={t('courseReports.new')} onSubmit={submit} submitLabel={t('courseReports.generate')} submitting={generate.isPending}>
      <Text size="sm" c="dimmed">
        {t('courseReports.intro')}
      </Text>
      <Group align="flex-start" grow>
        <Select
          label={t('courseReports.interval')}
          data={intervals}
          value={String(form.values.intervalId)}
          onChange={(value) => form.set('intervalId', Number(value ?? 0))}
          allowDeselect={false}
          error={form.errors.intervalId}
          data-testid="report-interval"
        />
        <DateTimeField label={t('courseReports.date')} description={t('courseReports.dateHint')} value={date} onChange={setDate} error={form.errors.date} />
      </Group>
      <Checkbox
        label={t('courseReports.children')}
        description={t('courseReports.childrenHint')}
        checked={form.values.children ?? false}
        onChange={(e) => form.set('children', e.currentTarget.checked)}
      />
      <Checkbox
        label={t('courseReports.npsDetailed')}
        description={log.course.detailNps ? t('courseReports.npsDetailedHint') : t('courseReports.npsDetailedOff')}
        disabled={!log.course.detailNps}
        checked={log.course.detailNps && (form.values.npsDetailed ?? false)}
        onChange={(e) => form.set('npsDetailed', e.currentTarget.checked)}
        error={form.errors.npsDetailed}
      />
      <Checkbox
        label={t('courseReports.npsReasons')}
        checked={form.values.npsReasons ?? true}
        onChange={(e) => form.set('npsReasons', e.currentTarget.checked)}
      />
    </FormPanel>
  );
};

/** The report log's columns (their labels under `courseReports.`). */
const REPORT_LOG_COLUMNS = ['numberShort', 'timeCreated', 'user', 'period', 'date', 'options', 'actions'] as const;

const ReportLog = ({ courseId, log, selected }: { courseId: number; log: CourseReportLog; selected: number | null }) => {
  const { t } = useTranslation();
  const intervalText = useIntervalText();
  const base = `/admin/courses/${courseId}/report`;
  return (
    <Paper withBorder radius="md" p="lg">
      <Stack gap="xs">
        <Title order={2} size="h4">
          {t('courseReports.log')}
        </Title>
        {log.items.length === 0 ? (
          <Text c="dimmed">{t('courseReports.logEmpty')}</Text>
        ) : (
          <TableRegion label={t('courseReports.log')} minWidth={820}>
            <Table striped aria-label={t('courseReports.log')} data-testid="report-log">
              <ColumnHeads columns={REPORT_LOG_COLUMNS.map((key) => t(`courseReports.${key}`))} />
              <Table.Tbody>
                {log.items.map((entry) => (
                  <Table.Tr key={entry.id} data-testid="report-log-row" aria-current={entry.id === selected ? 'true' : undefined}>
                    <Table.Td>{entry.id}</Table.Td>
                    <Table.Td>{formatDateTime(entry.timeCreated)}</Table.Td>
                    <Table.Td>{entry.user?.name || t('courseReports.unknownUser')}</Table.Td>
                    <Table.Td>{intervalText(entry)}</Table.Td>
                    <Table.Td>{formatDateTime(entry.date)}</Table.Td>
                    <Table.Td>
                      <Group gap={4}>
                        {entry.children ? <Badge variant="default">{t('courseReports.children')}</Badge> : null}
                        {entry.npsDetailed ? <Badge variant="default">{t('courseReports.npsDetailed')}</Badge> : null}
                        {entry.npsReasons ? <Badge variant="default">{t('courseReports.npsReasons')}</Badge> : null}
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      <Group gap="sm" wrap="nowrap">
                        <Anchor component={Link} to={`${base}?reportId=${entry.id}`} aria-label={t('courseReports.openN', { id: entry.id })}>
                          {t('courseReports.open')}
                        </Anchor>
                        <Anchor component={Link} to={`${base}/print?reportId=${entry.id}`} aria-label={t('courseReports.printN', { id: entry.id })}>
                          {t('courseReports.print')}
                        </Anchor>
                        <Anchor component={Link} to={`${base}/download/${entry.id}`} aria-label={t('courseReports.pdfN', { id: entry.id })}>
                          {t('courseReports.pdf')}
                        </Anchor>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </TableRegion>
        )}
      </Stack>
    </Paper>
  );
};

const SelectedReport = ({ courseId, reportId }: { courseId: number; reportId: number }) => {
  const { t } = useTranslation();
  const describe = useReportError();
  const report = useQuery(courseReportQuery(courseId, reportId));
  const base = `/admin/courses/${courseId}/report`;
  if (report.isPending)
    return (
      <Center py="xl">
        <Loader role="status" aria-label={t('common.loading')} />
      </Center>
    );
  if (report.isError) return <Alert color="red">{describe(report.error)}</Alert>;
  return (
    <Paper withBorder radius="md" p="lg">
      <CourseReportView
        report={report.data}
        heading={
          <Group justify="space-between" align="center">
            <Title order={2} size="h3" data-testid="report-heading">
              {t('courseReports.number', { id: reportId })}
            </Title>
            <Group gap="sm">
              <Button component={Link} to={`${base}/print?reportId=${reportId}`} variant="default">
                {t('courseReports.printView')}
              </Button>
              <Button component={Link} to={`${base}/download/${reportId}`} variant="default">
                {t('courseReports.downloadPdf')}
              </Button>
            </Group>
          </Group>
        }
      />
    </Paper>
  );
};

/**
 * /admin/courses/{id}/report (issue 17 item 3): with 1064 a report is made for an interval and
 * options (spec §3 Report log), and every report made is listed in the log with who made it and
 * when; the chosen one (`?reportId=`) is shown with its figures as of its date.
 */
export const CourseReportPage = ({ courseId, canGenerate }: { courseId: number; canGenerate: boolean }) => {
  const { t } = useTranslation();
  const describe = useReportError();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const selected = Number(params.get('reportId'));
  const reportId = Number.isInteger(selected) && selected > 0 ? selected : null;
  const log = useQuery(courseReportLogQuery(courseId));
  return (
    <Stack gap="md">
      <Stack gap={2}>
        <Title order={1} size="h2">
          {t('courseReports.title')}
        </Title>
        {log.data ? <Text c="dimmed">{log.data.course.title}</Text> : null}
      </Stack>
      {log.isPending ? (
        <Center py="xl">
          <Loader role="status" aria-label={t('common.loading')} />
        </Center>
      ) : log.isError ? (
        <Alert color="red">{describe(log.error, 'course')}</Alert>
      ) : (
        <>
          {canGenerate ? (
            <GenerateForm
              courseId={courseId}
              log={log.data}
              onGenerated={(id) => {
                void queryClient.invalidateQueries(invalidateReportLog(courseId));
                setParams({ reportId: String(id) });
              }}
            />
          ) : null}
          <ReportLog courseId={courseId} log={log.data} selected={reportId} />
          {reportId !== null ? <SelectedReport courseId={courseId} reportId={reportId} /> : null}
        </>
      )}
    </Stack>
  );
};
