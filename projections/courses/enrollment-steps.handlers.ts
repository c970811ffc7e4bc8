import { sql } from 'slonik';
import { certificateNumber } from '../../domain/courses/certificate.ts';
import type { RecordedEvent } from '../../infrastructure/event-store/event-store.port.ts';
import type { ProjectionContext } from '../../infrastructure/projections/projection.port.ts';

// How a participant's steps (enrollment events) change the courses read model's enrollments and
// per-block records; courses.projection.ts owns the tables.

/** `enrollment-7_12` -> [7, 12] */
const enrollmentOf = (event: RecordedEvent) => event.streamName.slice('enrollment-'.length).split('_').map(Number) as [number, number];
const at = (event: RecordedEvent) => event.createdAt.toISOString();

type BlockRecord = {
  course_id: number;
  user_id: number;
  block_id: number;
  opened: boolean;
  done: boolean;
  video_seconds: number;
  /** The last quiz outcome; null when the batch has none for this block. */
  quiz: { attempts: number; score: number; passed: boolean } | null;
  /** The batch's last word on what follows the last failed attempt (decision 0053); null when it has none. */
  lock: { next: 'ended' | 'wait' | null; retryAt: string | null } | null;
  /** Attempts of earlier sets, when the batch renewed them. */
  round_from: number | null;
  nps_score: number | null;
  at: string;
};

type EnrollmentChange = {
  course_id: number;
  user_id: number;
  started_at: string | null;
  content_version: number | null;
  completed_at: string | null;
  credit_points: number | null;
  certificate_id: string | null;
  certificate_issued_at: string | null;
  certificate_number: string | null;
  certificate_issuer: unknown;
};

/** A participant's steps: the events of enrollment streams this projection reads. */
export const ENROLLMENT_EVENTS = new Set([
  'CourseStarted',
  'BlockOpened',
  'VideoProgressed',
  'VideoCompleted',
  'AlternativeRead',
  'QuizPassed',
  'QuizFailed',
  'QuizAttemptsExhausted',
  'QuizAttemptsRenewed',
  'NpsAnswered',
  'CourseCompleted',
  'CertificateIssued',
  'LivePresenceConfirmed',
  // Issue 35: a package's reports open its block, its results count as a quiz's, its completion makes it done.
  'PackageReported',
  'PackageScored',
  'PackageCompleted',
]);

/**
 * A participant's steps are nearly all of this projection's events (a video reports its progress
 * every few seconds), so a batch's steps are folded in memory, one row per enrollment and per
 * block record, and written with three statements instead of two per event: catch-up went from
 * about 2,000 to about 20,000 events/s (docs/benchmarks.md, courses). Each field only moves
 * forward (opened, done, longest video position) or takes the batch's last value (quiz outcome,
 * NPS, completion), so applying a suffix of the events again leaves the same rows.
 */
export const applyEnrollments = async ({ tx, table }: ProjectionContext, events: readonly RecordedEvent[]) => {
  const enrollments = new Map<string, EnrollmentChange>();
  const records = new Map<string, BlockRecord>();
  const presence: { course_id: number; user_id: number; check: number }[] = [];
  for (const event of events) {
    const [courseId, userId] = enrollmentOf(event);
    if (event.type === 'LivePresenceConfirmed') {
      presence.push({ course_id: courseId, user_id: userId, check: (event.data as { checkIndex: number }).checkIndex });
      continue;
    }
    const d = event.data as {
      blockId: number;
      done?: boolean;
      seconds?: number;
      attempt?: number;
      score?: number;
      creditPoints?: number;
      certificateId?: string;
      issuer?: unknown;
      next?: 'ended' | 'wait';
      retryAt?: string;
      afterAttempt?: number;
      passed?: boolean;
    };
    if (event.type === 'CourseStarted' || event.type === 'CourseCompleted' || event.type === 'CertificateIssued') {
      const key = `${courseId}_${userId}`;
      const e = enrollments.get(key) ?? {
        course_id: courseId,
        user_id: userId,
        started_at: null,
        content_version: null,
        completed_at: null,
        credit_points: null,
        certificate_id: null,
        certificate_issued_at: null,
        certificate_number: null,
        certificate_issuer: null,
      };
      enrollments.set(key, e);
      if (event.type === 'CourseStarted') {
        e.started_at ??= at(event);
        e.content_version ??= (event.data as { contentVersion?: number }).contentVersion ?? null;
      } else if (event.type === 'CourseCompleted') Object.assign(e, { completed_at: at(event), credit_points: d.creditPoints });
      else
        Object.assign(e, {
          certificate_id: d.certificateId,
          certificate_issued_at: at(event),
          certificate_number: certificateNumber(d.certificateId as string, event.createdAt),
          certificate_issuer: d.issuer ?? null,
        });
      continue;
    }
    const key = `${courseId}_${userId}_${d.blockId}`;
    const r = records.get(key) ?? {
      course_id: courseId,
      user_id: userId,
      block_id: d.blockId,
      opened: true,
      done: false,
      video_seconds: 0,
      quiz: null,
      lock: null,
      round_from: null,
      nps_score: null,
      at: at(event),
    };
    records.set(key, r);
    r.at = at(event);
    if (event.type === 'BlockOpened') r.done ||= d.done === true;
    else if (event.type === 'VideoProgressed') r.video_seconds = Math.max(r.video_seconds, d.seconds ?? 0);
    else if (event.type === 'VideoCompleted' || event.type === 'AlternativeRead') r.done = true;
    else if (event.type === 'QuizPassed' || event.type === 'QuizFailed') {
      r.quiz = { attempts: d.attempt ?? 0, score: d.score ?? 0, passed: event.type === 'QuizPassed' };
      r.done ||= r.quiz.passed;
    } else if (event.type === 'PackageScored') r.quiz = { attempts: d.attempt ?? 0, score: d.score ?? 0, passed: d.passed === true };
    else if (event.type === 'PackageCompleted') r.done = true;
    else if (event.type === 'QuizAttemptsExhausted') r.lock = { next: d.next ?? 'ended', retryAt: d.next === 'wait' ? (d.retryAt ?? null) : null };
    else if (event.type === 'QuizAttemptsRenewed') {
      r.lock = { next: null, retryAt: null };
      r.round_from = d.afterAttempt ?? 0;
    } else if (event.type === 'NpsAnswered') {
      r.nps_score = d.score ?? null;
      r.done = true;
    }
  }
  const started = [...enrollments.values()].filter((e) => e.started_at !== null);
  if (started.length > 0) {
    await tx.query(sql.unsafe`
      insert into ${table('enrollments')} (course_id, user_id, status, started_at, content_version, blocks_total)
      select x.course_id, x.user_id, 'started', x.started_at, x.content_version, jsonb_array_length(v.blocks)
        from jsonb_to_recordset(${sql.jsonb(started)}) as x(course_id int, user_id int, started_at timestamptz, content_version int)
        left join ${table('course_block_versions')} v on v.course_id = x.course_id and v.version = x.content_version
      on conflict do nothing`);
  }
  if (presence.length > 0) {
    // A set of confirmed checks: applying the same confirmation again changes nothing.
    await tx.query(sql.unsafe`
      update ${table('enrollments')} e set presence = array(select distinct unnest(e.presence || x.checks) order by 1)
        from (select course_id, user_id, array_agg(distinct "check") as checks
                from jsonb_to_recordset(${sql.jsonb(presence)}) as p(course_id int, user_id int, "check" int) group by course_id, user_id) x
       where e.course_id = x.course_id and e.user_id = x.user_id`);
  }
  const finished = [...enrollments.values()].filter((e) => e.completed_at !== null || e.certificate_id !== null);
  if (finished.length > 0) {
    await tx.query(sql.unsafe`
      update ${table('enrollments')} e
         set status = case when x.completed_at is null then e.status else 'completed' end,
             completed_at = coalesce(x.completed_at, e.completed_at),
             credit_points = case when x.completed_at is null then e.credit_points else x.credit_points end,
             certificate_id = coalesce(x.certificate_id, e.certificate_id),
             certificate_issued_at = coalesce(x.certificate_issued_at, e.certificate_issued_at),
             certificate_number = coalesce(x.certificate_number, e.certificate_number),
             certificate_issuer = case when x.certificate_id is null then e.certificate_issuer else x.certificate_issuer end
        from jsonb_to_recordset(${sql.jsonb(finished)})
             as x(course_id int, user_id int, completed_at timestamptz, credit_points numeric, certificate_id uuid, certificate_issued_at timestamptz,
                  certificate_number text, certificate_issuer jsonb)
       where e.course_id = x.course_id and e.user_id = x.user_id`);
  }
  if (records.size > 0) {
    const rows = [...records.values()].map(({ quiz, lock, ...r }) => ({
      ...r,
      quiz_attempts: quiz?.attempts ?? 0,
      quiz_score: quiz?.score ?? null,
      quiz_passed: quiz?.passed ?? null,
      lock_set: lock !== null,
      quiz_next: lock?.next ?? null,
      quiz_retry_at: lock?.retryAt ?? null,
    }));
    // A quiz outcome always sets quiz_passed, so a null there means "no quiz step in this batch".
    await tx.query(sql.unsafe`
      insert into ${table('course_records')} as r (course_id, user_id, block_id, opened, done, video_seconds, quiz_attempts, quiz_score, quiz_passed, nps_score, updated_at)
      select x.course_id, x.user_id, x.block_id, x.opened, x.done, x.video_seconds, x.quiz_attempts, x.quiz_score, x.quiz_passed, x.nps_score, x.at
        from jsonb_to_recordset(${sql.jsonb(rows)}) as x(course_id int, user_id int, block_id int, opened boolean, done boolean, video_seconds numeric,
        quiz_attempts int, quiz_score numeric, quiz_passed boolean, nps_score smallint, at timestamptz)
      on conflict (course_id, user_id, block_id) do update
         set opened = true,
             done = r.done or excluded.done,
             video_seconds = greatest(r.video_seconds, excluded.video_seconds),
             quiz_attempts = case when excluded.quiz_passed is null then r.quiz_attempts else excluded.quiz_attempts end,
             quiz_score = case when excluded.quiz_passed is null then r.quiz_score else excluded.quiz_score end,
             quiz_passed = coalesce(excluded.quiz_passed, r.quiz_passed),
             nps_score = coalesce(excluded.nps_score, r.nps_score),
             updated_at = greatest(r.updated_at, excluded.updated_at)`);
    // What follows a set's last failed attempt takes the batch's last word (rare: one statement more only then).
    const locks = rows.filter((r) => r.lock_set);
    if (locks.length > 0) {
      await tx.query(sql.unsafe`
        update ${table('course_records')} r
           set quiz_next = x.quiz_next, quiz_retry_at = x.quiz_retry_at, quiz_round_from = coalesce(x.round_from, r.quiz_round_from)
          from jsonb_to_recordset(${sql.jsonb(locks)}) as x(course_id int, user_id int, block_id int, round_from int, quiz_next text, quiz_retry_at timestamptz)
         where r.course_id = x.course_id and r.user_id = x.user_id and r.block_id = x.block_id`);
    }
  }
};
