import { Avatar, Menu, Text, UnstyledButton } from '@mantine/core';
import { IconCertificate, IconChevronRight, IconLogout, IconNews, IconUser } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { CurrentUser } from '../../features/users/api/me.ts';
import { locationOf } from '../../features/users/roles.ts';
import { useFeature } from '../../lib/features.ts';
import { type MenuItem, userMenuLinks } from './menu-model.ts';

const ICONS = { profile: IconUser, completedCourses: IconCertificate, newsletters: IconNews } as const;

const initials = (user: CurrentUser) => `${user.firstName.charAt(0)}${user.lastName.charAt(0)}`.toUpperCase();

/** spec §2 user menu: name, location, profile, own completed courses (and the newsletters, issue 16), logout; opens on the avatar, closes on a click outside. */
export const UserMenu = ({ user, onLogout, roleLinks = [] }: { user: CurrentUser; onLogout: () => void; roleLinks?: readonly MenuItem[] }) => {
  const { t } = useTranslation();
  const location = locationOf(user);
  const links = userMenuLinks({ newsletters: useFeature('newsletters') }, user);
  return (
    <Menu position="bottom-end" width={260} withinPortal withInitialFocusPlaceholder={false}>
      <Menu.Target>
        {/* The name starts with the initials shown, as WCAG 2.5.3 (label in name) asks. */}
        <UnstyledButton aria-label={`${initials(user)}, ${t('userMenu.open')}: ${user.fullName}`} data-testid="user-menu">
          <Avatar color="brand" radius="xl">
            {initials(user)}
          </Avatar>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown aria-label={t('userMenu.open')}>
        <Menu.Label>
          <Text fw={600} c="dark" size="sm" data-testid="user-menu-name">
            {user.fullName}
          </Text>
          {location ? (
            <Text size="xs" c="dimmed" title={t('userMenu.location')}>
              {location}
            </Text>
          ) : null}
        </Menu.Label>
        <Menu.Divider />
        {links.map((link, index) => {
          const Icon = ICONS[link.key as keyof typeof ICONS] ?? IconUser;
          return (
            // Issue 33 item 5: opening the menu focused an unnamed placeholder (now off); its focus trap takes the first item (data-autofocus).
            <Menu.Item
              key={link.key}
              component={Link}
              to={link.to as string}
              leftSection={<Icon size={16} aria-hidden />}
              data-autofocus={index === 0 ? true : undefined}
            >
              {t(link.label)}
            </Menu.Item>
          );
        })}
        {roleLinks.length > 0 ? (
          <>
            <Menu.Divider />
            {roleLinks.map((link) => (
              <Menu.Item key={link.key} component={Link} to={link.to as string} leftSection={<IconChevronRight size={16} aria-hidden />}>
                {t(link.label)}
              </Menu.Item>
            ))}
          </>
        ) : null}
        <Menu.Divider />
        <Menu.Item onClick={onLogout} leftSection={<IconLogout size={16} aria-hidden />}>
          {t('userMenu.logout')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
};
