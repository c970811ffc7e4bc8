import { describe, expect, it } from 'vitest';
import { breadcrumbTrail } from './breadcrumb-trail.ts';

describe('breadcrumbs of nested admin pages (issue 33)', () => {
  it('name a course page by the course list, the course and its tab', () => {
    expect(breadcrumbTrail('/admin/courses/:courseId/success/:intervalId', { courseId: '7', intervalId: '0' }, { course: 'Interakcije zdravil' })).toEqual([
      { key: 'pages.admin.courses', to: '/admin/courses' },
      { name: 'Interakcije zdravil', to: '/admin/courses/7/general' },
      { key: 'adminCourses.tabs.success' },
    ]);
  });

  it('name the tab above a page under it, and the page itself last without a link', () => {
    expect(
      breadcrumbTrail('/admin/courses/:courseId/communities/:communityId/success/:intervalId', { courseId: '7', communityId: '3', intervalId: '2' }),
    ).toEqual([
      { key: 'pages.admin.courses', to: '/admin/courses' },
      { key: 'pages.admin.courseGeneral', to: '/admin/courses/7/general' },
      { key: 'adminCourses.tabs.success', to: '/admin/courses/7/success/0' },
      { key: 'pages.admin.courseCommunitySuccess' },
    ]);
    expect(breadcrumbTrail('/admin/courses/:courseId/blocks/:blockId', { courseId: '7', blockId: '12' }, { course: 'Tečaj' }).at(-1)).toEqual({
      key: 'pages.admin.block',
    });
  });

  it('put an academy under the courses, and other records under their nearest list', () => {
    expect(breadcrumbTrail('/admin/academies/:id/general', { id: '4' }, { academy: 'Powerclass' })).toEqual([
      { key: 'pages.admin.courses', to: '/admin/courses' },
      { name: 'Powerclass', to: '/admin/academies/4/general' },
      { key: 'adminCourses.tabs.general' },
    ]);
    expect(breadcrumbTrail('/admin/users/:id', { id: '9' })).toEqual([{ key: 'pages.admin.users', to: '/admin/users' }, { key: 'pages.admin.user' }]);
    expect(breadcrumbTrail('/admin/tags/courses/:id', { id: '2' })).toEqual([
      { key: 'pages.admin.tagsCourses', to: '/admin/tags/courses' },
      { key: 'pages.admin.tagCourse' },
    ]);
    expect(breadcrumbTrail('/admin/professions/groups/:id', { id: '2' })[0]).toEqual({ key: 'pages.admin.professionGroups', to: '/admin/professions/groups' });
  });

  it('leave top-level pages without a trail', () => {
    for (const path of ['/admin/users', '/admin/courses', '/admin/stats', '/stroski']) expect(breadcrumbTrail(path, {})).toEqual([]);
  });
});
