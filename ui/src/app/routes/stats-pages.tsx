import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useParams } from 'react-router';
import { CourseTabs } from '../../features/courses/components/course-tabs.tsx';
import { listCompanies } from '../../features/organisation/api/companies.ts';
import { AcademySuccessPage } from '../../features/stats/components/academy-success-page.tsx';
import { CommunityStatsPage } from '../../features/stats/components/community-stats-page.tsx';
import { CompanyCostsPage } from '../../features/stats/components/company-costs-page.tsx';
import { CostsPage } from '../../features/stats/components/costs-page.tsx';
import { NpsCommunitiesPage, NpsOverviewPage } from '../../features/stats/components/nps-pages.tsx';
import { PlatformStatsPage } from '../../features/stats/components/platform-stats-page.tsx';
import { ProfitPage } from '../../features/stats/components/profit-page.tsx';
import { SuccessPage } from '../../features/stats/components/success-page.tsx';
import { meQuery } from '../../features/users/api/me.ts';
import { hasSystemPermission, ROLE_ID } from '../../features/users/roles.ts';
import { PageBreadcrumbs } from './admin/page-breadcrumbs.tsx';

/** spec §6 system deal create, update, delete: who may agree, change or withdraw a course's costs (decision 0016). */
const DEAL_PERMISSIONS = { create: 1053, update: 1054, withdraw: 1055 } as const;
export type DealRights = { readonly [K in keyof typeof DEAL_PERMISSIONS]: boolean };
/** spec §6 system deal read. */
const COSTS_READ_PERMISSION = 1052;

type Params = { id: number; blockId: number; intervalId: number; communityId: number };

/** Companies whose costs the user reads: an admin's choice of all, or the companies of the roles granting cost overview (2009). */
const useCostCompanies = (enabled: boolean) => {
  const me = useQuery(meQuery);
  const admin = me.data ? hasSystemPermission(me.data, COSTS_READ_PERMISSION) : false;
  const all = useQuery({
    queryKey: ['companies', 'cost-choice'],
    queryFn: () => listCompanies({ pageSize: 100, sort: 'name', order: 'asc' }),
    enabled: enabled && admin,
  });
  if (admin) return (all.data?.items ?? []).map((c) => ({ id: c.id, name: c.name }));
  const own = new Map<number, string>();
  for (const r of me.data?.userRoles ?? []) if (r.role_id === ROLE_ID.accountant && r.company_id) own.set(r.company_id, r.company_name ?? '');
  return [...own].map(([id, name]) => ({ id, name }));
};

/** Course authors (1017) move between a course's tabs (issue 15). */
const COURSE_AUTHORING = 1017;

/** Statistics and costs pages (issue 7) by route path, one lazily loaded chunk (recharts stays out of other pages). */
const PAGES: Record<string, (p: Params, deal: DealRights, companies: readonly { id: number; name: string }[]) => ReactNode> = {
  '/stroski': (_p, _edit, companies) => <CompanyCostsPage companies={companies} />,
  '/statistika': () => <CommunityStatsPage />,
  '/admin/courses/:courseId/nps/:blockId/overview/:intervalId': (p) => <NpsOverviewPage courseId={p.id} blockId={p.blockId} intervalId={p.intervalId} />,
  '/admin/courses/:courseId/nps/:blockId/communities/:intervalId': (p) => <NpsCommunitiesPage courseId={p.id} blockId={p.blockId} intervalId={p.intervalId} />,
  '/admin/courses/:courseId/success/:intervalId': (p) => <SuccessPage courseId={p.id} intervalId={p.intervalId} communityId={null} />,
  '/admin/courses/:courseId/communities/:communityId/success/:intervalId': (p) => (
    <SuccessPage courseId={p.id} intervalId={p.intervalId} communityId={p.communityId} />
  ),
  '/admin/courses/:courseId/costs/:intervalId': (p, deal, companies) => (
    <CostsPage courseId={p.id} intervalId={p.intervalId} deal={deal} companies={companies} />
  ),
  '/admin/courses/:courseId/profit': (p) => <ProfitPage courseId={p.id} intervalId={0} />,
  '/admin/stats': () => <PlatformStatsPage />,
  '/admin/academies/:id/success/:intervalId': (p) => <AcademySuccessPage academyId={p.id} intervalId={p.intervalId} communityId={null} />,
  '/admin/academies/:id/communities/:communityId/success/:intervalId': (p) => (
    <AcademySuccessPage academyId={p.id} intervalId={p.intervalId} communityId={p.communityId} />
  ),
};

const whole = (value: string | undefined, fallback: number) => {
  const n = Number(value ?? fallback);
  return Number.isInteger(n) && n >= 0 ? n : null;
};

export const StatsPage = ({ path, notFound }: { path: string; notFound: ReactNode }) => {
  const params = useParams();
  const me = useQuery(meQuery);
  const companies = useCostCompanies(path === '/stroski' || path === '/admin/courses/:courseId/costs/:intervalId');
  const page = PAGES[path];
  const values = {
    id: whole(params.courseId ?? params.id, 0),
    blockId: whole(params.blockId, 0),
    intervalId: whole(params.intervalId, 0),
    communityId: whole(params.communityId, 0),
  };
  if (!page || Object.values(values).some((v) => v === null)) return <>{notFound}</>;
  const holds = (permission: number) => (me.data ? hasSystemPermission(me.data, permission) : false);
  const deal = { create: holds(DEAL_PERMISSIONS.create), update: holds(DEAL_PERMISSIONS.update), withdraw: holds(DEAL_PERMISSIONS.withdraw) };
  return (
    <>
      {/* Issue 33: where a course's or an academy's statistics sit, for those who author them. */}
      {holds(COURSE_AUTHORING) ? <PageBreadcrumbs path={path} /> : null}
      {path.startsWith('/admin/courses/:courseId') && holds(COURSE_AUTHORING) ? <CourseTabs courseId={values.id as number} /> : null}
      {page(values as Params, deal, companies)}
    </>
  );
};
