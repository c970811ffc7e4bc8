import type { FeatureModule } from '../../infrastructure/main/feature-module.port.ts';
import type { ReportDocumentRenderer } from '../../infrastructure/reports/report-document.port.ts';
import { courseReportsProjection } from '../../projections/reports/course-reports.projection.ts';
import type { CourseReportDeps } from './course-report.ts';
import { registerCourseReportRoutes } from './course-reports.routes.ts';

type ReportsNeeds = CourseReportDeps & { readonly renderers: { readonly reportDocuments: ReportDocumentRenderer } };

/** Course reports (issue 17 item 3, decision 0027): the log, the figures as of each report's date, the PDF. */
export const reportsModule: FeatureModule<ReportsNeeds> = {
  name: 'reports',
  projections: [courseReportsProjection],
  wire: (needs) => ({
    routes: (app) =>
      registerCourseReportRoutes(app, {
        store: needs.store,
        ids: needs.ids,
        db: needs.db,
        reports: needs.db,
        now: needs.now,
        documents: needs.renderers.reportDocuments,
      }),
  }),
};
