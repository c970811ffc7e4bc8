import { z } from 'zod';
import { TRAIL_KINDS } from '../../domain/courses/approval-trail.ts';
import { idParam } from '../../domain/shared/id.rules.ts';
import { errorResponses, type HttpApp, requireAuth, system } from '../../infrastructure/http/http.port.ts';
import type { ReportDocumentRenderer } from '../../infrastructure/reports/report-document.port.ts';
import type { Spreadsheet } from '../../infrastructure/reports/spreadsheet.port.ts';
import { auditCourseItem } from '../../projections/courses/approval-trail.queries.ts';
import { type ApprovalTrailDeps, type CourseApprovalTrail, courseApprovalTrail } from './approval-trail.ts';
import { trailDocument, trailFileName, trailXlsx } from './approval-trail-documents.ts';

export type ApprovalTrailRouteDeps = ApprovalTrailDeps & {
  readonly spreadsheet: Spreadsheet;
  readonly documents: ReportDocumentRenderer;
  /** Courses by title or id, for the auditor to pick one (the read model only finds them). */
  readonly findCourses: (search: string) => Promise<z.infer<typeof auditCourseItem>[]>;
};

/**
 * Permission 1072 'courses.approvalAudit' (the auditor role and admins; decision 0064). Platform-wide
 * like the consent audit (1070): the auditor is the platform's, not a company's, so there is no
 * company reach to narrow it to. Everything is replayed from the course stream.
 */
const AUDIT = system(1072);
const tags = ['courses'];
const params = z.object({ id: idParam });
const asOfQuery = z.object({ asOf: z.iso.datetime({ offset: true, error: 'Vnesite veljaven datum in čas.' }).optional() });

const person = z.object({ id: z.number(), name: z.string() });
const trailRow = z.object({
  at: z.string(),
  kind: z.enum(TRAIL_KINDS),
  approvalVersion: z.number().nullable(),
  step: z.string().nullable(),
  stepLabel: z.string().nullable(),
  who: person.nullable(),
  meaning: z.string(),
  comment: z.string().nullable(),
  contentHash: z.string().nullable(),
  code: z.string().nullable(),
  method: z.string().nullable(),
  hashMatchesContent: z.boolean().nullable(),
  revision: z.number(),
  /** A 'settings-changed' row's settings (decision 0064): on or off, the prefix, each step's approvers. */
  settings: z
    .object({
      enabled: z.boolean(),
      codePrefix: z.string(),
      steps: z.array(z.object({ key: z.string(), label: z.string(), approvers: z.array(person) })),
    })
    .nullable(),
});
const verification = z.object({
  publishedHash: z.string().nullable(),
  approvedHash: z.string().nullable(),
  currentHash: z.string().nullable(),
  approvalCode: z.string().nullable(),
  approvalVersion: z.number().nullable(),
  publishedAt: z.string().nullable(),
  matches: z.boolean(),
  status: z.enum(['verified', 'mismatch', 'unapproved', 'not-published', 'no-course']),
  reason: z.string(),
});
const trailResponse = z.object({
  course: z.object({ id: z.number(), title: z.string(), type: z.number(), companyId: z.number().nullable() }),
  asOf: z.string().nullable(),
  generatedAt: z.string(),
  rows: z.array(trailRow),
  verification,
});

const toResponse = (t: CourseApprovalTrail) => ({
  course: t.subject,
  asOf: t.asOf ? t.asOf.toISOString() : null,
  generatedAt: t.generatedAt.toISOString(),
  rows: [...t.rows],
  verification: t.verification,
});

const asOf = (query: { asOf?: string | undefined }) => (query.asOf ? new Date(query.asOf) : null);

const TYPES = { xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', pdf: 'application/pdf' } as const;

export const registerApprovalTrailRoutes = (app: HttpApp, deps: ApprovalTrailRouteDeps) => {
  app.get(
    '/api/approval-trail/courses',
    {
      config: { access: AUDIT, readModels: ['courses'] },
      schema: {
        tags,
        summary: 'Find a course whose approval trail to read, by title or id',
        querystring: z.object({ search: z.string().trim().min(2, { error: 'Vnesite vsaj 2 znaka.' }).max(200) }),
        response: { 200: z.object({ items: z.array(auditCourseItem) }), ...errorResponses },
      },
    },
    async (request) => ({ items: await deps.findCourses(request.query.search) }),
  );

  app.get(
    '/api/courses/:id/approval/trail',
    {
      config: { access: AUDIT },
      schema: {
        tags,
        summary:
          "A course's approval trail for auditors, replayed from its event log to a moment (default now): submissions, signatures, withdrawals, grants, publishes, content changes, and the check of the published content's hash",
        params,
        querystring: asOfQuery,
        response: { 200: trailResponse, ...errorResponses },
      },
    },
    async (request) => toResponse(await courseApprovalTrail(deps, request.params.id, asOf(request.query))),
  );

  // One course's trail is small (its own stream): drawn on request, through the render pool, not as an export job (decision 0064).
  for (const format of ['xlsx', 'pdf'] as const) {
    app.get(
      `/api/courses/:id/approval/trail.${format}`,
      {
        config: { access: AUDIT, expensive: 'render' },
        schema: { tags, summary: `The approval trail as ${format.toUpperCase()}`, params, querystring: asOfQuery },
      },
      async (request, reply) => {
        const caller = requireAuth(request).userId;
        const trail = await courseApprovalTrail(deps, request.params.id, asOf(request.query));
        const requestedBy = (await deps.userNames([caller])).get(caller) ?? `#${caller}`;
        const body =
          format === 'xlsx'
            ? await trailXlsx(deps.spreadsheet, trail, requestedBy)
            : await deps.documents.pdf(trailDocument(trail, requestedBy), `user-${caller}`);
        return reply
          .header('content-type', TYPES[format])
          .header('content-disposition', `attachment; filename="${trailFileName(trail, format)}"`)
          .header('cache-control', 'no-store')
          .send(body);
      },
    );
  }
};
