import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Outlet, useLocation } from 'react-router';
import { focusPageHeading } from '../../lib/focus-page-heading.ts';
import { LOCALE_COOKIE } from '../../lib/i18n.ts';
import { NavigationProgress } from './navigation-progress.tsx';

const isUserCoursePage = (path: string) => /^\/(izobrazevanja|courses)\/[^/]+/.test(path);
const isAdminCoursePage = (path: string) => /^\/admin\/courses\/[^/]+/.test(path);

/**
 * The guards of spec §2 that act after a navigation: invalidate-store (leaving course pages drops
 * the loaded course state, leaving admin course pages the admin course state), navigated (a new page
 * starts at the top, its heading takes the focus: issue 33 item 5; not on the first page of a visit),
 * i18n (the Slovenian locale cookie).
 */
const NavigationEffects = () => {
  const { pathname } = useLocation();
  const queryClient = useQueryClient();
  const previous = useRef(pathname);
  useEffect(() => {
    const before = previous.current;
    previous.current = pathname;
    if (isUserCoursePage(before) && !isUserCoursePage(pathname)) queryClient.removeQueries({ queryKey: ['user-course'] });
    if (isAdminCoursePage(before) && !isAdminCoursePage(pathname)) queryClient.removeQueries({ queryKey: ['admin-course'] });
    if (before !== pathname) window.scrollTo({ top: 0 });
    const stopFocusing = before !== pathname ? focusPageHeading() : undefined;
    if (!document.cookie.includes(`${LOCALE_COOKIE}=si`)) {
      // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is not in every browser our users have.
      document.cookie = `${LOCALE_COOKIE}=si; path=/; max-age=${365 * 24 * 60 * 60}; SameSite=Lax`;
    }
    return stopFocusing;
  }, [pathname, queryClient]);
  return null;
};

export const Root = () => (
  <>
    <NavigationProgress />
    <NavigationEffects />
    <Outlet />
  </>
);
