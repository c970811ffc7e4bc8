// What the screens bench reads (screens.bench.ts): each admin screen's main request on the platform
// (the route its page in ui/src/features calls) beside the plain baseline's route for the same rows
// (screens-plain.ts), the requests of a row, and the check that both return the same data.

import { percentile } from './bench-support.ts';
import type { Request } from './courses-load.ts';
import type { SeedCourse } from './courses-seed.ts';

/** What a request is about: a course (with its report, when the row needs one) and a company. */
export type Target = { course: SeedCourse; reportId: number; company: number };
// biome-ignore lint/suspicious/noExplicitAny: the answers are JSON, compared by the fields each screen names.
type Json = any;

export type Screen = {
  /** The row's name: the platform's request. */
  name: string;
  plainName: string;
  platform: (t: Target) => string;
  plain: (t: Target) => string;
  /** Only courses with a report (the reports screen). */
  needsReport?: boolean;
  /** The data both answers must agree on: the platform's, the plain baseline's. */
  same: (api: Json, plain: Json) => [unknown, unknown];
};

const COURSE_LIST_FIELDS = ['id', 'title', 'type', 'published', 'status', 'creditPoints', 'blocksCount', 'enrolled', 'updatedAt'] as const;
const pick = (item: Json, keys: readonly string[]) => Object.fromEntries(keys.map((k) => [k, item[k]]));
const participation = (p: Json) => ({ started: p.started, completed: p.completed, attempted: p.attempted, passed: p.passed });

export const SCREENS: Screen[] = [
  {
    name: 'admin user list: GET /api/users (first page by name + total)',
    plainName: 'plain: user page by name + count',
    platform: () => '/api/users',
    plain: () => '/plain/users',
    same: (api, plain) => [api, plain],
  },
  {
    name: 'admin user list by company: GET /api/users?companyId=',
    plainName: 'plain: company user page + count',
    platform: (t) => `/api/users?companyId=${t.company}`,
    plain: (t) => `/plain/users/company/${t.company}`,
    same: (api, plain) => [api, plain],
  },
  {
    name: 'admin course list: GET /api/courses (first page + total)',
    plainName: 'plain: course page + count',
    platform: () => '/api/courses',
    plain: () => '/plain/courses',
    same: (api, plain) => [
      { items: api.items.map((c: Json) => pick(c, COURSE_LIST_FIELDS)), total: api.total },
      { items: plain.items.map((c: Json) => pick(c, COURSE_LIST_FIELDS)), total: plain.total },
    ],
  },
  {
    name: 'participants: GET /api/courses/{id}/participants',
    plainName: 'plain: participants SQL',
    platform: (t) => `/api/courses/${t.course.id}/participants`,
    plain: (t) => `/plain/courses/${t.course.id}/participants`,
    same: (api, plain) => [api, plain],
  },
  {
    name: 'statistics: GET /api/courses/{id}/nps/{blockId}/overview',
    plainName: 'plain: latest NPS answers per score',
    platform: (t) => `/api/courses/${t.course.id}/nps/${t.course.blocks.nps}/overview`,
    plain: (t) => `/plain/courses/${t.course.id}/nps/${t.course.blocks.nps}`,
    same: (api, plain) => [api.nps.distribution, plain.distribution],
  },
  {
    name: 'statistics: GET /api/courses/{id}/success',
    plainName: 'plain: opens, completions, quiz outcomes counts',
    platform: (t) => `/api/courses/${t.course.id}/success`,
    plain: (t) => `/plain/courses/${t.course.id}/success`,
    same: (api, plain) => [participation(api.success), participation(plain)],
  },
  {
    name: 'statistics: GET /api/courses/{id}/costs?bucket=day',
    plainName: 'plain: first views per day',
    platform: (t) => `/api/courses/${t.course.id}/costs?bucket=day`,
    plain: (t) => `/plain/courses/${t.course.id}/views`,
    same: (api, plain) => [api.timeline.map((p: Json) => ({ period: p.period, views: p.views })), plain.timeline],
  },
  {
    name: 'reports: GET /api/courses/{id}/reports/{reportId}',
    plainName: 'plain: participation counts + NPS per score',
    platform: (t) => `/api/courses/${t.course.id}/reports/${t.reportId}`,
    plain: (t) => `/plain/courses/${t.course.id}/report/${t.course.blocks.nps}`,
    needsReport: true,
    same: (api, plain) => [
      {
        participation: {
          started: api.participation.participants,
          completed: api.participation.completions,
          attempted: api.participation.attempted,
          passed: api.participation.passed,
        },
        distribution: api.nps[0]?.distribution,
      },
      { participation: participation(plain.participation), distribution: plain.distribution },
    ],
  },
];

/** JSON with every object's keys sorted, so two answers compare by content, not by key order. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as object).sort(([a], [b]) => a.localeCompare(b))) : v,
  );

const getJson = async (url: string, token: string | null) => {
  const response = await fetch(url, { headers: token ? { authorization: `JWT ${token}` } : {} });
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return response.json();
};

/**
 * Both servers answer alike for every target of the sample (so the baseline is honest), and not
 * with nothing. Returns each side's median time of one request alone (the sample, one after another).
 */
export const checkScreensAgree = async (screen: Screen, sample: readonly Target[], token: string, ports: { platform: number; plain: number }) => {
  const times = { platform: [] as number[], plain: [] as number[] };
  const timed = async (side: 'platform' | 'plain', url: string, auth: string | null) => {
    const started = performance.now();
    const body = await getJson(url, auth);
    times[side].push(performance.now() - started);
    return body;
  };
  for (const t of sample) {
    const api = await timed('platform', `http://127.0.0.1:${ports.platform}${screen.platform(t)}`, token);
    const plain = await timed('plain', `http://127.0.0.1:${ports.plain}${screen.plain(t)}`, null);
    const [a, p] = screen.same(api, plain);
    if (canonical(a) !== canonical(p)) throw new Error(`${screen.name} differs from its baseline for ${JSON.stringify(t)}:\n${canonical(a)}\n${canonical(p)}`);
  }
  return { platform: percentile(times.platform, 50), plain: percentile(times.plain, 50) };
};

/** `count` requests of a row to one server, each for a random target. */
export const screenRequests = (screen: Screen, side: 'platform' | 'plain', targets: () => Target, token: string, count: number): Request[] =>
  Array.from({ length: count }, () => {
    const t = targets();
    return side === 'platform' ? { label: screen.name, path: screen.platform(t), token } : { label: screen.plainName, path: screen.plain(t), token: null };
  });
