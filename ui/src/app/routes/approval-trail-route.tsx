import { useQuery } from '@tanstack/react-query';
import { ApprovalTrailPage } from '../../features/approvals/components/approval-trail-page.tsx';
import { meQuery } from '../../features/users/api/me.ts';
import { hasSystemPermission } from '../../features/users/roles.ts';

/** Read a course's approval trail (issue 36 item 3, decision 0064): auditors and admins. */
const APPROVAL_AUDIT_PERMISSION = 1072;

/** /revizija/odobritve: the approval trail page for those who hold 1072. */
export const ApprovalTrailRoute = () => {
  const me = useQuery(meQuery);
  return me.data ? <ApprovalTrailPage allowed={hasSystemPermission(me.data, APPROVAL_AUDIT_PERMISSION)} /> : null;
};
