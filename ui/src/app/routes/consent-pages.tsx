import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ProfileTabs } from '../../components/profile-tabs.tsx';
import { ConsentAuditPage } from '../../features/consents/components/consent-audit-page.tsx';
import { ConsentsPage } from '../../features/consents/components/consents-page.tsx';
import { ProfileConsentsPage } from '../../features/consents/components/profile-consents.tsx';
import { meQuery } from '../../features/users/api/me.ts';
import { hasSystemPermission, readsCourses } from '../../features/users/roles.ts';

/** Consent audit (decision 0013). */
const AUDIT_PERMISSION = 1070;
/** spec §6 user update: an admin records a consent on the user's behalf. */
const USER_UPDATE_PERMISSION = 1006;

/** The consent pages by route path, one lazily loaded chunk. */
export const ConsentPage = ({ path }: { path: string }) => {
  const queryClient = useQueryClient();
  const me = useQuery(meQuery);
  // After a change the profile (missingConsents) is read again, so the guard sees where the user stands now.
  const reloadMe = () => queryClient.fetchQuery({ ...meQuery, staleTime: 0 });
  const pages: Record<string, () => ReactNode> = {
    '/pogoji': () => <ConsentsPage onGiven={reloadMe} />,
    '/profil/pogoji': () => (
      <>
        <ProfileTabs courses={me.data ? readsCourses(me.data) : false} />
        <ProfileConsentsPage onChanged={reloadMe} />
      </>
    ),
    '/revizija/privolitve': () =>
      me.data ? (
        <ConsentAuditPage allowed={hasSystemPermission(me.data, AUDIT_PERMISSION)} canRecord={hasSystemPermission(me.data, USER_UPDATE_PERMISSION)} />
      ) : null,
  };
  return <>{pages[path]?.() ?? null}</>;
};
