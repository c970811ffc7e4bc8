import { Alert, Anchor } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { approvalInboxQuery } from '../api/approvals.ts';

/**
 * The home page's line (issue 36 item 4): "N izobraževanj čaka na vašo odobritev", leading to the inbox;
 * nothing while none waits. Its own small file: the home page is in the first chunk every page loads,
 * the inbox page is not.
 */
export const useApprovalsWaiting = (enabled: boolean) => {
  const inbox = useQuery({ ...approvalInboxQuery, enabled, staleTime: 30_000 });
  // One course may wait on two of the person's steps: courses are counted once.
  return new Set((inbox.data ?? []).map((item) => `${item.courseId}-${item.approvalVersion}`)).size;
};

/** The same line on the home page of an approver who is no admin or editor (their home has no attention panel). */
export const ApprovalsWaitingLine = () => {
  const { t } = useTranslation();
  const waiting = useApprovalsWaiting(true);
  if (waiting === 0) return null;
  return (
    <Alert color="blue" variant="light" data-testid="home-approvals-waiting">
      <Anchor component={Link} to="/odobritve">
        {t('home.admin.approvalsWaiting', { count: waiting })}
      </Anchor>
    </Alert>
  );
};
