import { z } from 'zod';
import type { Subject } from '../../domain/permissions/can.ts';
import { idParam } from '../../domain/shared/id.rules.ts';
import { anyOf, errorResponses, type HttpApp, requireAuth } from '../../infrastructure/http/http.port.ts';
import { approvalReviewNames } from '../../projections/courses/approval-review-names.queries.ts';
import { courseOwner } from '../../projections/courses/courses.queries.ts';
import { type ApprovalDeps, approvalVersionContent } from './course-approval.ts';

const numbers = (value: unknown): number[] => (Array.isArray(value) ? value.filter((v): v is number => Number.isInteger(v)) : []);
const record = (value: unknown): Record<string, unknown> => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {});

/**
 * The names of what a submitted version names, for its review (issue 36 item 2: approvers see the
 * content as participants will): an RX course's reviewer must read which professions it targets, not
 * their ids. Who may read the version's content may read these (the content route's own check), and
 * only the ids the version itself holds are named, so nobody learns a name through it they could not
 * see in the version: an approver holding only 1071 reads no organisation lists.
 */
export const versionNames = async (deps: Pick<ApprovalDeps, 'store' | 'db'>, subject: Subject, courseId: number, approvalVersion: number) => {
  const content = await approvalVersionContent(deps, subject, courseId, approvalVersion);
  const fields = record(content.fields);
  const audience = record(fields.audience);
  const live = record(fields.live);
  const blocks = content.blocks.map((b) => record(b.fields));
  return approvalReviewNames(deps.db, {
    professionIds: numbers(audience.professionIds),
    unitIds: numbers(audience.unitIds),
    companyIds: numbers(audience.companyIds),
    groupIds: numbers(audience.groupIds),
    professionGroupIds: blocks
      .flatMap((b) => (Array.isArray(b.followUps) ? b.followUps.map((f) => record(f).professionGroupId) : []))
      .filter((id): id is number => Number.isInteger(id)),
    courseIds: [...numbers(fields.prerequisites), ...numbers(live.prerequisites)],
    tagIds: numbers(fields.tagIds),
  });
};

const named = z.object({ id: z.number(), name: z.string() });

export const registerApprovalReviewNameRoutes = (app: HttpApp, deps: Pick<ApprovalDeps, 'store' | 'db'>) => {
  const owner = (located: { params: Readonly<Record<string, unknown>> }) => courseOwner(deps.db, located.params.id as number);
  app.get(
    '/api/courses/:id/approval/versions/:approvalVersion/names',
    {
      config: {
        readModels: ['courses', 'organisation', 'course_approvals'],
        access: anyOf([{ system: 1019 }, { community: 2006, scope: owner }, { system: 1071 }, { system: 1072 }]),
      },
      schema: {
        tags: ['course approval'],
        summary: 'The names of what a submitted version names (audience, prerequisites, tags), for its review; who may read the version may read them',
        params: z.object({ id: idParam, approvalVersion: idParam }),
        response: {
          200: z.object({
            professions: z.array(named.extend({ mayPrescribe: z.boolean() })),
            units: z.array(named.extend({ companyName: z.string().nullable() })),
            companies: z.array(named),
            groups: z.array(named),
            professionGroups: z.array(named),
            courses: z.array(named),
            tags: z.array(named),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => versionNames(deps, requireAuth(request).subject, request.params.id, request.params.approvalVersion),
  );
};
