import { Anchor, List, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApprovalsWaitingLine } from '../../features/approvals/components/approvals-waiting.tsx';
import { type CurrentUser, useMe } from '../../features/users/api/me.ts';
import { hasRole, hasSystemPermission, ROLE_ID } from '../../features/users/roles.ts';
import { COMMUNITY_STATS_ROLES, mainMenu } from '../layout/menu-model.ts';
import { AdminHome } from './home/admin-home.tsx';
import { CommunityHome } from './home/community-home.tsx';
import { ParticipantHome } from './home/participant-home.tsx';

/** spec §6 course read (1017): admins and editors author courses. */
const AUTHORING = 1017;

/**
 * For whom none of the parts applies (an auditor; someone in no unit yet): the pages of their own
 * menu, as links (issue 33 item 7: the page pointed an auditor to courses in a main menu that has none,
 * and on a phone the menu is in the user menu).
 */
const MenuPages = ({ user }: { user: CurrentUser }) => {
  const { t } = useTranslation();
  const pages = mainMenu(user).flatMap((item) => item.children ?? [item]);
  if (pages.length === 0) return null;
  return (
    <Stack gap="xs" component="nav" aria-labelledby="home-pages">
      <Text id="home-pages">{t('home.intro')}</Text>
      <List>
        {pages.map((page) => (
          <List.Item key={page.key}>
            <Anchor component={Link} to={page.to as string} data-home-page={page.key}>
              {t(page.label)}
            </Anchor>
          </List.Item>
        ))}
      </List>
    </Stack>
  );
};

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
      </Stack>
      {!admin && !community && !learner ? <MenuPages user={user} /> : null}
      {/* Issue 36: an approver who is no admin sees what waits for their signature (admins in their attention panel). */}
      {!admin && hasSystemPermission(user, 1071) ? <ApprovalsWaitingLine /> : null}
      {admin ? <AdminHome me={user} /> : null}
      {community ? <CommunityHome /> : null}
      {learner ? <ParticipantHome /> : null}
    </Stack>
  );
};
