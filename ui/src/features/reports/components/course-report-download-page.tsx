import { Alert, Anchor, Button, Center, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '../../../lib/i18n.ts';
import { courseReportQuery, downloadCourseReportPdf, reportPdfName } from '../api/course-reports.ts';
import { useReportError } from './course-report-page.tsx';
import { useIntervalText } from './course-report-view.tsx';

/**
 * /admin/courses/{id}/report/download/{reportId} (issue 17 item 3): the report's PDF, saved once on
 * opening and again on request; a report that does not exist, is not the reader's, or cannot be
 * made (spec §8 report error) is said so.
 */
export const CourseReportDownloadPage = ({ courseId, reportId }: { courseId: number; reportId: number }) => {
  const { t } = useTranslation();
  const describe = useReportError();
  const intervalText = useIntervalText();
  const report = useQuery(courseReportQuery(courseId, reportId));
  const download = useMutation({ mutationFn: () => downloadCourseReportPdf(courseId, reportId) });
  const started = useRef(false);
  const { mutate } = download;
  useEffect(() => {
    if (report.isSuccess && !started.current) {
      started.current = true;
      mutate();
    }
  }, [report.isSuccess, mutate]);
  return (
    <Stack gap="md">
      <Anchor component={Link} to={`/admin/courses/${courseId}/report?reportId=${reportId}`} size="sm">
        ← {t('courseReports.back')}
      </Anchor>
      <Title order={1} size="h2">
        {t('courseReports.downloadTitle')}
      </Title>
      {report.isPending ? (
        <Center py="xl">
          <Loader role="status" aria-label={t('common.loading')} />
        </Center>
      ) : report.isError ? (
        <Alert color="red">{describe(report.error)}</Alert>
      ) : (
        <Paper withBorder radius="md" p="lg">
          <Stack gap="sm">
            <Text fw={700}>
              {report.data.course.title} · {t('courseReports.number', { id: reportId })}
            </Text>
            <Text size="sm" c="dimmed">
              {t('courseReports.meta', {
                period: intervalText(report.data.report),
                date: formatDateTime(report.data.report.date),
                user: report.data.report.user?.name || t('courseReports.unknownUser'),
                at: formatDateTime(report.data.report.timeCreated),
              })}
            </Text>
            {download.isError ? (
              <Alert color="red" data-testid="report-download-error">
                {describe(download.error)}
              </Alert>
            ) : download.isSuccess ? (
              <Text size="sm" data-testid="report-download-done">
                {t('courseReports.downloadStarted', { name: reportPdfName(courseId, reportId) })}
              </Text>
            ) : null}
            <Group>
              <Button onClick={() => download.mutate()} loading={download.isPending}>
                {t('courseReports.downloadPdf')}
              </Button>
            </Group>
          </Stack>
        </Paper>
      )}
    </Stack>
  );
};
