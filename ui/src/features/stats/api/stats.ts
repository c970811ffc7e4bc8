import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export type NpsSummary = {
  promoters: number;
  neutrals: number;
  detractors: number;
  answers: number;
  score: number | null;
  grade: 'none' | 'poor' | 'good' | 'veryGood' | 'excellent';
  level: 'none' | 'low' | 'medium' | 'high';
};

export type StatsWindow = { intervalId: number; from: string; to: string; asOf: string };
type CourseRef = { id: number; title: string };

export type NpsOverview = {
  course: CourseRef;
  window: StatsWindow;
  nps: NpsSummary & {
    distribution: { score: number; count: number }[];
    reasons: { reason: string; category: string; count: number }[];
    comments: { score: number; comment: string; at: string }[];
  };
};

export type NpsCommunities = { course: CourseRef; window: StatsWindow; rows: (NpsSummary & { id: number; name: string })[] };

export type Success = {
  course: CourseRef;
  window: StatsWindow;
  success: {
    started: number;
    completed: number;
    completionRate: number | null;
    attempted: number;
    passed: number;
    successRate: number | null;
    firstAttemptRate: number | null;
    quizzes: {
      blockId: number;
      attempted: number;
      passed: number;
      firstAttemptPassed: number;
      averageScore: number | null;
      attempts: number;
      successRate: number | null;
      firstAttemptRate: number | null;
    }[];
  };
};

export type Costs = {
  course: CourseRef;
  window: StatsWindow;
  costs: Record<string, number | string | null>;
  setAt: string | null;
  /** Not edited while the course is active (spec §4). */
  locked: boolean;
  figures: { views: number; viewsAmount: number; totalAmount: number; finalAmount: number; shareEarnings: number };
  timeline: { period: string; views: number; viewsAmount: number; cumulativeViews: number; totalAmount: number; finalAmount: number }[];
};

export type PlatformStats = {
  participants: number;
  courses: number;
  publishedCourses: number;
  enrollments: number;
  completions: number;
  views30: number;
  nps: NpsSummary;
  topCourses: { id: number; title: string; views: number; completions: number; npsBlockId: number | null }[];
};

/** One month of the platform's trends (issue 17 item 7): `month` is 'YYYY-MM' in Ljubljana time. */
export type TrendMonth = {
  month: string;
  users: number;
  enrollments: number;
  completions: number;
  certificates: number;
  creditPoints: number;
  nps: NpsSummary;
};

/** Every statistics query lives under this key: the live stream refetches them all when a read model below changes. */
export const STATS_KEY = ['stats'] as const;

/** The read models the statistics routes read (projections/stats/stats-request.ts READ_MODELS): a change in any is a new figure. */
export const STATS_READ_MODELS = ['stats', 'courses', 'academies', 'users', 'organisation'] as const;

/** A statistic is not kept once its page is left: the next visit (or the next user) reads the figures as they are now. */
const NOT_KEPT = { gcTime: 0 } as const;

type Window = { intervalId: number; asOf: string | null };

export const npsOverviewQuery = (courseId: number, blockId: number, w: Window) =>
  queryOptions({
    ...NOT_KEPT,
    queryKey: [...STATS_KEY, 'nps', courseId, blockId, w],
    queryFn: ({ signal }) =>
      api<NpsOverview>('GET', `/courses/${courseId}/nps/${blockId}/overview`, { query: { intervalId: w.intervalId, asOf: w.asOf }, signal }),
  });

export const npsCommunitiesQuery = (courseId: number, blockId: number, w: Window, kind: string) =>
  queryOptions({
    ...NOT_KEPT,
    queryKey: [...STATS_KEY, 'nps-communities', courseId, blockId, w, kind],
    queryFn: ({ signal }) =>
      api<NpsCommunities>('GET', `/courses/${courseId}/nps/${blockId}/communities`, { query: { intervalId: w.intervalId, asOf: w.asOf, kind }, signal }),
  });

export const successQuery = (courseId: number, w: Window, communityId: number | null) =>
  queryOptions({
    ...NOT_KEPT,
    queryKey: [...STATS_KEY, 'success', courseId, w, communityId],
    queryFn: ({ signal }) =>
      api<Success>('GET', `/courses/${courseId}/success`, { query: { intervalId: w.intervalId, asOf: w.asOf, communityId: communityId ?? undefined }, signal }),
  });

export const costsQuery = (courseId: number, w: Window, bucket: string) =>
  queryOptions({
    ...NOT_KEPT,
    queryKey: [...STATS_KEY, 'costs', courseId, w, bucket],
    queryFn: ({ signal }) => api<Costs>('GET', `/courses/${courseId}/costs`, { query: { intervalId: w.intervalId, asOf: w.asOf, bucket }, signal }),
  });

export const platformStatsQuery = (asOf: string | null) =>
  queryOptions({
    ...NOT_KEPT,
    queryKey: [...STATS_KEY, 'platform', asOf],
    queryFn: ({ signal }) => api<PlatformStats>('GET', '/stats', { query: { asOf }, signal }),
  });

/** The 12 months up to `asOf` (or now), oldest first. */
export const platformTrendsQuery = (asOf: string | null) =>
  queryOptions({
    ...NOT_KEPT,
    queryKey: [...STATS_KEY, 'platform-trends', asOf],
    queryFn: ({ signal }) => api<{ months: TrendMonth[] }>('GET', '/stats/trends', { query: { asOf }, signal }),
  });

/** A new deal is created (POST, 1053), an existing one changed (PUT, 1054) or withdrawn (DELETE, 1055). */
export const setCourseCosts = (courseId: number, costs: object, deal: 'new' | 'existing') =>
  api<{ id: number }>(deal === 'new' ? 'POST' : 'PUT', `/courses/${courseId}/costs`, { body: costs });
export const withdrawCourseCosts = (courseId: number) => api<{ id: number }>('DELETE', `/courses/${courseId}/costs`);

export type AcademySuccess = {
  academy: { id: number; title: string };
  asOf: string;
  courses: { course: { id: number; title: string }; success: Success['success'] }[];
  completedSeries: number;
  attempted: number;
  passed: number;
  successRate: number | null;
  completionRate: number | null;
};

export const academySuccessQuery = (academyId: number, w: Window, communityId: number | null) =>
  queryOptions({
    ...NOT_KEPT,
    queryKey: [...STATS_KEY, 'academy-success', academyId, w, communityId],
    queryFn: ({ signal }) =>
      api<AcademySuccess>('GET', `/academies/${academyId}/success`, {
        query: { intervalId: w.intervalId, asOf: w.asOf, communityId: communityId ?? undefined },
        signal,
      }),
  });

export type CompanyCosts = {
  companyId: number;
  courses: (Omit<Costs, 'window'> & { course: CourseRef })[];
  totalAmount: number;
  finalAmount: number;
  views: number;
};

export const companyCostsQuery = (companyId: number, asOf: string | null, bucket: string) =>
  queryOptions({
    ...NOT_KEPT,
    queryKey: [...STATS_KEY, 'company-costs', companyId, asOf, bucket],
    queryFn: ({ signal }) => api<CompanyCosts>('GET', `/companies/${companyId}/costs`, { query: { asOf, bucket }, signal }),
  });

export type CommunityStats = {
  totals: { courses: number; participants: number; completions: number; nps: NpsSummary };
  courses: { id: number; title: string; participants: number; completions: number; npsBlockId: number | null; nps: NpsSummary }[];
  academies: { id: number; title: string }[];
};

/** GET /api/stats/community: the caller's community at a glance (managers, directors, clients, accountants; 1059). */
export const communityStatsQuery = queryOptions({
  ...NOT_KEPT,
  queryKey: [...STATS_KEY, 'community'],
  queryFn: ({ signal }) => api<CommunityStats>('GET', '/stats/community', { signal }),
});

/** The units one may pick to narrow an academy's success to (GET /units, as readable to the caller). */
export const unitOptionsQuery = queryOptions({
  queryKey: ['units', 'options', 'stats'],
  queryFn: () => api<{ items: { id: number; name: string; company_name: string | null }[] }>('GET', '/units', { query: { limit: 'NO_LIMIT', sort: 'name' } }),
  staleTime: 60_000,
});

/** Per question of a package block (issue 35): who answered, right and wrong, and (to the platform's staff) the answers given most. */
export type PackageAnswers = {
  items: {
    itemId: string;
    questionId: string;
    type: string | null;
    description: string | null;
    answered: number;
    correct: number;
    wrong: number;
    responses: { response: string; count: number }[];
  }[];
};

export const packageAnswersQuery = (courseId: number, blockId: number) =>
  queryOptions({
    queryKey: [...STATS_KEY, 'package-answers', courseId, blockId],
    queryFn: ({ signal }) => api<PackageAnswers>('GET', `/courses/${courseId}/blocks/${blockId}/answers`, { signal }),
  });
