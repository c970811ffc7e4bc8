import { Alert, Anchor, Box, Button, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { courseReportLogQuery, courseReportQuery } from '../api/course-reports.ts';
import { useReportError } from './course-report-page.tsx';
import { CourseReportView } from './course-report-view.tsx';

/**
 * Print rules of the page: A4, no controls, sections kept whole where they fit, colours as shown
 * (the NPS bands and chart bars carry meaning).
 */
const PRINT_CSS = `
@page { size: A4; margin: 14mm 12mm; }
@media print {
  .report-no-print, .mantine-Notifications-root { display: none !important; }
  body, .report-print { background: #fff !important; }
  .report-print { padding: 0 !important; max-width: none !important; }
  .report-figure, figure, table, li { break-inside: avoid; }
  h2, h3 { break-after: avoid; }
  * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}`;

const Report = ({ courseId, reportId }: { courseId: number; reportId: number }) => {
  const { t } = useTranslation();
  const describe = useReportError();
  const report = useQuery(courseReportQuery(courseId, reportId));
  if (report.isPending)
    return (
      <Center py="xl">
        <Loader role="status" aria-label={t('common.loading')} />
      </Center>
    );
  if (report.isError) return <Alert color="red">{describe(report.error)}</Alert>;
  return (
    <CourseReportView
      report={report.data}
      heading={
        <Text fw={700} fz="xl" data-testid="report-heading">
          {report.data.course.title} · {t('courseReports.number', { id: reportId })}
        </Text>
      }
    />
  );
};

/**
 * /admin/courses/{id}/report/print (issue 17 item 3): the report ready to print, without the app's
 * header, menus or footer: the one asked for (`?reportId=`), else the latest in the course's log.
 */
export const CourseReportPrintPage = ({ courseId }: { courseId: number }) => {
  const { t } = useTranslation();
  const describe = useReportError();
  const [params] = useSearchParams();
  const asked = Number(params.get('reportId'));
  const log = useQuery({ ...courseReportLogQuery(courseId), enabled: !(Number.isInteger(asked) && asked > 0) });
  const reportId = Number.isInteger(asked) && asked > 0 ? asked : (log.data?.items[0]?.id ?? null);
  const back = `/admin/courses/${courseId}/report${reportId ? `?reportId=${reportId}` : ''}`;
  return (
    <Box component="main" id="main" className="report-print" p="xl" maw={960} mx="auto" bg="white" mih="100vh">
      <style>{PRINT_CSS}</style>
      <Stack gap="md">
        <Group justify="space-between" className="report-no-print">
          <Anchor component={Link} to={back} size="sm">
            ← {t('courseReports.back')}
          </Anchor>
          <Button onClick={() => window.print()} disabled={reportId === null}>
            {t('courseReports.printNow')}
          </Button>
        </Group>
        <Title order={1} c="brand.7">
          {t('courseReports.title')}
        </Title>
        {reportId !== null ? (
          <Report courseId={courseId} reportId={reportId} />
        ) : log.isPending ? (
          <Center py="xl">
            <Loader role="status" aria-label={t('common.loading')} />
          </Center>
        ) : log.isError ? (
          <Alert color="red">{describe(log.error, 'course')}</Alert>
        ) : (
          <Text>{t('courseReports.printNone')}</Text>
        )}
      </Stack>
    </Box>
  );
};
