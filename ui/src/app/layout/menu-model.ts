import type { CurrentUser } from '../../features/users/api/me.ts';
import { hasRole, hasSystemPermission, ROLE_ID, readsCourses } from '../../features/users/roles.ts';

export type MenuItem = {
  readonly key: string;
  /** i18n key */
  readonly label: string;
  readonly to?: string;
  readonly children?: readonly MenuItem[];
};

const NEWS_PERMISSION = 1065;
const CONSENT_AUDIT_PERMISSION = 1070;
/** Issue 36 item 3 (decision 0064): read a course's approval trail. */
const APPROVAL_AUDIT_PERMISSION = 1072;
const APPROVE_PERMISSION = 1071;
/** The roles spec §6 grants the community statistics (1059 block views overview): manager, director, client, accountant. */
export const COMMUNITY_STATS_ROLES = [ROLE_ID.manager, ROLE_ID.director, ROLE_ID.client, ROLE_ID.accountant] as const;

/**
 * The menus of spec §2 for one user:
 * - everyone signed in: courses and academies (with ?own=true for a user who is both manager and participant);
 * - admin or editor: course editing, communities (units, companies, community groups, professions), users, tags (companies,
 *   professions, units, courses), and news with newsletters for those holding permission 1065;
 * - admin only: data (exports, imports, stats);
 * - manager or director who is not admin: users (the manager route);
 * - manager, director, client or accountant who is not admin: their community's statistics (issue 18).
 */

export const mainMenu = (user: CurrentUser): MenuItem[] => {
  const admin = hasRole(user, ROLE_ID.admin);
  const editor = hasRole(user, ROLE_ID.editor);
  const manager = hasRole(user, ROLE_ID.manager);
  const director = hasRole(user, ROLE_ID.director);
  const own = manager && hasRole(user, ROLE_ID.participant) ? '?own=true' : '';
  const items: MenuItem[] = readsCourses(user)
    ? [
        { key: 'courses', label: 'menu.courses', to: `/izobrazevanja${own}` },
        { key: 'academies', label: 'menu.academies', to: `/powerclass${own}` },
      ]
    : [];
  if (admin || editor) {
    items.push(
      // Issue 33 item 7: course editing was reached only from the course list's "Urejanje izobraževanj" button.
      { key: 'adminCourses', label: 'menu.adminCourses', to: '/admin/courses' },
      {
        key: 'communities',
        label: 'menu.communities',
        children: [
          { key: 'units', label: 'menu.units', to: '/admin/units' },
          { key: 'companies', label: 'menu.companies', to: '/admin/companies' },
          { key: 'groups', label: 'menu.groups', to: '/admin/communities/groups' },
          // Issue 18: professions and their groups (the registration's choices) were reached by URL only.
          { key: 'professions', label: 'menu.professions', to: '/admin/professions' },
          { key: 'professionGroups', label: 'menu.professionGroups', to: '/admin/professions/groups' },
        ],
      },
      { key: 'users', label: 'menu.users', to: '/admin/users' },
      {
        key: 'tags',
        label: 'menu.tags',
        children: [
          { key: 'tagsCompanies', label: 'menu.tagsCompanies', to: '/admin/tags/companies' },
          { key: 'tagsProfessions', label: 'menu.tagsProfessions', to: '/admin/tags/professions' },
          // Issue 18: the unit and course tags were reached by URL only.
          { key: 'tagsUnits', label: 'menu.tagsUnits', to: '/admin/tags/units' },
          { key: 'tagsCourses', label: 'menu.tagsCourses', to: '/admin/tags/courses' },
        ],
      },
    );
    if (hasSystemPermission(user, NEWS_PERMISSION)) {
      items.push({
        key: 'news',
        label: 'menu.news',
        children: [
          { key: 'newsItems', label: 'menu.newsItems', to: '/admin/news' },
          { key: 'newsletters', label: 'menu.newsletters', to: '/admin/newsletters' },
        ],
      });
    }
  }
  if (admin) {
    items.push({
      key: 'data',
      label: 'menu.data',
      children: [
        { key: 'exports', label: 'menu.exports', to: '/admin/exports' },
        { key: 'imports', label: 'menu.imports', to: '/admin/imports' },
        { key: 'stats', label: 'menu.stats', to: '/admin/stats' },
        { key: 'companyCosts', label: 'menu.companyCosts', to: '/stroski' },
        // Decision 0013: admins hold the consent audit (1070) too.
        { key: 'consentAudit', label: 'menu.consentAudit', to: '/revizija/privolitve' },
        // Decision 0064: and the approval trail of courses (1072).
        { key: 'approvalTrail', label: 'menu.approvalTrail', to: '/revizija/odobritve' },
        // Issue 13: users' deletion requests, and the mail the platform sent (the demo's outbox).
        { key: 'requests', label: 'menu.requests', to: '/admin/zahteve' },
        { key: 'mail', label: 'menu.mail', to: '/admin/posta' },
        // Issue 35 item 5: the xAPI statements sent to the external LRS.
        { key: 'xapiOut', label: 'menu.xapiOut', to: '/admin/zapisi-xapi' },
        // Issue 36: approval of course content before publishing (steps, approvers, code prefix).
        { key: 'approvalSettings', label: 'menu.approvalSettings', to: '/admin/odobritve' },
        // Admins hold 1071 as every system ability: their inbox is here, not one more item in a full header.
        ...(hasSystemPermission(user, APPROVE_PERMISSION) ? [{ key: 'approvalInbox', label: 'menu.approvalInbox', to: '/odobritve' }] : []),
      ],
    });
  }
  // Issue 36: whoever signs approval steps (1071) finds what waits for them.
  if (!admin && hasSystemPermission(user, APPROVE_PERMISSION)) items.push({ key: 'approvalInbox', label: 'menu.approvalInbox', to: '/odobritve' });
  if ((manager || director) && !admin) items.push({ key: 'managerUsers', label: 'menu.managerUsers', to: '/manager/users' });
  // Issue 18: the statistics of one's community (spec §6 1059: managers, directors, clients, accountants); admins have theirs under data.
  const communityRole = COMMUNITY_STATS_ROLES.some((role) => hasRole(user, role));
  if (!admin && communityRole) items.push({ key: 'communityStats', label: 'menu.stats', to: '/statistika' });
  // Issue 18: their company's record (community read 2000), read-only without 1011; admins and editors have it under communities.
  if (!admin && !editor && communityRole) items.push({ key: 'companies', label: 'menu.companies', to: '/admin/companies' });
  // Issue 7: the accountant's costs (admins find them under data).
  if (!admin && hasRole(user, ROLE_ID.accountant)) items.push({ key: 'companyCosts', label: 'menu.companyCosts', to: '/stroski' });
  // Decision 0013: the consent audit for auditors (admins find it under data).
  if (!admin && hasSystemPermission(user, CONSENT_AUDIT_PERMISSION))
    items.push({ key: 'consentAudit', label: 'menu.consentAudit', to: '/revizija/privolitve' });
  // Decision 0064: the approval trail of courses for auditors (admins find it under data).
  if (!admin && hasSystemPermission(user, APPROVAL_AUDIT_PERMISSION))
    items.push({ key: 'approvalTrail', label: 'menu.approvalTrail', to: '/revizija/odobritve' });
  // Decision 0026: the accountant exports their company's costs, the auditor consents (admins find exports under data).
  if (!admin && (hasRole(user, ROLE_ID.accountant) || hasSystemPermission(user, CONSENT_AUDIT_PERMISSION)))
    items.push({ key: 'exports', label: 'menu.exports', to: '/admin/exports' });
  return items;
};

/** spec §2: the mobile menu button appears only for admin, manager or director. */
export const showsMobileMenuButton = (user: CurrentUser) => hasRole(user, ROLE_ID.admin) || hasRole(user, ROLE_ID.manager) || hasRole(user, ROLE_ID.director);

/**
 * On a phone, for a user without the menu button (spec §2: only admin, manager, director), the main
 * menu's pages the footer does not hold (courses and academies are there) go into the user menu:
 * otherwise an accountant, a client or an auditor could not reach costs, exports, statistics or the
 * consent audit on a phone at all.
 */
export const phoneUserMenuLinks = (user: CurrentUser): MenuItem[] =>
  showsMobileMenuButton(user)
    ? []
    : mainMenu(user)
        .flatMap((item) => item.children ?? [item])
        .filter((item) => item.key !== 'courses' && item.key !== 'academies' && item.to !== undefined);

/**
 * spec §2 user menu: profile and own completed courses (beside the name, location and logout). The
 * footer's "news" (/novicnik) shows on phones only, so the newsletters are here too while their
 * feature is on (issue 16): every signed-in user reaches them on any screen.
 */
export const userMenuLinks = (features: { newsletters: boolean | undefined }, user?: CurrentUser): MenuItem[] => [
  { key: 'profile', label: 'userMenu.profile', to: '/profil' },
  // An auditor takes and reads no courses (decision 0016): no completed courses to list (issue 18).
  ...(user && !readsCourses(user) ? [] : [{ key: 'completedCourses', label: 'userMenu.completedCourses', to: '/profil/izobrazevanja' }]),
  ...(features.newsletters ? [{ key: 'newsletters', label: 'userMenu.newsletters', to: '/novicnik' }] : []),
];

/** spec §2 mobile footer: home, courses, academies, new, completed, archived, search, news. */
export const FOOTER_LINKS: readonly MenuItem[] = [
  { key: 'home', label: 'footer.home', to: '/' },
  { key: 'courses', label: 'footer.courses', to: '/izobrazevanja' },
  { key: 'academies', label: 'footer.academies', to: '/powerclass' },
  { key: 'new', label: 'footer.new', to: '/izobrazevanja?filter=new' },
  { key: 'completed', label: 'footer.completed', to: '/izobrazevanja?filter=completed' },
  { key: 'archived', label: 'footer.archived', to: '/izobrazevanja?filter=archived' },
  { key: 'search', label: 'footer.search', to: '/izobrazevanja?search=' },
  { key: 'news', label: 'footer.news', to: '/novicnik' },
];

/** The course pages of the footer: all but home and news open a course list. */
const FOOTER_COURSE_LINKS = new Set(['courses', 'academies', 'new', 'completed', 'archived', 'search']);

/**
 * The footer of one user: only what the user may open (issue 33 item 7). An auditor reads no courses
 * (decision 0016), so the course lists, which answer 403, are not offered: home and news stay.
 */
export const footerLinks = (user: CurrentUser): readonly MenuItem[] =>
  readsCourses(user) ? FOOTER_LINKS : FOOTER_LINKS.filter((link) => !FOOTER_COURSE_LINKS.has(link.key));
