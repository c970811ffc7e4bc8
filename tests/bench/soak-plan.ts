// The soak's plan (soak.bench.ts): the platform's sizes, the traffic mix, the routes table, and the
// types of a load phase's plan and its result.

import type { Figures as LoadFigures } from './courses-load.ts';
import type { SeedCourse, SeedSizes } from './courses-seed.ts';

/** A moderate platform: 2,000 participants in 20 units of 5 companies, 50 published courses of 4 blocks. */
export const SIZES: SeedSizes = { participants: 2000, companies: 5, unitsPerCompany: 4, professions: 10, courses: 50 };
/** Admin-made drafts the admin traffic edits (PUT), made through the API before the load. */
export const DRAFTS = 10;
/**
 * Participants in the middle of a course at any moment; each takes its next step or re-reads its
 * records about every 2 s at the default rate, so a course (12 steps) takes about a minute.
 */
export const CONCURRENT_JOURNEYS = 100;

// ------------------------------------------------------------------ the traffic

export type Kind =
  | 'me'
  | 'list'
  | 'page'
  | 'blocks'
  | 'records'
  | 'journey'
  | 'users'
  | 'user'
  | 'courses'
  | 'course'
  | 'participants'
  | 'createCourse'
  | 'editCourse'
  | 'npsOverview'
  | 'npsCommunities'
  | 'success'
  | 'costs'
  | 'stats'
  | 'trends'
  | 'bare'
  | 'plainList'
  | 'plainPage'
  | 'plainRecords';

/**
 * The day's traffic, per 200 requests. Participants: their own pages (52 %) and courses taken step by
 * step (30 %: a step, then the records read with X-Min-Position as the UI does after a write). Admins
 * (11 %): user and course lists with search and paging, a user, a course, its participants, a draft
 * created or edited. Statistics (7 %): a course's NPS, success and costs, the platform figures.
 */
export const MIX: [Kind, number][] = [
  ['me', 16],
  ['list', 24],
  ['page', 24],
  ['blocks', 16],
  ['records', 24],
  ['journey', 60],
  ['users', 8],
  ['user', 3],
  ['courses', 4],
  ['course', 3],
  ['participants', 2],
  ['createCourse', 1],
  ['editCourse', 1],
  ['npsOverview', 4],
  ['npsCommunities', 2],
  ['success', 4],
  ['costs', 2],
  ['stats', 1],
  ['trends', 1],
];
/** The baseline: a bare route and the participants' three main reads as one prepared statement each, evenly. */
export const BASELINE_MIX: [Kind, number][] = [
  ['bare', 1],
  ['plainList', 1],
  ['plainPage', 1],
  ['plainRecords', 1],
];

/** Table order and who sends each route. */
export const ROUTES: [label: string, who: string][] = [
  ['GET /api/users/me', 'participant'],
  ['GET /api/user-courses', 'participant'],
  ['GET /api/user-courses/{id}', 'participant'],
  ['GET /api/block?course_id=', 'participant'],
  ['GET /api/record?course_id=', 'participant'],
  ['POST /api/user-courses/{id}/start', 'participant step'],
  ['POST /api/user-courses/{id}/blocks/{blockId}/open', 'participant step'],
  ['POST /api/user-courses/{id}/blocks/{blockId}/video-progress', 'participant step'],
  ['POST /api/user-courses/{id}/blocks/{blockId}/alternative', 'participant step'],
  ['POST /api/user-courses/{id}/blocks/{blockId}/quiz', 'participant step'],
  ['POST /api/user-courses/{id}/blocks/{blockId}/nps', 'participant step'],
  ['GET /api/record?course_id= after a step (X-Min-Position)', 'participant step'],
  ['GET /api/users (first page, search, filter, page n)', 'admin'],
  ['GET /api/users/{id}', 'admin'],
  ['GET /api/courses (first page, search, filter, page 2)', 'admin'],
  ['GET /api/courses/{id}', 'admin'],
  ['GET /api/courses/{id}/participants', 'admin'],
  ['POST /api/courses (a draft)', 'admin'],
  ['PUT /api/courses/{id} (a draft)', 'admin'],
  ['GET /api/courses/{id}/nps/{blockId}/overview', 'statistics'],
  ['GET /api/courses/{id}/nps/{blockId}/communities?kind=unit', 'statistics'],
  ['GET /api/courses/{id}/success', 'statistics'],
  ['GET /api/courses/{id}/costs?bucket=day', 'statistics'],
  ['GET /api/stats', 'statistics'],
  ['GET /api/stats/trends', 'statistics'],
  ['bare Fastify GET /bare', 'baseline'],
  ['plain: course list SQL', 'baseline'],
  ['plain: course page SQL', 'baseline'],
  ['plain: records SQL', 'baseline'],
];

export type Blocks = SeedCourse['blocks'];
export type Plan = {
  port: number;
  rate: number;
  seconds: number;
  seed: number;
  mix: [Kind, number][];
  participants: { id: number; company: number; token: string; seen: number[]; started: number[] }[];
  courses: { id: number; blocks: Blocks }[];
  /** [userId, courseId] not started yet, taken in order. */
  journeys: [number, number][];
  admin: string;
  drafts: { id: number; fields: Record<string, unknown> }[];
  newCourse: Record<string, unknown>;
  companies: number[];
  baseline?: { plainPort: number; barePort: number };
};
export type Figures = Omit<LoadFigures, 'busy'> & {
  /** Reads after a write answered with X-Read-Stale: the read models had not caught up within READ_WAIT_MS. */
  stale: number;
};
export type LoadResult = {
  routes: Figures[];
  all: Figures;
  /** By the minute each request was due in. */
  minutes: Figures[];
  journeysTaken: number;
  started: number;
  completed: number;
  coursesCreated: number;
  failures: string[];
};
