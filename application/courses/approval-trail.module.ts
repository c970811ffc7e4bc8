import { courseContentHash } from '../../domain/courses/course-content-hash.ts';
import type { EventStore } from '../../infrastructure/event-store/event-store.port.ts';
import type { FeatureModule } from '../../infrastructure/main/feature-module.port.ts';
import type { ReportDocumentRenderer } from '../../infrastructure/reports/report-document.port.ts';
import type { Spreadsheet } from '../../infrastructure/reports/spreadsheet.port.ts';
import { searchCoursesForAudit } from '../../projections/courses/approval-trail.queries.ts';
import { type UsersDb, userNames } from '../../projections/users/users.queries.ts';
import { registerApprovalTrailRoutes } from './approval-trail.routes.ts';

type ApprovalTrailNeeds = {
  readonly store: EventStore;
  readonly now: () => Date;
  readonly pg: UsersDb;
  readonly spreadsheet: Spreadsheet;
  readonly renderers: { readonly reportDocuments: ReportDocumentRenderer };
};

/**
 * The approval trail of courses for auditors (issue 36 item 3, decision 0064): replayed from each
 * course's stream on request, so it keeps no read model of its own; its exports are drawn on request.
 */
export const approvalTrailModule: FeatureModule<ApprovalTrailNeeds> = {
  name: 'approval-trail',
  projections: [],
  wire: (needs) => ({
    routes: (app) =>
      registerApprovalTrailRoutes(app, {
        store: needs.store,
        now: needs.now,
        userNames: (ids) => userNames(needs.pg, ids),
        contentHash: courseContentHash,
        spreadsheet: needs.spreadsheet,
        documents: needs.renderers.reportDocuments,
        findCourses: (search) => searchCoursesForAudit(needs.pg, search),
      }),
  }),
};
