/**
 * Every route of spec §2, exactly as the spec spells it. Pure data: the router builds on it, the
 * build writes it to dist/routes.json so the server answers 404 for a path no route matches, and
 * the tests visit each one. `status` says whether the page is built or a titled placeholder that a
 * later issue fills (docs/ui-status.md lists them).
 */
export type RouteSection = 'public' | 'user' | 'admin' | 'manager';

export type RouteEntry = {
  readonly path: string;
  /** i18n key of the page title. */
  readonly title: string;
  readonly section: RouteSection;
  readonly status: 'done' | 'placeholder';
  /** The later issue that fills a placeholder. */
  readonly issue?: string;
  /** Set on the few routes that are not in spec §2: why they exist. */
  readonly extra?: string;
};

const r = (path: string, title: string, section: RouteSection, status: RouteEntry['status'] = 'placeholder', issue?: string): RouteEntry => ({
  path,
  title,
  section,
  status,
  ...(issue ? { issue } : {}),
});

const COURSES = 'participant journey (issue 5)';
const CONSENTS = 'consents (issue 6)';
const STATS = 'live statistics and costs (issue 7)';
const IDENTITY = 'identity: registration, password, e-mail, 2FA, social sign-in (issue 13)';
const PEOPLE = 'people: users admin, manager users and change requests (issue 14)';
const COMMS = 'communication: news, newsletters, notifications';
const ADMIN_COURSES = 'course authoring';
const DATA = 'imports, exports and reports';

export const ROUTES: readonly RouteEntry[] = [
  // Public and user routes
  r('/', 'pages.home', 'user', 'done'),
  // Public (issue 17 item 7, decision 0031): partner sites show it in a frame, signed in or not.
  r('/glp', 'pages.glp', 'public', 'done', COURSES),
  r('/prijava', 'pages.login', 'public', 'done'),
  r('/prijava/2fa', 'pages.login2fa', 'public', 'done', IDENTITY),
  r('/powerclass', 'pages.academies', 'user', 'done', COURSES),
  r('/powerclass/:academyId', 'pages.academy', 'user', 'done', COURSES),
  r('/pogoji', 'pages.consents', 'user', 'done', CONSENTS),
  r('/izobrazevanja', 'pages.courses', 'user', 'done', COURSES),
  r('/izobrazevanja/:courseId', 'pages.course', 'user', 'done', COURSES),
  r('/izobrazevanja/:courseId/bloki/:blockIndex', 'pages.block', 'user', 'done', COURSES),
  r('/izobrazevanja/:courseId/certifikat', 'pages.certificate', 'user', 'done', COURSES),
  r('/izobrazevanja/:courseId/konec', 'pages.courseCompleted', 'user', 'done', COURSES),
  r('/courses/:courseId/end', 'pages.courseEnd', 'user', 'done', COURSES),
  r('/sprememba-e-naslova', 'pages.emailChange', 'user', 'done', IDENTITY),
  r('/sprememba-e-naslova/complete', 'pages.emailChangeComplete', 'user', 'done', IDENTITY),
  r('/nov-uporabnik', 'pages.newUser', 'public', 'done', IDENTITY),
  r('/geslo', 'pages.passwordReset', 'public', 'done', IDENTITY),
  r('/geslo/complete', 'pages.passwordResetComplete', 'public', 'done', IDENTITY),
  r('/profil', 'pages.profile', 'user', 'done', IDENTITY),
  r('/profil/pogoji', 'pages.profileConsents', 'user', 'done', CONSENTS),
  r('/profil/izobrazevanja', 'pages.profileCourses', 'user', 'done', COURSES),
  r('/registracija', 'pages.registration', 'public', 'done', IDENTITY),
  r('/registracija/bind-email', 'pages.bindEmail', 'public', 'done', IDENTITY),
  r('/registracija/complete', 'pages.registrationComplete', 'public', 'done', IDENTITY),
  r('/anketa/:surveyId', 'pages.survey', 'public', 'done', DATA),
  // Not in spec §2: the public verification of a certificate, where its QR code leads (issue 18 item 3, decision 0032).
  { ...r('/certifikat/:number', 'pages.certificateVerify', 'public', 'done', COURSES), extra: 'public certificate verification by its number' },
  r('/novicnik', 'pages.newsletters', 'user', 'done', COMMS),
  r('/novicnik/:newsletterId', 'pages.newsletter', 'user', 'done', COMMS),
  r('/vimeo', 'pages.vimeo', 'user', 'done', ADMIN_COURSES),
  r('/version', 'pages.version', 'user', 'done'),
  r('/redirect/:id', 'pages.providerRedirect', 'public', 'done'),
  r('/login-as', 'pages.loginAs', 'public', 'done'),
  // Not in spec §2: the auditor's view of consent histories (issue 6, decision 0013).
  { ...r('/revizija/privolitve', 'pages.consentAudit', 'user', 'done', CONSENTS), extra: 'consent audit for admins and auditors (1070)' },
  // Not in spec §2: a course's approval trail for auditors (issue 36 item 3, decision 0064).
  { ...r('/revizija/odobritve', 'pages.approvalTrail', 'user', 'done', ADMIN_COURSES), extra: 'approval trail of courses for auditors and admins (1072)' },
  // Not in spec §2: a company's cost timeline (issue 7), for its accountant and admins.
  { ...r('/stroski', 'pages.companyCosts', 'user', 'done', STATS), extra: 'company cost timeline for accountants (2009) and admins (1052)' },
  // Not in spec §2: the way in to a community's statistics for its managers, directors, clients and accountants (issue 18).
  {
    ...r('/statistika', 'pages.communityStats', 'user', 'done', STATS),
    extra: 'community statistics overview for managers, directors, clients and accountants (1059)',
  },
  // Not in spec §2: an approver's course versions waiting for their signature, and the review of one (issue 36, decision 0063).
  { ...r('/odobritve', 'pages.approvalInbox', 'user', 'done', ADMIN_COURSES), extra: 'course versions waiting for the approver’s signature (1071)' },
  {
    ...r('/odobritve/:courseId/:approvalVersion', 'pages.approvalReview', 'user', 'done', ADMIN_COURSES),
    extra: 'the review and electronic signature of a course version under approval (1071)',
  },
  // Admin routes
  // Not in spec §2: the mail an admin can read (the local outbox without SMTP, and the delivery log; decision 0017).
  { ...r('/admin/posta', 'pages.adminOutbox', 'admin', 'done', IDENTITY), extra: 'local mail outbox and delivery log (1008)' },
  // Not in spec §2: requests of users an admin handles (spec §8 deletion requests, processed within 5 working days).
  {
    ...r('/admin/zahteve', 'pages.adminRequests', 'admin', 'done', IDENTITY),
    extra: 'users’ requests to delete their data and managers’ change requests (1004)',
  },
  r('/admin/academies/new', 'pages.admin.academyNew', 'admin', 'done', ADMIN_COURSES),
  r('/admin/academies/:id/general', 'pages.admin.academyGeneral', 'admin', 'done', ADMIN_COURSES),
  r('/admin/academies/:id/success/:intervalId', 'pages.admin.academySuccess', 'admin', 'done', STATS),
  r('/admin/academies/:id/communities/:communityId/success/:intervalId', 'pages.admin.academyCommunitySuccess', 'admin', 'done', STATS),
  // Not in spec §2: approval of course content before publishing, per company or for the platform's courses (issue 36).
  {
    ...r('/admin/odobritve', 'pages.admin.approvalSettings', 'admin', 'done', ADMIN_COURSES),
    extra: 'content approval settings: steps, approvers, code prefix (1011)',
  },
  r('/admin/users', 'pages.admin.users', 'admin', 'done', PEOPLE),
  r('/admin/users/new', 'pages.admin.userNew', 'admin', 'done', PEOPLE),
  r('/admin/users/:id', 'pages.admin.user', 'admin', 'done', PEOPLE),
  r('/admin/tags/professions', 'pages.admin.tagsProfessions', 'admin', 'done'),
  r('/admin/tags/companies', 'pages.admin.tagsCompanies', 'admin', 'done'),
  r('/admin/tags/units', 'pages.admin.tagsUnits', 'admin', 'done'),
  r('/admin/tags/courses', 'pages.admin.tagsCourses', 'admin', 'done'),
  r('/admin/tags/courses/:id', 'pages.admin.tagCourse', 'admin', 'done'),
  r('/admin/exports', 'pages.admin.exports', 'admin', 'done', DATA),
  r('/admin/imports', 'pages.admin.imports', 'admin', 'done', DATA),
  // Not in spec §2: xAPI statements sent to an external LRS, their delivery log and a backfill (issue 35 item 5, decision 0061).
  {
    ...r('/admin/zapisi-xapi', 'pages.admin.xapiOut', 'admin', 'done', DATA),
    extra: 'xAPI statements forwarded to an external LRS: the delivery log and a backfill (1064)',
  },
  r('/admin/companies', 'pages.admin.companies', 'admin', 'done'),
  r('/admin/companies/new', 'pages.admin.companyNew', 'admin', 'done'),
  r('/admin/companies/:id', 'pages.admin.company', 'admin', 'done'),
  r('/admin/units', 'pages.admin.units', 'admin', 'done'),
  r('/admin/units/new', 'pages.admin.unitNew', 'admin', 'done'),
  r('/admin/units/:id', 'pages.admin.unit', 'admin', 'done'),
  r('/admin/communities/general', 'pages.admin.communities', 'admin', 'done'),
  r('/admin/communities/general/new', 'pages.admin.communityNew', 'admin', 'done'),
  r('/admin/communities/general/:id', 'pages.admin.community', 'admin', 'done'),
  r('/admin/communities/groups', 'pages.admin.groups', 'admin', 'done'),
  r('/admin/communities/groups/new', 'pages.admin.groupNew', 'admin', 'done'),
  r('/admin/communities/groups/:id', 'pages.admin.group', 'admin', 'done'),
  r('/admin/courses', 'pages.admin.courses', 'admin', 'done', ADMIN_COURSES),
  r('/admin/courses/new', 'pages.admin.courseNew', 'admin', 'done', ADMIN_COURSES),
  r('/admin/courses/:courseId/general', 'pages.admin.courseGeneral', 'admin', 'done', ADMIN_COURSES),
  r('/admin/courses/:courseId/participants', 'pages.admin.courseParticipants', 'admin', 'done', ADMIN_COURSES),
  r('/admin/courses/:courseId/report', 'pages.admin.courseReport', 'admin', 'done', DATA),
  r('/admin/courses/:courseId/report/print', 'pages.admin.courseReportPrint', 'admin', 'done', DATA),
  r('/admin/courses/:courseId/report/download/:reportId', 'pages.admin.courseReportDownload', 'admin', 'done', DATA),
  r('/admin/courses/:courseId/notifications', 'pages.admin.courseNotifications', 'admin', 'done', COMMS),
  r('/admin/courses/:courseId/posts', 'pages.admin.coursePosts', 'admin', 'done', ADMIN_COURSES),
  r('/admin/courses/:courseId/nps/:blockId/overview/:intervalId', 'pages.admin.courseNpsOverview', 'admin', 'done', STATS),
  r('/admin/courses/:courseId/nps/:blockId/communities/:intervalId', 'pages.admin.courseNpsCommunities', 'admin', 'done', STATS),
  r('/admin/courses/:courseId/success/:intervalId', 'pages.admin.courseSuccess', 'admin', 'done', STATS),
  r('/admin/courses/:courseId/communities/:communityId/success/:intervalId', 'pages.admin.courseCommunitySuccess', 'admin', 'done', STATS),
  r('/admin/courses/:courseId/costs/:intervalId', 'pages.admin.courseCosts', 'admin', 'done', STATS),
  r('/admin/courses/:courseId/blocks/quiz/new', 'pages.admin.blockQuizNew', 'admin', 'done', ADMIN_COURSES),
  r('/admin/courses/:courseId/blocks/video/new', 'pages.admin.blockVideoNew', 'admin', 'done', ADMIN_COURSES),
  r('/admin/courses/:courseId/blocks/typeform/new', 'pages.admin.blockTypeformNew', 'admin', 'done', ADMIN_COURSES),
  r('/admin/courses/:courseId/blocks/nps/new', 'pages.admin.blockNpsNew', 'admin', 'done', ADMIN_COURSES),
  r('/admin/courses/:courseId/blocks/points/new', 'pages.admin.blockPointsNew', 'admin', 'done', ADMIN_COURSES),
  // Not in spec §2: spec §3's article and text-file blocks get "new" pages beside the five the spec names.
  {
    ...r('/admin/courses/:courseId/blocks/article/new', 'pages.admin.blockArticleNew', 'admin', 'done', ADMIN_COURSES),
    extra: 'a new article block (spec §3 block kinds; spec §2 names new pages for five of the seven)',
  },
  {
    ...r('/admin/courses/:courseId/blocks/text-file/new', 'pages.admin.blockTextFileNew', 'admin', 'done', ADMIN_COURSES),
    extra: 'a new text-file block (spec §3 block kinds; spec §2 names new pages for five of the seven)',
  },
  {
    ...r('/admin/courses/:courseId/blocks/interactr/new', 'pages.admin.blockInteractrNew', 'admin', 'done', ADMIN_COURSES),
    extra: 'a new Interactr block (issue 15 item 11; only while the Interactr feature of spec §1 is on)',
  },
  {
    ...r('/admin/courses/:courseId/blocks/package/new', 'pages.admin.blockPackageNew', 'admin', 'done', ADMIN_COURSES),
    extra: 'a new SCORM/cmi5 package block (issue 35 item 1)',
  },
  r('/admin/courses/:courseId/blocks/:blockId', 'pages.admin.block', 'admin', 'done', ADMIN_COURSES),
  // Not in spec §2's route list, but among its course tabs (issue 15 item 11).
  {
    ...r('/admin/courses/:courseId/profit', 'pages.admin.courseProfit', 'admin', 'done', ADMIN_COURSES),
    extra: 'the profit tab of spec §2: billed amount less the revenue shared per view (1052 or 2009, as the costs)',
  },
  {
    ...r('/admin/courses/:courseId/attachments', 'pages.admin.courseAttachments', 'admin', 'done', ADMIN_COURSES),
    extra: 'the attachments tab of spec §2: files participants download from the course page (1019)',
  },
  r('/admin/news', 'pages.admin.news', 'admin', 'done', COMMS),
  r('/admin/news/:newsId', 'pages.admin.newsItem', 'admin', 'done', COMMS),
  r('/admin/newsletters', 'pages.admin.newsletters', 'admin', 'done', COMMS),
  r('/admin/newsletters/new', 'pages.admin.newsletterNew', 'admin', 'done', COMMS),
  r('/admin/newsletters/:id/edit', 'pages.admin.newsletterEdit', 'admin', 'done', COMMS),
  r('/admin/stats', 'pages.admin.stats', 'admin', 'done', STATS),
  r('/admin/professions', 'pages.admin.professions', 'admin', 'done'),
  r('/admin/professions/new', 'pages.admin.professionNew', 'admin', 'done'),
  r('/admin/professions/:id', 'pages.admin.profession', 'admin', 'done'),
  r('/admin/professions/groups', 'pages.admin.professionGroups', 'admin', 'done'),
  r('/admin/professions/groups/new', 'pages.admin.professionGroupNew', 'admin', 'done'),
  r('/admin/professions/groups/:id', 'pages.admin.professionGroup', 'admin', 'done'),
  r('/manager/users', 'pages.manager.users', 'manager', 'done', PEOPLE),
];

/** The public pages of spec §2 that skip the login check. */
export const isPublicPath = (pathname: string) => ROUTES.some((route) => route.section === 'public' && matchPath(route.path, pathname));

/** True when `pathname` matches the route pattern (`:name` is one path segment). */
export const matchPath = (pattern: string, pathname: string) => {
  const a = pattern.split('/').filter(Boolean);
  const b = pathname.replace(/\/+$/, '').split('/').filter(Boolean);
  return a.length === b.length && a.every((segment, i) => segment.startsWith(':') || segment === b[i]);
};
