import { Alert, Center, Loader, SimpleGrid, Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ProfileTabs } from '../../../components/profile-tabs.tsx';
import { meQuery } from '../api/me.ts';
import { missingProfessionNumber } from '../profession-numbers.ts';
import { readsCourses } from '../roles.ts';
import { DeletionRequest } from './deletion-request.tsx';
import { PersonalDataExport } from './personal-data-export.tsx';
import { ProfileForm } from './profile-form.tsx';
import { PushSetting } from './push-setting.tsx';
import { SecuritySettings } from './security-settings.tsx';
import { SocialAccounts } from './social-accounts.tsx';

/**
 * /profil (spec §2, issue 13): the profile tab with every user field, security (password, second
 * factor), bound social accounts, push notifications and the request to delete one's data. A user
 * whose profession needs a licence or chamber number and lacks it is sent here (spec §5) and told
 * which one.
 */
export const ProfilePage = ({ reloadMe }: { reloadMe: () => Promise<unknown> }) => {
  const { t } = useTranslation();
  const me = useQuery(meQuery);
  if (me.isPending) {
    return (
      <Center py="xl">
        <Loader role="status" aria-label={t('common.loading')} />
      </Center>
    );
  }
  if (!me.data) return <Alert color="red">{t('identity.profile.loadFailed')}</Alert>;
  const user = me.data;
  const missing = missingProfessionNumber(user);
  return (
    <Stack gap="md">
      <ProfileTabs courses={readsCourses(user)} />
      <Title order={1} size="h2">
        {t('identity.profile.title')}
      </Title>
      {missing ? (
        <Alert color="yellow" role="alert" data-testid="profession-number-warning">
          {t(missing === 'chamber' ? 'identity.profile.chamberWarning' : 'identity.profile.licenceWarning')}
        </Alert>
      ) : null}
      {/* Keyed by the user: after switching accounts the form starts from the new user's fields. */}
      <ProfileForm key={user.id} user={user} onSaved={reloadMe} />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <SecuritySettings user={user} onChanged={reloadMe} />
        <Stack gap="md">
          <SocialAccounts user={user} onChanged={reloadMe} />
          <PushSetting user={user} onChanged={reloadMe} />
        </Stack>
      </SimpleGrid>
      <PersonalDataExport userId="me" />
      <DeletionRequest user={user} onChanged={reloadMe} />
    </Stack>
  );
};
