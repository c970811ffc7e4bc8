import { queryOptions } from '@tanstack/react-query';
import type { CourseReportRequest } from '../../../../../domain/reports/course-report.rules.ts';
import { ApiError, type ApiErrorItem, api } from '../../../lib/api-client.ts';
import { session } from '../../../lib/session.ts';

/** A report log entry (spec §3 Report log). */
export type CourseReportEntry = {
  id: number;
  courseId: number;
  intervalId: number;
  interval: { startsAt: string; stopsAt: string } | null;
  date: string;
  children: boolean;
  npsDetailed: boolean;
  npsReasons: boolean;
  timeCreated: string;
  user: { id: number; name: string } | null;
};

export type CourseReportLog = {
  course: { id: number; title: string; detailNps: boolean; intervals: { startsAt: string; stopsAt: string }[] };
  items: CourseReportEntry[];
};

type Summary = {
  promoters: number;
  neutrals: number;
  detractors: number;
  answers: number;
  score: number | null;
  grade: 'none' | 'poor' | 'good' | 'veryGood' | 'excellent';
  level: 'none' | 'low' | 'medium' | 'high';
};
export type CommunityRow = Summary & { id: number; name: string };
export type ReportNps = Summary & {
  blockId: number;
  name: string;
  distribution: { score: number; count: number }[];
  reasons: { reason: string; category: 'promoter' | 'neutral' | 'detractor'; count: number }[] | null;
  detailed: Record<'unit' | 'company' | 'group' | 'profession', CommunityRow[]> | null;
};

/** A report's figures as of its date, as far as the reader may see them. */
export type CourseReport = {
  report: CourseReportEntry;
  course: { id: number; title: string; creditPoints: number; detailNps: boolean };
  window: { intervalId: number; from: string; to: string; asOf: string };
  scope: 'all' | 'community';
  participation: {
    participants: number;
    completions: number;
    completionRate: number | null;
    attempted: number;
    passed: number;
    successRate: number | null;
    firstAttemptRate: number | null;
    averageScore: number | null;
    creditPointsIssued: number;
  };
  timeline: { bucket: 'day' | 'week' | 'month'; periods: { period: string; participants: number; completions: number }[] };
  nps: ReportNps[];
  children:
    | {
        id: number;
        name: string;
        participants: number;
        completions: number;
        completionRate: number | null;
        successRate: number | null;
        npsScore: number | null;
        npsAnswers: number;
      }[]
    | null;
  costs: {
    costs: Record<string, number | string | null>;
    setAt: string | null;
    figures: { views: number; viewsAmount: number; totalAmount: number; finalAmount: number; shareEarnings: number };
  } | null;
  comments: { id: number; message: string; createdAt: string; reply: boolean; answered: boolean }[] | null;
  withheld: { costs: boolean; comments: boolean; detailedNps: boolean };
};

const KEY = ['course-reports'] as const;

export const courseReportLogQuery = (courseId: number) =>
  queryOptions({
    queryKey: [...KEY, courseId, 'log'],
    queryFn: ({ signal }) => api<CourseReportLog>('GET', `/courses/${courseId}/reports`, { signal }),
    retry: false,
  });

export const courseReportQuery = (courseId: number, reportId: number) =>
  queryOptions({
    queryKey: [...KEY, courseId, 'report', reportId],
    queryFn: ({ signal }) => api<CourseReport>('GET', `/courses/${courseId}/reports/${reportId}`, { signal }),
    retry: false,
    // A report's figures are as of its date: they do not change.
    staleTime: Number.POSITIVE_INFINITY,
  });

export const invalidateReportLog = (courseId: number) => ({ queryKey: [...KEY, courseId, 'log'] });

/** POST (1064): the report is made and logged; its id. */
export const generateCourseReport = (courseId: number, body: Partial<CourseReportRequest> & { intervalId: number }) =>
  api<{ id: number }>('POST', `/courses/${courseId}/reports`, { body });

export const reportPdfName = (courseId: number, reportId: number) => `porocilo-${courseId}-${reportId}.pdf`;

/**
 * The report's PDF, fetched with the session (a link cannot send the JWT header) and saved under
 * its name. A refusal or the report error (spec §8) arrives as the API's error, with its words.
 */
export const downloadCourseReportPdf = async (courseId: number, reportId: number) => {
  const response = await fetch(`/api/courses/${courseId}/reports/${reportId}/pdf`, { headers: { Authorization: `JWT ${session.token() ?? ''}` } });
  if (!response.ok) {
    const payload = response.headers.get('Content-Type')?.includes('application/json') ? ((await response.json()) as { errors?: ApiErrorItem[] }) : null;
    throw new ApiError(response.status, payload?.errors ?? [{ code: String(response.status), message: '', field: null }]);
  }
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = reportPdfName(courseId, reportId);
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
};
