import type { AttemptLimiter } from '../../infrastructure/auth/attempt-limiter.port.ts';
import type { PasswordHasher } from '../../infrastructure/auth/password-hasher.port.ts';
import type { SecretSealer } from '../../infrastructure/auth/secret-sealer.port.ts';
import type { FileStore } from '../../infrastructure/files/file-store.port.ts';
import type { Log } from '../../infrastructure/logging/log.port.ts';
import type { Mailer } from '../../infrastructure/mail/mailer.port.ts';
import type { FeatureModule } from '../../infrastructure/main/feature-module.port.ts';
import type { PackageLaunchStore, PackageStore, PackageUnpacker } from '../../infrastructure/packages/package-store.port.ts';
import type { CertificateRenderer } from '../../infrastructure/pdf/certificate.port.ts';
import type { PushSender } from '../../infrastructure/push/push.port.ts';
import { academiesProjection } from '../../projections/courses/academies.projection.ts';
import { registerCertificateRoutes } from '../../projections/courses/certificates.routes.ts';
import { courseApprovalsProjection } from '../../projections/courses/course-approvals.projection.ts';
import { courseNotificationsProjection } from '../../projections/courses/course-notifications.projection.ts';
import { coursesProjection } from '../../projections/courses/courses.projection.ts';
import { registerCourseReadRoutes } from '../../projections/courses/courses.routes.ts';
import { postsProjection } from '../../projections/courses/posts.projection.ts';
import { registerPublicCourseRoutes } from '../../projections/courses/public-courses.routes.ts';
import type { AttemptLimits } from '../shared/attempt-limits.ts';
import { registerApprovalReviewNameRoutes } from './approval-review-names.routes.ts';
import { registerCourseApprovalRoutes } from './course-approval.routes.ts';
import { APPROVAL_MAIL_QUEUE, courseApprovalMailReactor, mailApprovalEvent } from './course-approval-mail.job.ts';
import {
  courseNotificationsReactor,
  expandNotification,
  mailNotification,
  NOTIFICATION_EXPAND_QUEUE,
  NOTIFICATION_MAIL_QUEUE,
  NOTIFICATION_PUSH_QUEUE,
  NOTIFICATION_TICK_QUEUE,
  openCoursesWithNotifications,
  pushNotification,
} from './course-notifications.job.ts';
import { runNotificationTick } from './course-notifications.ts';
import type { CoursesDeps } from './courses.deps.ts';
import { registerCourseRoutes } from './courses.routes.ts';
import type { PackagesDeps } from './packages.deps.ts';
import { registerPackageRoutes } from './packages.routes.ts';
import { recordCmi5Outcome } from './play-package.ts';

type CoursesNeeds = Omit<CoursesDeps, 'features' | 'packages'> & {
  readonly packages: PackageStore;
  readonly packageLaunches: PackageLaunchStore;
  readonly unpackPackage: PackageUnpacker;
  readonly prepareCmi5Launch: PackagesDeps['prepareCmi5Launch'];
  readonly files: FileStore;
  readonly mailer: Mailer;
  readonly push: PushSender;
  readonly log: Log;
  readonly limiter: AttemptLimiter;
  /** Approval signatures re-enter the password (issue 36), within the password-change budget. */
  readonly passwords: PasswordHasher;
  /** A signature's second-factor code is sealed for its mail (issue 36). */
  readonly sealer: SecretSealer;
  readonly attempts: AttemptLimits;
  readonly renderers: { readonly certificates: CertificateRenderer };
  readonly settings: { readonly features: CoursesDeps['features']; readonly publicUrl: string; readonly packages: PackagesDeps['settings']['packages'] };
};

const RETRIED = { retryLimit: 5, retryDelaySeconds: 5 };

/** Courses, academies, posts and comments, certificates, the public course list, course notifications. */
export const coursesModule: FeatureModule<CoursesNeeds> = {
  name: 'courses',
  projections: [coursesProjection, academiesProjection, postsProjection, courseNotificationsProjection, courseApprovalsProjection],
  reactors: (jobs) => [courseNotificationsReactor(jobs), courseApprovalMailReactor(jobs)],
  wire: (needs) => {
    const { db, now, files } = needs;
    const { features, publicUrl } = needs.settings;
    const courses: CoursesDeps = { store: needs.store, ids: needs.ids, db, now, features, packages: needs.packages };
    return {
      routes: (app) => {
        registerCourseRoutes(app, courses, { files });
        // Approval before publishing (issue 36): settings, submit, sign with the password, the approver's inbox.
        registerCourseApprovalRoutes(app, { ...courses, passwords: needs.passwords, sealer: needs.sealer, attempts: needs.attempts });
        // The names of what a version under approval names, for its review (issue 36).
        registerApprovalReviewNameRoutes(app, courses);
        // SCORM and cmi5 package blocks (issue 35): upload, launch, SCORM commits.
        registerPackageRoutes(app, { ...courses, ...needs, features });
        registerCourseReadRoutes(app, { db, now, certificates: needs.renderers.certificates, files, features, publicUrl });
        // A certificate's public verification (issue 18 item 3, decision 0032): by its number, limited per address.
        registerCertificateRoutes(app, { db, limiter: needs.limiter });
        // The embeddable /glp page's list (issue 17 item 7, decision 0031): public, limited per address.
        registerPublicCourseRoutes(app, { db, now, limiter: needs.limiter, features });
      },
      // Course notifications (issue 16): recipients, one mail or push job per person, and the hourly schedule of automatic ones.
      jobs: (jobs) => {
        const notifications = { store: needs.store, mailer: needs.mailer, log: needs.log, db, jobs, publicUrl, now, push: needs.push };
        return [
          { queue: NOTIFICATION_EXPAND_QUEUE, handler: expandNotification(notifications), options: RETRIED },
          { queue: NOTIFICATION_MAIL_QUEUE, handler: mailNotification(notifications), options: RETRIED },
          { queue: NOTIFICATION_PUSH_QUEUE, handler: pushNotification(notifications), options: RETRIED },
          {
            queue: APPROVAL_MAIL_QUEUE,
            handler: mailApprovalEvent({ store: needs.store, mailer: needs.mailer, log: needs.log, db, publicUrl }),
            options: RETRIED,
          },
          {
            queue: NOTIFICATION_TICK_QUEUE,
            handler: async () => void (await runNotificationTick(courses, await openCoursesWithNotifications(db))),
            options: { cron: '0 * * * *', retryLimit: 2 },
          },
        ];
      },
    };
  },
};

/** What courses offer the LRS (issue 35): a cmi5 statement's outcome, recorded as a step of the launch's participant. */
export const cmi5Outcomes = (
  needs: Omit<CoursesDeps, 'features' | 'packages'> & {
    readonly packages: PackageStore;
    readonly packageLaunches: PackageLaunchStore;
    readonly unpackPackage: PackageUnpacker;
    readonly settings: { readonly features: CoursesDeps['features']; readonly publicUrl: string; readonly packages: PackagesDeps['settings']['packages'] };
  },
) => ({ recordCmi5Outcome: recordCmi5Outcome({ ...needs, features: needs.settings.features }) });
