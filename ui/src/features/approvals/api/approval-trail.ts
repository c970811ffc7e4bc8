import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { downloadFile } from '../../../lib/download.ts';

/**
 * A course's approval trail for auditors (issue 36 item 3, decision 0064): replayed by the server
 * from the course's event log to a moment, with the check of the published content's hash.
 */
export type TrailKind =
  | 'submitted'
  | 'signed'
  | 'rejected'
  | 'withdrawn'
  | 'granted'
  | 'published'
  | 'unpublished'
  | 'content-changed'
  /** The approval settings of the course's scope saved (decision 0064): who, on or off, steps and approvers (in `meaning` and `settings`). */
  | 'settings-changed';

export type TrailRow = {
  at: string;
  kind: TrailKind;
  approvalVersion: number | null;
  step: string | null;
  stepLabel: string | null;
  who: { id: number; name: string } | null;
  meaning: string;
  comment: string | null;
  contentHash: string | null;
  code: string | null;
  method: string | null;
  /** Whether the hash the event records equals the content recomputed from the log at that point. */
  hashMatchesContent: boolean | null;
  revision: number;
  settings?: { enabled: boolean; codePrefix: string; steps: { key: string; label: string; approvers: { id: number; name: string }[] }[] } | null;
};

export type VerificationStatus = 'verified' | 'mismatch' | 'unapproved' | 'not-published' | 'no-course';

export type TrailVerification = {
  publishedHash: string | null;
  approvedHash: string | null;
  currentHash: string | null;
  approvalCode: string | null;
  approvalVersion: number | null;
  publishedAt: string | null;
  matches: boolean;
  status: VerificationStatus;
  reason: string;
};

export type ApprovalTrail = {
  course: { id: number; title: string; type: number; companyId: number | null };
  asOf: string | null;
  generatedAt: string;
  rows: TrailRow[];
  verification: TrailVerification;
};

export type AuditCourse = { id: number; title: string; published: boolean; status: string; companyName: string | null };

export const approvalTrailQuery = (courseId: number, asOf: string | null) =>
  queryOptions({
    queryKey: ['approvals', 'trail', courseId, asOf],
    queryFn: ({ signal }) => api<ApprovalTrail>('GET', `/courses/${courseId}/approval/trail`, { query: { asOf }, signal }),
  });

export const searchAuditCourses = (search: string) => api<{ items: AuditCourse[] }>('GET', '/approval-trail/courses', { query: { search } });

export const downloadApprovalTrail = (courseId: number, format: 'xlsx' | 'pdf', asOf: string | null) =>
  downloadFile(`/api/courses/${courseId}/approval/trail.${format}${asOf ? `?asOf=${encodeURIComponent(asOf)}` : ''}`, `revizijska-sled-${courseId}.${format}`);
