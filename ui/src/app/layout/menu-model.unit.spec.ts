import { describe, expect, it } from 'vitest';
import type { CurrentUser } from '../../features/users/api/me.ts';
import { PROFILE_DEFAULTS } from '../../features/users/current-user.fixture.ts';
import { FOOTER_LINKS, footerLinks, mainMenu, phoneUserMenuLinks, showsMobileMenuButton, userMenuLinks } from './menu-model.ts';

const ADMIN_ABILITIES = [1004, 1005, 1006, 1007, 1008, 1009, 1010, 1011, 1012, 1017, 1018, 1019, 1020, 1062, 1063, 1064, 1065, 1066];
const EDITOR_ABILITIES = [1004, 1009, 1010, 1011, 1012, 1017, 1018, 1019, 1020, 1062, 1063, 1064, 1065];

const user = (roles: number[], abilities: number[] = []): CurrentUser => ({
  ...PROFILE_DEFAULTS,
  id: 1,
  username: 'u',
  email: 'u@x.si',
  firstName: 'U',
  middleName: null,
  lastName: 'X',
  fullName: 'U X',
  phone: null,
  profession: null,
  userRoles: roles.map((id) => ({ role_id: id, unit_id: 3, unit_name: 'Enota', company_id: 2, company_name: 'Podjetje' })),
  consents: [],
  missingConsents: [],
  systemAbilities: abilities.map((systemPermission) => ({ systemPermission })),
  roles: roles.map((id) => ({ id, name: String(id), unit_id: 3, unit_name: 'Enota', company_id: 2, company_name: 'Podjetje' })),
});

/** The menu as keys and links, flattened: what a user sees. */
const flat = (u: CurrentUser) =>
  mainMenu(u).flatMap((item) => [item.to ? `${item.key} ${item.to}` : item.key, ...(item.children ?? []).map((c) => `  ${c.key} ${c.to}`)]);

describe('menus of spec §2 per role', () => {
  it('auditor (1070, decisions 0013, 0016 and 0026): only the consent audit and exports; no courses to read, nothing to administer', () => {
    expect(flat(user([7], [1070]))).toEqual(['consentAudit /revizija/privolitve', 'exports /admin/exports']);
    // Decision 0064: the auditor's role holds 1072 too, the approval trail of courses.
    expect(flat(user([7], [1070, 1072]))).toEqual(['consentAudit /revizija/privolitve', 'approvalTrail /revizija/odobritve', 'exports /admin/exports']);
  });

  it('admin: courses, academies, course editing, communities, users, tags, news, data; no manager users', () => {
    expect(flat(user([1], ADMIN_ABILITIES))).toEqual([
      'courses /izobrazevanja',
      'academies /powerclass',
      'adminCourses /admin/courses',
      'communities',
      '  units /admin/units',
      '  companies /admin/companies',
      '  groups /admin/communities/groups',
      '  professions /admin/professions',
      '  professionGroups /admin/professions/groups',
      'users /admin/users',
      'tags',
      '  tagsCompanies /admin/tags/companies',
      '  tagsProfessions /admin/tags/professions',
      '  tagsUnits /admin/tags/units',
      '  tagsCourses /admin/tags/courses',
      'news',
      '  newsItems /admin/news',
      '  newsletters /admin/newsletters',
      'data',
      '  exports /admin/exports',
      '  imports /admin/imports',
      '  stats /admin/stats',
      '  companyCosts /stroski',
      '  consentAudit /revizija/privolitve',
      '  approvalTrail /revizija/odobritve',
      '  requests /admin/zahteve',
      '  mail /admin/posta',
      '  xapiOut /admin/zapisi-xapi',
      '  approvalSettings /admin/odobritve',
    ]);
  });

  it('approver (1071, issue 36): the inbox of course versions waiting for their signature', () => {
    expect(flat(user([8], [1071]))).toEqual(['courses /izobrazevanja', 'academies /powerclass', 'approvalInbox /odobritve']);
    // An admin holds 1071 too: the inbox is under data, beside the settings, not one more item in the header.
    const admin = mainMenu(user([1], [...ADMIN_ABILITIES, 1071]));
    expect(admin.map((i) => i.key)).not.toContain('approvalInbox');
    expect(
      admin
        .find((i) => i.key === 'data')
        ?.children?.map((c) => c.key)
        .slice(-2),
    ).toEqual(['approvalSettings', 'approvalInbox']);
  });

  it('editor: the admin-type menu without data', () => {
    const keys = mainMenu(user([6], EDITOR_ABILITIES)).map((i) => i.key);
    expect(keys).toEqual(['courses', 'academies', 'adminCourses', 'communities', 'users', 'tags', 'news']);
  });

  it('shows the news entries only with permission 1065', () => {
    expect(mainMenu(user([6], [1004])).map((i) => i.key)).not.toContain('news');
  });

  it('manager or director who is not admin: courses, academies, the manager users route, their community statistics and company (issue 18)', () => {
    for (const role of [2, 5])
      expect(flat(user([role]))).toEqual([
        'courses /izobrazevanja',
        'academies /powerclass',
        'managerUsers /manager/users',
        'communityStats /statistika',
        'companies /admin/companies',
      ]);
    expect(mainMenu(user([1, 2], ADMIN_ABILITIES)).map((i) => i.key)).not.toContain('managerUsers');
  });

  it('participant: courses and academies only; the client also their community statistics and company, the accountant too and their costs (issue 7) and exports (decision 0026)', () => {
    expect(flat(user([10]))).toEqual(['courses /izobrazevanja', 'academies /powerclass']);
    expect(flat(user([4]))).toEqual(['courses /izobrazevanja', 'academies /powerclass', 'communityStats /statistika', 'companies /admin/companies']);
    expect(flat(user([3]))).toEqual([
      'courses /izobrazevanja',
      'academies /powerclass',
      'communityStats /statistika',
      'companies /admin/companies',
      'companyCosts /stroski',
      'exports /admin/exports',
    ]);
  });

  it('adds own=true to courses and academies for a user who is both manager and participant', () => {
    expect(flat(user([2, 10]))).toEqual([
      'courses /izobrazevanja?own=true',
      'academies /powerclass?own=true',
      'managerUsers /manager/users',
      'communityStats /statistika',
      'companies /admin/companies',
    ]);
    expect(flat(user([5, 10]))[0]).toBe('courses /izobrazevanja');
  });

  it('user menu: profile and completed courses; the newsletters (/novicnik) too while their feature is on (issue 16)', () => {
    const links = (newsletters: boolean | undefined) => userMenuLinks({ newsletters }).map((l) => `${l.key} ${l.to}`);
    expect(links(true)).toEqual(['profile /profil', 'completedCourses /profil/izobrazevanja', 'newsletters /novicnik']);
    expect(links(false)).toEqual(['profile /profil', 'completedCourses /profil/izobrazevanja']);
    expect(links(undefined)).toEqual(links(false));
    // An auditor reads no courses (decision 0016): no completed courses in their menu (issue 18).
    expect(userMenuLinks({ newsletters: false }, user([7])).map((l) => l.key)).toEqual(['profile']);
    expect(userMenuLinks({ newsletters: false }, user([10])).map((l) => l.key)).toEqual(['profile', 'completedCourses']);
    // On phones the footer's "news" leads there as well.
    expect(FOOTER_LINKS.find((l) => l.key === 'news')?.to).toBe('/novicnik');
  });

  it('shows the mobile menu button only to admin, manager or director', () => {
    expect([1, 2, 3, 4, 5, 6, 10].filter((role) => showsMobileMenuButton(user([role])))).toEqual([1, 2, 5]);
  });

  it("gives those without the phone menu button their pages in the user menu: the accountant's costs and exports, the auditor's consent audit", () => {
    const keys = (roles: number[], abilities: number[] = []) => phoneUserMenuLinks(user(roles, abilities)).map((link) => link.key);
    expect(keys([3])).toEqual(expect.arrayContaining(['companyCosts', 'exports', 'communityStats', 'companies']));
    expect(keys([7], [1070])).toEqual(['consentAudit', 'exports']);
    // Courses and academies are in the footer; the menu button's holders keep their drawer.
    expect(keys([10])).toEqual([]);
    expect(keys([1], ADMIN_ABILITIES)).toEqual([]);
    expect(keys([2])).toEqual([]);
  });

  it('footer (issue 33 item 7): the auditor, who reads no courses, is offered home and news only; everyone else all eight', () => {
    expect(footerLinks(user([7], [1070])).map((l) => l.key)).toEqual(['home', 'news']);
    expect(footerLinks(user([10]))).toEqual(FOOTER_LINKS);
    expect(footerLinks(user([4]))).toEqual(FOOTER_LINKS);
  });
});
