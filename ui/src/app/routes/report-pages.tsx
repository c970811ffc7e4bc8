import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useParams } from 'react-router';
import { CourseTabs } from '../../features/courses/components/course-tabs.tsx';
import { CourseReportDownloadPage } from '../../features/reports/components/course-report-download-page.tsx';
import { CourseReportPage } from '../../features/reports/components/course-report-page.tsx';
import { CourseReportPrintPage } from '../../features/reports/components/course-report-print-page.tsx';
import { meQuery } from '../../features/users/api/me.ts';
import { hasSystemPermission } from '../../features/users/roles.ts';
import { PageBreadcrumbs } from './admin/page-breadcrumbs.tsx';

/** spec §6 system other: 1064 generate reports. */
const GENERATE_REPORTS = 1064;
/** Course authors (1017) move between a course's tabs (issue 15). */
const COURSE_AUTHORING = 1017;

const id = (value: string | undefined) => {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : null;
};

/**
 * The course report's three pages (issue 17 item 3), one lazily loaded chunk: the report tab and the
 * download among the course's tabs; the print view alone on its page (the router gives it no app chrome).
 */
export const ReportPage = ({ path, notFound }: { path: string; notFound: ReactNode }) => {
  const params = useParams();
  const me = useQuery(meQuery);
  const courseId = id(params.courseId);
  const reportId = id(params.reportId);
  const holds = (permission: number) => (me.data ? hasSystemPermission(me.data, permission) : false);
  if (courseId === null) return <>{notFound}</>;
  if (path === '/admin/courses/:courseId/report/print') return <CourseReportPrintPage key={courseId} courseId={courseId} />;
  const page =
    path === '/admin/courses/:courseId/report' ? (
      <CourseReportPage key={courseId} courseId={courseId} canGenerate={holds(GENERATE_REPORTS)} />
    ) : reportId !== null ? (
      <CourseReportDownloadPage key={`${courseId}-${reportId}`} courseId={courseId} reportId={reportId} />
    ) : null;
  if (page === null) return <>{notFound}</>;
  return (
    <>
      {holds(COURSE_AUTHORING) ? <PageBreadcrumbs path={path} /> : null}
      {holds(COURSE_AUTHORING) ? <CourseTabs courseId={courseId} /> : null}
      {page}
    </>
  );
};
