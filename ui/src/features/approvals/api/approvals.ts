import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/**
 * The approval of course content before publishing (issue 36, the shared contract of the session):
 * settings per scope, a course's approval state, submitting, withdrawing and signing, the content
 * that was submitted, and what waits for the caller's signature.
 */

/** 'platform' (courses without an owner) or a company's id, as text in the path. */
export type ApprovalScope = 'platform' | number;

export type ApprovalStepSetting = { key: string; label: string; approverIds: number[] };

export type ApprovalSettings = {
  enabled: boolean;
  codePrefix: string;
  steps: ApprovalStepSetting[];
};

/** A person the admin may name as an approver (holds 1071). */
export type ApproverCandidate = { id: number; name: string };

export type ApprovalDecision = 'approved' | 'rejected';
export type ApprovalStatus = 'pending' | 'approved' | 'rejected' | 'withdrawn';

export type ApprovalStepState = {
  key: string;
  label: string;
  decision: ApprovalDecision | null;
  signerName: string | null;
  signedAt: string | null;
  comment: string | null;
  /** The exact sentence the caller signs per decision while the step waits (decision 0063): the dialog shows it, the signature records it. */
  meaningToSign?: { approved: string; rejected: string } | null;
  mayISign: boolean;
};

/** What signing asks of the caller (an approver): a password (a social-only account has none) and, where on, the second factor's code. */
export type SigningNeeds = { passwordSet: boolean; secondFactor: boolean };

export type CourseApproval = {
  required: boolean;
  scope: string;
  steps: { key: string; label: string }[];
  /** The hash of the content as it is now. */
  contentHash: string;
  current: null | {
    approvalVersion: number;
    status: ApprovalStatus;
    contentHash: string;
    /** null: the submitter's account was erased. */
    submittedBy: { id: number; name: string } | null;
    submittedAt: string;
    comment?: string | null;
    steps: ApprovalStepState[];
  };
  lastApproved: null | { approvalVersion: number; contentHash: string; code: string; grantedAt: string };
  published: null | { contentHash: string | null; approvalCode: string | null };
  /** The current content's hash equals the last approved one. */
  upToDate: boolean;
  /** For a caller holding 1071; null otherwise. */
  signing?: SigningNeeds | null;
};

export type InboxItem = {
  courseId: number;
  title: string;
  approvalVersion: number;
  step: string;
  stepLabel: string;
  submittedAt: string;
  submittedBy: { id: number; name: string } | string | null;
};

/** A block as it was submitted: its id, kind, place and fields. */
export type SnapshotBlock = { id: number; kind?: string; order?: number; position?: number; fields?: Record<string, unknown> } & Record<string, unknown>;
export type SnapshotAttachment = { fileId: number; name?: string | null } & Record<string, unknown>;

/** The content a version was submitted with (course fields, blocks, attachments). */
export type ContentSnapshot = {
  fields?: Record<string, unknown>;
  blocks?: SnapshotBlock[];
  attachments?: SnapshotAttachment[];
} & Record<string, unknown>;

export const APPROVALS_KEY = ['approvals'] as const;

const scopePath = (scope: ApprovalScope) => encodeURIComponent(String(scope));

/** GET /api/approval-settings/:scope (admin, 1011); `candidates` when the API lists those holding 1071. */
export const approvalSettingsQuery = (scope: ApprovalScope) =>
  queryOptions({
    queryKey: [...APPROVALS_KEY, 'settings', String(scope)],
    queryFn: () =>
      api<Omit<ApprovalSettings, 'steps'> & { candidates?: ApproverCandidate[]; steps: (ApprovalStepSetting & { approvers?: ApproverCandidate[] })[] }>(
        'GET',
        `/approval-settings/${scopePath(scope)}`,
      ),
  });

/** Saved; `warnings` name a person who alone approves several steps (separation of duties, decision 0063). */
export const saveApprovalSettings = (scope: ApprovalScope, settings: ApprovalSettings) =>
  api<{ scope: ApprovalScope; warnings?: string[] }>('PUT', `/approval-settings/${scopePath(scope)}`, { body: settings });

/**
 * The people the admin may name as approvers: active accounts holding 1071, which the approver role
 * (8, "Odobritev vsebin (1071)") grants; the admin gives it per person on the user's page.
 */
export const APPROVER_ROLE = 8;
export const approverCandidatesQuery = queryOptions({
  queryKey: [...APPROVALS_KEY, 'approvers'],
  queryFn: async ({ signal }) => {
    const all: ApproverCandidate[] = [];
    for (let page = 1; ; page++) {
      const result = await api<{ items: { id: number; fullName: string }[]; total: number }>('GET', '/users', {
        query: { roleId: APPROVER_ROLE, status: 'active', page, pageSize: 100, sort: 'name', order: 'asc' },
        signal,
      });
      all.push(...result.items.map((u) => ({ id: u.id, name: u.fullName })));
      if (result.items.length < 100 || all.length >= result.total) return all;
    }
  },
  retry: false,
});

export const courseApprovalQuery = (courseId: number) =>
  queryOptions({
    queryKey: [...APPROVALS_KEY, 'course', courseId],
    queryFn: () => api<CourseApproval>('GET', `/courses/${courseId}/approval`),
    retry: false,
  });

export const submitForApproval = (courseId: number, input: { contentHash: string; comment?: string }) =>
  api<unknown>('POST', `/courses/${courseId}/approval/submit`, { body: input });

export const withdrawFromApproval = (courseId: number, input: { approvalVersion: number; comment?: string }) =>
  api<unknown>('POST', `/courses/${courseId}/approval/withdraw`, { body: input });

export type SignInput = {
  approvalVersion: number;
  step: string;
  decision: ApprovalDecision;
  comment: string;
  contentHash: string;
  password: string;
  /** Where the signer has the second factor on: the challenge of requestSignatureCode and the code from the mail. */
  secondFactorChallenge?: string;
  secondFactorCode?: string;
};

export const signApproval = (courseId: number, input: SignInput) => api<unknown>('POST', `/courses/${courseId}/approval/sign`, { body: input });

/** The second factor's code for a signature, by mail; answers the challenge the signature names. */
export const requestSignatureCode = (courseId: number) => api<{ challengeId: string; expiresAt: string }>('POST', `/courses/${courseId}/approval/sign/code`);

export const approvalContentQuery = (courseId: number, approvalVersion: number) =>
  queryOptions({
    queryKey: [...APPROVALS_KEY, 'content', courseId, approvalVersion],
    queryFn: () => api<ContentSnapshot>('GET', `/courses/${courseId}/approval/versions/${approvalVersion}/content`),
    // A submitted version never changes.
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });

/** GET /api/approvals/inbox: what waits for the caller's signature. */
export const approvalInboxQuery = queryOptions({
  queryKey: [...APPROVALS_KEY, 'inbox'],
  queryFn: () => api<{ items: InboxItem[] } | InboxItem[]>('GET', '/approvals/inbox').then((r) => (Array.isArray(r) ? r : r.items)),
  retry: false,
});

/** The course publishes or is withdrawn from participants (the list's own routes). */
export const setCoursePublished = (courseId: number, published: boolean) => api<unknown>('POST', `/courses/${courseId}/${published ? 'publish' : 'unpublish'}`);
