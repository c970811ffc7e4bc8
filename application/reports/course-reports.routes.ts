import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { courseReportRule } from '../../domain/reports/course-report.rules.ts';
import { idParam } from '../../domain/shared/id.rules.ts';
import { npsSummarySchema } from '../../domain/stats/nps.ts';
import { anyOf, commandMetadata, errorResponses, type HttpApp, requireAuth, system, withPosition } from '../../infrastructure/http/http.port.ts';
import type { ReportDocumentRenderer } from '../../infrastructure/reports/report-document.port.ts';
import { reportComment } from '../../projections/courses/course-comments.queries.ts';
import { type CourseReportsDb, courseReportEntry, getCourseReport, listCourseReports } from '../../projections/reports/course-reports.queries.ts';
import { courseReportDocument } from './course-report.layout.ts';
import {
  type CourseReportDeps,
  courseReportFigures,
  generateCourseReport,
  loadReportCourse,
  producing,
  ReportFailed,
  reportNotFound,
  reportReader,
} from './course-report.ts';

export type CourseReportRouteDeps = CourseReportDeps & { readonly reports: CourseReportsDb; readonly documents: ReportDocumentRenderer };

/**
 * Course reports (issue 17 item 3; spec §2 /admin/courses/{id}/report, §3 Report log, §8 report
 * error, §9 last 20 comments). Generating one needs 1064; reading the log, a report and its PDF
 * needs 1064 or what the course's statistics pages need (1056, or 1059 on a course of one's
 * companies: others are told it does not exist), and shows each reader what those pages show them.
 */
const tags = ['reports'];
const READERS = anyOf([{ system: 1064 }, { system: 1056 }, { communityAnywhere: 1059 }]);
const READ_MODELS = ['course_reports', 'stats', 'courses', 'posts', 'users', 'organisation'] as const;
const courseParams = z.object({ id: idParam });
const reportParams = courseParams.extend({ reportId: idParam });

const summary = npsSummarySchema;
const communityRow = summary.extend({ id: z.number(), name: z.string() });
const rate = z.number().nullable();

export const courseReportFiguresSchema = z.object({
  report: courseReportEntry,
  course: z.object({ id: z.number(), title: z.string(), creditPoints: z.number(), detailNps: z.boolean() }),
  window: z.object({ intervalId: z.number(), from: z.string(), to: z.string(), asOf: z.string() }),
  scope: z.enum(['all', 'community']),
  participation: z.object({
    participants: z.number(),
    completions: z.number(),
    completionRate: rate,
    attempted: z.number(),
    passed: z.number(),
    successRate: rate,
    firstAttemptRate: rate,
    averageScore: rate,
    creditPointsIssued: z.number(),
  }),
  timeline: z.object({
    bucket: z.enum(['day', 'week', 'month']),
    periods: z.array(z.object({ period: z.string(), participants: z.number(), completions: z.number() })),
  }),
  nps: z.array(
    summary.extend({
      blockId: z.number(),
      name: z.string(),
      distribution: z.array(z.object({ score: z.number(), count: z.number() })),
      reasons: z.array(z.object({ reason: z.string(), category: z.string(), count: z.number() })).nullable(),
      detailed: z
        .object({ unit: z.array(communityRow), company: z.array(communityRow), group: z.array(communityRow), profession: z.array(communityRow) })
        .nullable(),
    }),
  ),
  children: z
    .array(
      z.object({
        id: z.number(),
        name: z.string(),
        participants: z.number(),
        completions: z.number(),
        completionRate: rate,
        successRate: rate,
        npsScore: z.number().nullable(),
        npsAnswers: z.number(),
      }),
    )
    .nullable(),
  costs: z
    .object({
      costs: z.record(z.string(), z.unknown()),
      setAt: z.string().nullable(),
      figures: z.object({ views: z.number(), viewsAmount: z.number(), totalAmount: z.number(), finalAmount: z.number(), shareEarnings: z.number() }),
    })
    .nullable(),
  comments: z.array(reportComment).nullable(),
  withheld: z.object({ costs: z.boolean(), comments: z.boolean(), detailedNps: z.boolean() }),
});

export const registerCourseReportRoutes = (app: HttpApp, deps: CourseReportRouteDeps) => {
  const readers = { access: READERS, readModels: READ_MODELS };

  /** The report's figures for the caller; a report of another course (or none) is missing. */
  const figuresFor = async (request: FastifyRequest, courseId: number, reportId: number) => {
    const { subject } = requireAuth(request);
    // Asked at once; refused in this order as before (a reader who may not see the course learns nothing of its reports).
    const [reader, course, entry] = await Promise.allSettled([
      reportReader(deps.db, subject, courseId),
      loadReportCourse(deps.db, courseId),
      getCourseReport(deps.reports, courseId, reportId),
    ]);
    if (reader.status === 'rejected') throw reader.reason;
    if (course.status === 'rejected') throw course.reason;
    if (entry.status === 'rejected') throw entry.reason;
    const found = entry.value;
    if (!found) throw reportNotFound();
    return producing(() => courseReportFigures(deps.db, reader.value, course.value, found));
  };
  /** spec §8 report error: the cause goes to the log, the reader gets the report error's words. */
  const logged = async <T>(request: FastifyRequest, work: () => Promise<T>) => {
    try {
      return await work();
    } catch (error) {
      if (error instanceof ReportFailed) request.log.error({ err: error.reason }, 'course report failed');
      throw error;
    }
  };

  app.get(
    '/api/courses/:id/reports',
    {
      config: readers,
      schema: {
        tags,
        summary: "The course's report log, newest first (spec §3 Report log), with what the report form offers: intervals, detailed NPS",
        params: courseParams,
        response: {
          200: z.object({
            course: z.object({
              id: z.number(),
              title: z.string(),
              detailNps: z.boolean(),
              intervals: z.array(z.object({ startsAt: z.string(), stopsAt: z.string() })),
            }),
            items: z.array(courseReportEntry),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const { subject } = requireAuth(request);
      await reportReader(deps.db, subject, request.params.id);
      const course = await loadReportCourse(deps.db, request.params.id);
      return {
        course: { id: course.id, title: course.title, detailNps: course.detailNps, intervals: course.intervals },
        items: await listCourseReports(deps.reports, course.id),
      };
    },
  );

  app.post(
    '/api/courses/:id/reports',
    {
      config: { access: system(1064), readModels: READ_MODELS },
      schema: {
        tags,
        summary: 'Generate a course report (1064) for an interval (0: all time) as of a date (default now); it is logged',
        params: courseParams,
        body: courseReportRule,
        response: { 201: z.object({ id: z.number() }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { subject } = requireAuth(request);
      const result = await logged(request, () => generateCourseReport(deps, subject, request.params.id, request.body, commandMetadata(request)));
      return withPosition(reply, result.position).status(201).send({ id: result.id });
    },
  );

  app.get(
    '/api/courses/:id/reports/:reportId',
    {
      config: readers,
      schema: {
        tags,
        summary: "A report's figures as of its date, as far as the caller may see them (the print view and the tab show these)",
        params: reportParams,
        response: { 200: courseReportFiguresSchema, ...errorResponses },
      },
    },
    async (request) => logged(request, () => figuresFor(request, request.params.id, request.params.reportId)),
  );

  app.get(
    '/api/courses/:id/reports/:reportId/pdf',
    { config: { ...readers, expensive: 'render' }, schema: { tags, summary: 'A report as PDF with its charts (pdfkit)', params: reportParams } },
    async (request, reply) => {
      const { id, reportId } = request.params;
      const body = await logged(request, async () => {
        const figures = await figuresFor(request, id, reportId);
        return producing(() => deps.documents.pdf(courseReportDocument(figures), `user-${requireAuth(request).userId}`));
      });
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="porocilo-${id}-${reportId}.pdf"`)
        .header('cache-control', 'no-store')
        .send(body);
    },
  );
};
