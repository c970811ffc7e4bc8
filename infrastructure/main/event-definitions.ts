import { chamberCreditEvents } from '../../domain/chambers/chamber-credit.ts';
import { consentEvents } from '../../domain/consents/consent.ts';
import { academyEvents } from '../../domain/courses/academy.ts';
import { approvalSettingsEvents } from '../../domain/courses/approval-settings.ts';
import { courseEvents } from '../../domain/courses/course.ts';
import { enrollmentEvents } from '../../domain/courses/enrollment.ts';
import { postEvents } from '../../domain/courses/post.ts';
import { exportEvents } from '../../domain/exports/export.ts';
import { importEvents } from '../../domain/imports/user-import.ts';
import { lrsRegistrationEvents } from '../../domain/lrs/lrs-registration.ts';
import { lrsStatementEvents } from '../../domain/lrs/lrs-statement.ts';
import { mailEvents } from '../../domain/mail/mail.ts';
import { newsEvents, newsReaderEvents } from '../../domain/news/news.ts';
import { newsletterEvents } from '../../domain/newsletters/newsletter.ts';
import { communityGroupEvents } from '../../domain/organisation/community-group.ts';
import { companyEvents } from '../../domain/organisation/company.ts';
import { professionEvents } from '../../domain/organisation/profession.ts';
import { professionGroupEvents } from '../../domain/organisation/profession-group.ts';
import { tagEvents } from '../../domain/organisation/tag.ts';
import { unitEvents } from '../../domain/organisation/unit.ts';
import { pushDeliveryEvents, pushDeviceEvents } from '../../domain/push/push.ts';
import { courseReportEvents } from '../../domain/reports/course-report.ts';
import type { EventDefinition } from '../../domain/shared/event.ts';
import { claimEvents } from '../../domain/shared/unique-claim.ts';
import { surveyEvents } from '../../domain/surveys/survey.ts';
import { userEvents } from '../../domain/users/user.ts';

/** Every event type the platform writes or reads: the store validates and upcasts with these. */
export const EVENT_DEFINITIONS: readonly EventDefinition[] = [
  ...userEvents,
  ...claimEvents,
  ...companyEvents,
  ...unitEvents,
  ...communityGroupEvents,
  ...professionEvents,
  ...professionGroupEvents,
  ...tagEvents,
  ...courseEvents,
  ...approvalSettingsEvents,
  ...enrollmentEvents,
  ...surveyEvents,
  ...academyEvents,
  ...postEvents,
  ...consentEvents,
  ...newsletterEvents,
  ...newsEvents,
  ...newsReaderEvents,
  ...mailEvents,
  ...importEvents,
  ...pushDeviceEvents,
  ...pushDeliveryEvents,
  ...courseReportEvents,
  ...exportEvents,
  ...chamberCreditEvents,
  ...lrsStatementEvents,
  ...lrsRegistrationEvents,
];
