import { chamberCreditsProjection } from '../../projections/chambers/chamber-credits.projection.ts';
import { consentsProjection } from '../../projections/consents/consents.projection.ts';
import { academiesProjection } from '../../projections/courses/academies.projection.ts';
import { courseNotificationsProjection } from '../../projections/courses/course-notifications.projection.ts';
import { coursesProjection } from '../../projections/courses/courses.projection.ts';
import { postsProjection } from '../../projections/courses/posts.projection.ts';
import { exportsProjection } from '../../projections/exports/exports.projection.ts';
import { importsProjection } from '../../projections/imports/imports.projection.ts';
import { mailProjection } from '../../projections/mail/mail.projection.ts';
import { newsProjection } from '../../projections/news/news.projection.ts';
import { newslettersProjection } from '../../projections/newsletters/newsletters.projection.ts';
import { organisationProjection } from '../../projections/organisation/organisation.projection.ts';
import { pushProjection } from '../../projections/push/push.projection.ts';
import { courseReportsProjection } from '../../projections/reports/course-reports.projection.ts';
import { statsProjection } from '../../projections/stats/stats.projection.ts';
import { usersProjection } from '../../projections/users/users.projection.ts';
import type { Projection } from '../projections/projection.port.ts';

/** Every read model the runner keeps. */
export const PROJECTIONS: readonly Projection[] = [
  usersProjection,
  organisationProjection,
  coursesProjection,
  academiesProjection,
  postsProjection,
  consentsProjection,
  statsProjection,
  newslettersProjection,
  newsProjection,
  mailProjection,
  courseNotificationsProjection,
  importsProjection,
  pushProjection,
  courseReportsProjection,
  exportsProjection,
  chamberCreditsProjection,
];
