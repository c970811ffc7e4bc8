import { Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useMe } from '../../features/users/api/me.ts';
import { hasRole, hasSystemPermission, ROLE_ID } from '../../features/users/roles.ts';
import { COMMUNITY_STATS_ROLES } from '../layout/menu-model.ts';
import { AdminHome } from './home/admin-home.tsx';
import { CommunityHome } from './home/community-home.tsx';
import { ParticipantHome } from './home/participant-home.tsx';

/** spec §6 course read (1017): admins and editors author courses. */
const AUTHORING = 1017;

/**
 * / (issue 18): a page worth opening, per role. Admins and editors first see what needs attention and
 * the platform's figures; managers, directors, clients and accountants their community's figures;
 * whoever takes courses where they stopped, what closes soon, what is new and what they completed
 * this year. A person with several roles sees each part that applies.
 */
export const HomePage = () => {
  const { t } = useTranslation();
  const me = useMe();
  if (!me.data) return null;
  const user = me.data;
  const admin = hasRole(user, ROLE_ID.admin) || hasRole(user, ROLE_ID.editor) || hasSystemPermission(user, AUTHORING);
  const community = !hasRole(user, ROLE_ID.admin) && COMMUNITY_STATS_ROLES.some((role) => hasRole(user, role));
  const learner = hasRole(user, ROLE_ID.participant);
  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1} size="h2">
          {t('home.welcome', { name: user.fullName })}
        </Title>
        {!admin && !community && !learner ? <Text c="dimmed">{t('home.intro')}</Text> : null}
      </Stack>
      {admin ? <AdminHome me={user} /> : null}
      {community ? <CommunityHome /> : null}
      {learner ? <ParticipantHome /> : null}
    </Stack>
  );
};
