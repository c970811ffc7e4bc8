import { sql } from 'slonik';
import { defineProjection } from '../../infrastructure/projections/projection.port.ts';

type Submitted = { approvalVersion: number; contentHash: string; steps: { key: string; label: string }[]; submittedBy: number | null; submittedAt: string };
type Signed = { approvalVersion: number; step: string; decision: 'approved' | 'rejected'; signerId: number; signedAt: string };
type Granted = { approvalVersion: number; code: string; grantedAt: string };
type Published = { contentHash?: string; approvalCode?: string };
type Settings = { enabled: boolean; codePrefix: string; steps: { key: string; label: string; approverIds: number[] }[] };

const courseIdOf = (streamName: string) => Number(streamName.slice('course-'.length));

/**
 * Approval of courses (issue 36, decision 0063) for lists: each course's newest approval version with
 * its status and the steps signed so far, its last grant, and each scope's settings (who approves
 * which step). The inbox (what waits for a person's signature) and the status in course lists read
 * these; one course's approval page reads its stream, which is exact.
 */
export const courseApprovalsProjection = defineProjection({
  name: 'course_approvals',
  // 2: published_code (the code the course was last published under, not its last grant's).
  version: 2,
  tables: ['course_approvals', 'approval_settings'],
  setup: (table) => [
    sql.unsafe`create table ${table('course_approvals')} (
      course_id integer primary key,
      approval_version integer not null,
      status text not null,
      content_hash text not null,
      steps jsonb not null,
      -- The signatures of the newest version: [{ step, decision, signerId, signedAt }].
      signatures jsonb not null default '[]'::jsonb,
      submitted_by integer,
      submitted_at timestamptz not null,
      code text,
      granted_at timestamptz,
      last_code text,
      last_granted_at timestamptz,
      last_granted_hash text,
      -- The code the last publish (or restore that published again) recorded; null when it carried none (decision 0063).
      published_code text)`,
    sql.unsafe`create index on ${table('course_approvals')} (status) where status = 'pending'`,
    sql.unsafe`create table ${table('approval_settings')} (scope text primary key, enabled boolean not null, code_prefix text not null, steps jsonb not null)`,
  ],
  handlers: {
    CourseApprovalSubmitted: async ({ tx, table }, event) => {
      const d = event.data as Submitted;
      await tx.query(sql.unsafe`
        insert into ${table('course_approvals')} (course_id, approval_version, status, content_hash, steps, signatures, submitted_by, submitted_at)
        values (${courseIdOf(event.streamName)}, ${d.approvalVersion}, 'pending', ${d.contentHash}, ${sql.jsonb(d.steps)}, '[]'::jsonb, ${d.submittedBy},
          ${d.submittedAt})
        on conflict (course_id) do update set approval_version = excluded.approval_version, status = 'pending', content_hash = excluded.content_hash,
          steps = excluded.steps, signatures = '[]'::jsonb, submitted_by = excluded.submitted_by, submitted_at = excluded.submitted_at,
          code = null, granted_at = null`);
    },
    CourseApprovalSigned: async ({ tx, table }, event) => {
      const d = event.data as Signed;
      const signature = { step: d.step, decision: d.decision, signerId: d.signerId, signedAt: d.signedAt };
      await tx.query(sql.unsafe`
        update ${table('course_approvals')}
           set signatures = signatures || ${sql.jsonb([signature])},
               status = case when ${d.decision} = 'rejected' then 'rejected' else status end
         where course_id = ${courseIdOf(event.streamName)} and approval_version = ${d.approvalVersion}`);
    },
    CourseApprovalWithdrawn: async ({ tx, table }, event) => {
      const d = event.data as { approvalVersion: number };
      await tx.query(sql.unsafe`
        update ${table('course_approvals')} set status = 'withdrawn' where course_id = ${courseIdOf(event.streamName)} and approval_version = ${d.approvalVersion}`);
    },
    CourseApprovalGranted: async ({ tx, table }, event) => {
      const d = event.data as Granted;
      await tx.query(sql.unsafe`
        update ${table('course_approvals')}
           set status = 'approved', code = ${d.code}, granted_at = ${d.grantedAt}, last_code = ${d.code}, last_granted_at = ${d.grantedAt},
               last_granted_hash = content_hash
         where course_id = ${courseIdOf(event.streamName)} and approval_version = ${d.approvalVersion}`);
    },
    // What participants see on the course page and the certificate is the code it was published under (a later grant is not published).
    CoursePublished: async ({ tx, table }, event) => {
      const d = (event.data ?? {}) as Published;
      await tx.query(sql.unsafe`
        update ${table('course_approvals')} set published_code = ${d.approvalCode ?? null} where course_id = ${courseIdOf(event.streamName)}`);
    },
    CourseRestored: async ({ tx, table }, event) => {
      const d = (event.data ?? {}) as Published;
      // A restore records a hash only when it publishes again under approval (course.ts); otherwise the last publish stands.
      if (d.contentHash === undefined) return;
      await tx.query(sql.unsafe`
        update ${table('course_approvals')} set published_code = ${d.approvalCode ?? null} where course_id = ${courseIdOf(event.streamName)}`);
    },
    CourseDeleted: async ({ tx, table }, event) => {
      await tx.query(sql.unsafe`delete from ${table('course_approvals')} where course_id = ${courseIdOf(event.streamName)}`);
    },
    ApprovalSettingsSet: async ({ tx, table }, event) => {
      const d = event.data as Settings;
      const scope = event.streamName.slice('approval-settings-'.length);
      await tx.query(sql.unsafe`
        insert into ${table('approval_settings')} (scope, enabled, code_prefix, steps) values (${scope}, ${d.enabled}, ${d.codePrefix}, ${sql.jsonb(d.steps)})
        on conflict (scope) do update set enabled = excluded.enabled, code_prefix = excluded.code_prefix, steps = excluded.steps`);
    },
  },
});
