import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { PackageLaunch } from '../../domain/packages/package-launch.ts';
import type { MoveOn, PackageStandard } from '../../domain/packages/package-structure.ts';
import type { PackageLaunchStore } from './package-store.port.ts';

/** How long a launch's tokens work: a long lesson, not a standing key (a new launch gets new ones). */
export const LAUNCH_TTL_MS = 12 * 60 * 60 * 1000;

const hash = (token: string) => createHash('sha256').update(token).digest('hex');
const token = () => randomBytes(32).toString('base64url');

type Row = {
  registration: string;
  session_id: string;
  package_id: string;
  course_id: number;
  block_id: number;
  user_id: number;
  item_id: string;
  standard: PackageStandard;
  activity_id: string;
  move_on: MoveOn | null;
  mastery_score: number | null;
  launch_parameters: string | null;
  created_at: Date;
  expires_at: Date;
};

const launchOf = (row: Row): PackageLaunch => ({
  registration: row.registration,
  sessionId: row.session_id,
  packageId: Number(row.package_id),
  courseId: row.course_id,
  blockId: row.block_id,
  userId: row.user_id,
  itemId: row.item_id,
  standard: row.standard,
  activityId: row.activity_id,
  moveOn: row.move_on,
  masteryScore: row.mastery_score,
  launchParameters: row.launch_parameters,
  createdAt: row.created_at.toISOString(),
  expiresAt: row.expires_at.toISOString(),
});

/** Launches in PostgreSQL (migration 0015). Tokens are random 256-bit values; a lookup compares hashes. */
export const createPackageLaunchStore = (pool: pg.Pool): PackageLaunchStore => {
  const byHash = async (column: 'content_token_hash' | 'auth_token_hash', value: string) => {
    const { rows } = await pool.query<Row>(`select * from public.content_launches where ${column} = $1 and expires_at > now()`, [hash(value)]);
    return rows[0] ? launchOf(rows[0]) : null;
  };
  return {
    create: async (input, now) => {
      const contentToken = token();
      const fetchToken = token();
      const registration = input.registration ?? randomUUID();
      // A launch of a registration replaces the earlier one's: its old tokens stop working.
      const { rows } = await pool.query<Row>(
        `insert into public.content_launches
           (registration, session_id, package_id, course_id, block_id, user_id, item_id, standard, activity_id, move_on, mastery_score,
            launch_parameters, content_token_hash, fetch_token_hash, fetch_redeemed_at, auth_token_hash, created_at, expires_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, null, null, $15, $16)
         on conflict (registration) do update set
           session_id = excluded.session_id, package_id = excluded.package_id, item_id = excluded.item_id, activity_id = excluded.activity_id,
           move_on = excluded.move_on, mastery_score = excluded.mastery_score, launch_parameters = excluded.launch_parameters,
           content_token_hash = excluded.content_token_hash, fetch_token_hash = excluded.fetch_token_hash, fetch_redeemed_at = null,
           auth_token_hash = null, created_at = excluded.created_at, expires_at = excluded.expires_at
         where content_launches.user_id = excluded.user_id
         returning *`,
        [
          registration,
          randomUUID(),
          input.packageId,
          input.courseId,
          input.blockId,
          input.userId,
          input.itemId,
          input.standard,
          input.activityId,
          input.moveOn,
          input.masteryScore,
          input.launchParameters,
          hash(contentToken),
          hash(fetchToken),
          now,
          new Date(now.getTime() + LAUNCH_TTL_MS),
        ],
      );
      const row = rows[0];
      if (!row) throw new Error('a launch registration belongs to another participant');
      return { launch: launchOf(row), contentToken, fetchToken };
    },
    registrationOf: async (userId, courseId, blockId, itemId) => {
      const { rows } = await pool.query<{ registration: string }>(
        'select registration from public.content_launches where user_id = $1 and course_id = $2 and block_id = $3 and item_id = $4 order by created_at desc limit 1',
        [userId, courseId, blockId, itemId],
      );
      return rows[0]?.registration ?? null;
    },
    byRegistration: async (registration) => {
      if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(registration)) return null;
      const { rows } = await pool.query<Row>('select * from public.content_launches where registration = $1', [registration]);
      return rows[0] ? launchOf(rows[0]) : null;
    },
    byContentToken: (value) => byHash('content_token_hash', value),
    byAuthToken: (value) => byHash('auth_token_hash', value),
    redeemFetchToken: async (value) => {
      const auth = token();
      // One statement: of two redemptions at once, exactly one sets fetch_redeemed_at and gets the token.
      const { rowCount } = await pool.query(
        `update public.content_launches set fetch_redeemed_at = now(), auth_token_hash = $2
          where fetch_token_hash = $1 and fetch_redeemed_at is null and expires_at > now()`,
        [hash(value), hash(auth)],
      );
      return rowCount === 1 ? auth : null;
    },
  };
};
