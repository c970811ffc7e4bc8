import { Tabs } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';

const TABS = [
  { path: '/profil', label: 'profile.tabs.profile' },
  { path: '/profil/izobrazevanja', label: 'profile.tabs.courses' },
  { path: '/profil/pogoji', label: 'profile.tabs.consents' },
] as const;

/** spec §2: the profile's tabs (profile, completed courses, consents), each its own route. */
export const ProfileTabs = () => {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  return (
    <Tabs value={pathname} onChange={(value) => value && void navigate(value)} mb="md">
      <Tabs.List>
        {TABS.map((tab) => (
          <Tabs.Tab key={tab.path} value={tab.path}>
            {t(tab.label)}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  );
};
