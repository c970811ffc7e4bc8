import { Box, Button, Group } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { getAuthoredCourse } from '../api/admin-courses.ts';

type Tab = { key: string; path: string | null };

/**
 * The tabs of a course's admin pages (spec §2, issue 15): each a link to its page; the NPS tabs open
 * the course's first NPS survey and are disabled while it has none; statistics start at interval 0
 * (all time). The page shown is marked for screen readers (aria-current). For course authors (1017)
 * only: the routes decide, as an accountant reaches a course's costs page and nothing else.
 */
/** The tabs a community's client works in: its course's content, people, files and comments (no money or statistics). */
const COMMUNITY_TABS = new Set(['general', 'participants', 'posts', 'attachments']);
/**
 * The system permission (spec §6) a tab's page is read with; issue 18: a tab whose page would refuse
 * is not offered (the editor holds no deal read 1052, so neither costs nor profit).
 */
const TAB_PERMISSION: Record<string, number> = { costs: 1052, profit: 1052, report: 1064, success: 1056, nps: 1056, npsDetail: 1056, approvalTrail: 1072 };

export const CourseTabs = ({
  courseId,
  community = false,
  holds = () => true,
}: {
  courseId: number;
  community?: boolean;
  holds?: (systemPermission: number) => boolean;
}) => {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const course = useQuery({ queryKey: ['admin-courses', 'authored', courseId], queryFn: () => getAuthoredCourse(courseId), retry: false });
  const nps = course.data?.blocks.find((b) => b.kind === 'nps')?.id ?? null;
  const base = `/admin/courses/${courseId}`;
  const tabs: Tab[] = [
    { key: 'general', path: `${base}/general` },
    { key: 'participants', path: `${base}/participants` },
    { key: 'costs', path: `${base}/costs/0` },
    { key: 'notifications', path: `${base}/notifications` },
    { key: 'report', path: `${base}/report` },
    { key: 'success', path: `${base}/success/0` },
    { key: 'nps', path: nps === null ? null : `${base}/nps/${nps}/overview/0` },
    { key: 'npsDetail', path: nps === null ? null : `${base}/nps/${nps}/communities/0` },
    { key: 'posts', path: `${base}/posts` },
    { key: 'profit', path: `${base}/profit` },
    { key: 'attachments', path: `${base}/attachments` },
    // Issue 36 item 3: the course's approval trail, on the auditors' page (decision 0064).
    { key: 'approvalTrail', path: `/revizija/odobritve?course=${courseId}` },
  ];
  const shown = community
    ? tabs.filter((tab) => COMMUNITY_TABS.has(tab.key))
    : tabs.filter((tab) => TAB_PERMISSION[tab.key] === undefined || holds(TAB_PERMISSION[tab.key] as number));
  // The deepest tab whose path the page is under (the NPS overview is not the detailed NPS).
  const current = (tab: Tab) => tab.path !== null && pathname.startsWith(tab.path.replace(/\/0$/, ''));
  // Issue 33: on a phone the tabs keep their labels whole and the row scrolls sideways; the page's own tab is scrolled into sight.
  const row = useRef<HTMLDivElement>(null);
  const ready = course.isSuccess;
  // biome-ignore lint/correctness/useExhaustiveDependencies: another tab's page (a new pathname) brings its tab into sight.
  useEffect(() => {
    const list = row.current;
    const active = list?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!list || !active || !ready) return;
    const offset = active.getBoundingClientRect().left - list.getBoundingClientRect().left + list.scrollLeft;
    list.scrollLeft = Math.max(0, offset - (list.clientWidth - active.offsetWidth) / 2);
  }, [pathname, ready]);
  return (
    <Box ref={row} mb="md" pb={4} data-course-tabs style={{ overflowX: 'auto' }}>
      <Group gap={4} wrap="nowrap" component="nav" aria-label={t('adminCourses.tabs.label')}>
        {shown.map((tab) =>
          tab.path === null ? (
            <Button key={tab.key} variant="subtle" color="gray.7" disabled title={t('adminCourses.tabs.noNps')} style={{ flexShrink: 0 }}>
              {t(`adminCourses.tabs.${tab.key}`)}
            </Button>
          ) : (
            <Button
              key={tab.key}
              component={Link}
              to={tab.path}
              variant={current(tab) ? 'light' : 'subtle'}
              aria-current={current(tab) ? 'page' : undefined}
              style={{ flexShrink: 0 }}
            >
              {t(`adminCourses.tabs.${tab.key}`)}
            </Button>
          ),
        )}
      </Group>
    </Box>
  );
};
