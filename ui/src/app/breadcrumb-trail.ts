import { ROUTES } from './route-paths.ts';

/** One step of a trail: an i18n key or a record's own name (a course's title), and where it leads (none for the page itself). */
export type TrailStep = { key?: string; name?: string; to?: string };

const COURSE = '/admin/courses/:courseId/';
const ACADEMY = '/admin/academies/:id/';

/** A course's (or academy's) page under its record: the tab it belongs to, and a tab page above it where there is one. */
const COURSE_TABS: Record<string, { tab: string; parent?: { tab: string; path: string } }> = {
  general: { tab: 'general' },
  participants: { tab: 'participants' },
  'costs/:intervalId': { tab: 'costs' },
  notifications: { tab: 'notifications' },
  report: { tab: 'report' },
  'report/download/:reportId': { tab: 'report', parent: { tab: 'report', path: 'report' } },
  'success/:intervalId': { tab: 'success' },
  'communities/:communityId/success/:intervalId': { tab: 'success', parent: { tab: 'success', path: 'success/0' } },
  'nps/:blockId/overview/:intervalId': { tab: 'nps' },
  'nps/:blockId/communities/:intervalId': { tab: 'npsDetail' },
  posts: { tab: 'posts' },
  profit: { tab: 'profit' },
  attachments: { tab: 'attachments' },
};

const fill = (pattern: string, params: Readonly<Record<string, string | undefined>>) => pattern.replace(/:(\w+)/g, (_, name: string) => params[name] ?? '');
const routeTitle = (pattern: string) => ROUTES.find((route) => route.path === pattern)?.title;

/**
 * The breadcrumbs of a nested admin page (issue 33), from its route pattern: a course's or an
 * academy's pages read "Izobraževanja › <its name> › <tab>" (a page under a tab names the tab too);
 * any other nested page names the nearest list above it ("Uporabniki › Uporabnik"). Top-level pages
 * have none (an empty trail). The last step is the page itself, without a link.
 */
export const breadcrumbTrail = (
  pattern: string,
  params: Readonly<Record<string, string | undefined>>,
  names: { course?: string | undefined; academy?: string | undefined } = {},
): TrailStep[] => {
  const current: TrailStep = { key: routeTitle(pattern) ?? pattern };
  const courses: TrailStep = { key: 'pages.admin.courses', to: '/admin/courses' };
  const record = (base: string, name: string | undefined, fallback: string): TrailStep[] => {
    const rest = pattern.slice(base.length);
    const tab = COURSE_TABS[rest];
    const home = fill(`${base}general`, params);
    const own: TrailStep = name ? { name, to: home } : { key: fallback, to: home };
    if (!tab) return [courses, own, current];
    const parent = tab.parent ? [{ key: `adminCourses.tabs.${tab.parent.tab}`, to: fill(`${base}${tab.parent.path}`, params) }] : [];
    return [courses, own, ...parent, tab.parent ? current : { key: `adminCourses.tabs.${tab.tab}` }];
  };
  if (pattern.startsWith(COURSE)) return record(COURSE, names.course, 'pages.admin.courseGeneral');
  if (pattern.startsWith(ACADEMY)) return record(ACADEMY, names.academy, 'pages.admin.academyGeneral');
  if (pattern === '/admin/academies/new') return [courses, current];
  // The nearest list above the page (its path's longest prefix that is a route of its own).
  const segments = pattern.split('/').filter(Boolean);
  for (let length = segments.length - 1; length >= 2; length--) {
    const prefix = `/${segments.slice(0, length).join('/')}`;
    const title = routeTitle(prefix);
    if (title) return [{ key: title, to: fill(prefix, params) }, current];
  }
  return [];
};
