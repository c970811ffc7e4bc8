import { Tabs } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';

const TABS = [
  { path: '/profil', label: 'profile.tabs.profile' },
  { path: '/profil/izobrazevanja', label: 'profile.tabs.courses' },
  { path: '/profil/pogoji', label: 'profile.tabs.consents' },
] as const;

/**
 * spec §2: the profile's tabs (profile, completed courses, consents), each its own route. `courses`:
 * false for who reads no courses, an auditor (decision 0016; issue 18: no way to a page that refuses).
 */
export const ProfileTabs = ({ courses = true }: { courses?: boolean }) => {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  return (
    <Tabs value={pathname} onChange={(value) => value && void navigate(value)} mb="md">
      <Tabs.List>
        {TABS.filter((tab) => courses || tab.path !== '/profil/izobrazevanja').map((tab) => (
          <Tabs.Tab key={tab.path} value={tab.path}>
            {t(tab.label)}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  );
};
