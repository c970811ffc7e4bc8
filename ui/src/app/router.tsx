import { notifications } from '@mantine/notifications';
import i18next from 'i18next';
import type { ReactNode } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { exchangeLoginToken, providerLogin } from '../features/users/api/exchange-token.ts';
import { meQuery } from '../features/users/api/me.ts';
import { missingProfessionNumber } from '../features/users/profession-numbers.ts';
import { tokenSignsIn } from '../lib/api-client.ts';
import { session } from '../lib/session.ts';
import { createGuard } from './guards.ts';
import { PublicLayout } from './layout/public-layout.tsx';
import { Root } from './layout/root.tsx';
import { queryClient } from './query-client.ts';
import { ROUTES, type RouteEntry } from './route-paths.ts';
import { GuardPending } from './routes/guard-pending.tsx';
import { HomePage } from './routes/home.tsx';
import { LoginPage } from './routes/login.tsx';
import { NotFoundPage } from './routes/not-found.tsx';
import { PlaceholderPage } from './routes/placeholder-page.tsx';
import { RouteErrorPage } from './routes/route-error.tsx';
import { VersionPage } from './routes/version.tsx';

const guard = createGuard({
  token: session.token,
  setToken: session.setToken,
  keepRealToken: session.keepRealToken,
  clearSession: () => {
    session.clear();
    queryClient.clear();
  },
  exchangeLoginToken,
  tokenSignsIn,
  providerLogin,
  loadUser: () => queryClient.fetchQuery(meQuery),
  // spec §2/§5: a user lacking a required consent (types 1 to 4) goes to /pogoji, and back afterwards.
  missingConsentsRedirect: (user, fullPath) => (user.missingConsents.length > 0 ? `/pogoji?redirect=${encodeURIComponent(fullPath)}` : null),
  // spec §5: the toast keys are the spec's own (user.licenceNumber.warning, user.chamberMembershipNumber.warning).
  missingProfessionNumber: (user) => {
    const missing = missingProfessionNumber(user);
    return missing === 'licence' ? 'user.licenceNumber.warning' : missing === 'chamber' ? 'user.chamberMembershipNumber.warning' : null;
  },
  toast: (key) => notifications.show({ color: 'yellow', message: i18next.t(key) }),
  logError: (message, error) => console.error(message, error),
});

/** Built pages by path; every other route of spec §2 is a titled placeholder until its issue lands. */
const PAGES: Record<string, () => ReactNode> = {
  '/': () => <HomePage />,
  '/prijava': () => <LoginPage />,
  '/version': () => <VersionPage />,
  '/login-as': () => <GuardPending />,
  '/redirect/:id': () => <GuardPending />,
};

/** Participant course pages: one lazily loaded chunk, so the login page does not carry them. */
const COURSE_PAGES = new Set([
  '/powerclass',
  '/powerclass/:academyId',
  '/izobrazevanja',
  '/izobrazevanja/:courseId',
  '/izobrazevanja/:courseId/bloki/:blockIndex',
  '/izobrazevanja/:courseId/certifikat',
  '/izobrazevanja/:courseId/konec',
  '/courses/:courseId/end',
  '/profil/izobrazevanja',
  '/vimeo',
]);

/** Consents and their audit: one lazily loaded chunk. */
const CONSENT_PAGES = new Set(['/pogoji', '/profil/pogoji', '/revizija/privolitve']);

/** The approval trail of courses for auditors (issue 36 item 3): its own chunk. */
const APPROVAL_TRAIL_PAGE = '/revizija/odobritve';

/** Registration, password, e-mail, second factor and the profile (issue 13): their own chunk. */
const IDENTITY_PAGES = new Set([
  '/prijava/2fa',
  '/registracija',
  '/registracija/complete',
  '/registracija/bind-email',
  '/geslo',
  '/geslo/complete',
  '/nov-uporabnik',
  '/sprememba-e-naslova',
  '/sprememba-e-naslova/complete',
  '/profil',
]);

/** Statistics and costs (issue 7): their own chunk, with recharts. */
const STATS_PAGES = new Set([
  '/admin/courses/:courseId/nps/:blockId/overview/:intervalId',
  '/admin/courses/:courseId/nps/:blockId/communities/:intervalId',
  '/admin/courses/:courseId/success/:intervalId',
  '/admin/courses/:courseId/communities/:communityId/success/:intervalId',
  '/admin/courses/:courseId/costs/:intervalId',
  '/admin/stats',
  '/admin/courses/:courseId/profit',
  '/admin/academies/:id/success/:intervalId',
  '/admin/academies/:id/communities/:communityId/success/:intervalId',
  '/stroski',
  '/statistika',
]);

/** Course reports (issue 17 item 3): their own chunk. */
const REPORT_PAGES = new Set([
  '/admin/courses/:courseId/report',
  '/admin/courses/:courseId/report/print',
  '/admin/courses/:courseId/report/download/:reportId',
]);

/**
 * Pages without the app's header, menus and footer: print-ready ones (signed in like the others),
 * and /glp, the public course list partner sites show in a frame (decision 0031).
 */
const BARE_PAGES = new Set(['/admin/courses/:courseId/report/print', '/glp']);

/** An approver's inbox and the review of a course version (issue 36): their own chunk. */
const APPROVAL_PAGES = new Set(['/odobritve', '/odobritve/:courseId/:approvalVersion']);

/** Newsletters for their readers (issue 16): their own chunk. */
const NEWSLETTER_PAGES = new Set(['/novicnik', '/novicnik/:newsletterId']);

const toRoute = (entry: RouteEntry): RouteObject => {
  const base = { path: entry.path, loader: guard, handle: { title: entry.title } };
  if (NEWSLETTER_PAGES.has(entry.path)) {
    return {
      ...base,
      lazy: async () => {
        const { NewsletterRoutePage } = await import('./routes/newsletter-pages.tsx');
        return { element: <NewsletterRoutePage path={entry.path} notFound={<NotFoundPage />} /> };
      },
    };
  }
  if (APPROVAL_PAGES.has(entry.path)) {
    return {
      ...base,
      lazy: async () => {
        const { ApprovalPage } = await import('./routes/approval-pages.tsx');
        return { element: <ApprovalPage path={entry.path} notFound={<NotFoundPage />} /> };
      },
    };
  }
  if (REPORT_PAGES.has(entry.path)) {
    return {
      ...base,
      lazy: async () => {
        const { ReportPage } = await import('./routes/report-pages.tsx');
        return { element: <ReportPage path={entry.path} notFound={<NotFoundPage />} /> };
      },
    };
  }
  if (STATS_PAGES.has(entry.path)) {
    return {
      ...base,
      lazy: async () => {
        const { StatsPage } = await import('./routes/stats-pages.tsx');
        return { element: <StatsPage path={entry.path} notFound={<NotFoundPage />} /> };
      },
    };
  }
  if (entry.section === 'admin') {
    return {
      ...base,
      lazy: async () => {
        const { AdminPage } = await import('./routes/admin/admin-page.tsx');
        return { element: <AdminPage entry={entry} /> };
      },
    };
  }
  if (entry.section === 'manager') {
    return {
      ...base,
      lazy: async () => {
        const { ManagerPage } = await import('./routes/manager-pages.tsx');
        return { element: <ManagerPage entry={entry} /> };
      },
    };
  }
  if (entry.path === '/glp') {
    // Public and framed by other sites: loads nothing that asks who the user is.
    return {
      ...base,
      lazy: async () => {
        const { GlpRoute } = await import('./routes/glp-route.tsx');
        return { element: <GlpRoute /> };
      },
    };
  }
  if (entry.path === '/certifikat/:number') {
    // Public (issue 18 item 3): anyone checks a certificate by its number, signed in or not.
    return {
      ...base,
      lazy: async () => {
        const { CertificateRoute } = await import('./routes/certificate-route.tsx');
        return { element: <CertificateRoute /> };
      },
    };
  }
  if (entry.path === '/anketa/:surveyId') {
    // Public (spec §2): no session needed, so it loads nothing that asks who the user is.
    return {
      ...base,
      lazy: async () => {
        const { SurveyRoute } = await import('./routes/survey-route.tsx');
        return { element: <SurveyRoute notFound={<NotFoundPage />} /> };
      },
    };
  }
  if (COURSE_PAGES.has(entry.path)) {
    return {
      ...base,
      lazy: async () => {
        const { CoursePage } = await import('./routes/course-pages.tsx');
        return { element: <CoursePage path={entry.path} notFound={<NotFoundPage />} /> };
      },
    };
  }
  if (IDENTITY_PAGES.has(entry.path)) {
    return {
      ...base,
      lazy: async () => {
        const { IdentityPage } = await import('./routes/identity-pages.tsx');
        return { element: <IdentityPage path={entry.path} /> };
      },
    };
  }
  if (entry.path === APPROVAL_TRAIL_PAGE) {
    return {
      ...base,
      lazy: async () => {
        const { ApprovalTrailRoute } = await import('./routes/approval-trail-route.tsx');
        return { element: <ApprovalTrailRoute /> };
      },
    };
  }
  if (CONSENT_PAGES.has(entry.path)) {
    return {
      ...base,
      lazy: async () => {
        const { ConsentPage } = await import('./routes/consent-pages.tsx');
        return { element: <ConsentPage path={entry.path} /> };
      },
    };
  }
  const page = PAGES[entry.path];
  return { ...base, element: page ? page() : <PlaceholderPage entry={entry} /> };
};

export const routes: RouteObject[] = [
  {
    element: <Root />,
    errorElement: <RouteErrorPage />,
    // The first page's guard runs before anything renders: a loader meanwhile (and no console warning).
    hydrateFallbackElement: <GuardPending />,
    children: [
      { element: <PublicLayout />, children: ROUTES.filter((r) => r.section === 'public' && !BARE_PAGES.has(r.path)).map(toRoute) },
      {
        // The signed-in shell (menus, switcher, drawers) is its own chunk: the login page does not load it.
        lazy: async () => ({ Component: (await import('./layout/app-shell.tsx')).AppShellLayout }),
        children: ROUTES.filter((r) => r.section !== 'public' && !BARE_PAGES.has(r.path)).map(toRoute),
      },
      { children: ROUTES.filter((r) => BARE_PAGES.has(r.path)).map(toRoute) },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export const router = createBrowserRouter(routes);
