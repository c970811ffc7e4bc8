import { Alert } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ApprovalInboxPage } from '../../features/approvals/components/approval-inbox-page.tsx';
import { ApprovalReviewPage } from '../../features/approvals/components/approval-review-page.tsx';
import { meQuery } from '../../features/users/api/me.ts';
import { hasSystemPermission } from '../../features/users/roles.ts';

/** Signing approval steps (issue 36, decision 0063): the approver's system permission. */
const APPROVE_PERMISSION = 1071;

const NotAnApprover = () => {
  const { t } = useTranslation();
  return (
    <Alert color="yellow" data-testid="not-an-approver">
      {t('approvals.inbox.notApprover')}
    </Alert>
  );
};

const Review = ({ notFound }: { notFound: ReactNode }) => {
  const { courseId, approvalVersion } = useParams();
  const course = Number(courseId);
  const version = Number(approvalVersion);
  if (!Number.isInteger(course) || course < 1 || !Number.isInteger(version) || version < 1) return <>{notFound}</>;
  return <ApprovalReviewPage key={`${course}-${version}`} courseId={course} approvalVersion={version} />;
};

/** The approver's pages by route path, one lazily loaded chunk: the inbox and the review of a version. */
export const ApprovalPage = ({ path, notFound }: { path: string; notFound: ReactNode }) => {
  const me = useQuery(meQuery);
  if (!me.data) return null;
  // An author reads the review of their own course's version too (what the approvers see); only approvers have an inbox.
  if (path === '/odobritve') return hasSystemPermission(me.data, APPROVE_PERMISSION) ? <ApprovalInboxPage /> : <NotAnApprover />;
  if (path === '/odobritve/:courseId/:approvalVersion') return <Review notFound={notFound} />;
  return <>{notFound}</>;
};
