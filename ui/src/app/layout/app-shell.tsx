import { Anchor, Box, Burger, Button, Center, Container, Divider, Drawer, Group, Loader, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useNavigate } from 'react-router';
import { Logo } from '../../components/logo.tsx';
import { NewsPopup } from '../../features/news/components/news-popup.tsx';
import { PushPrompt } from '../../features/push/components/push-prompt.tsx';
import { accounts } from '../../features/users/accounts.ts';
import { logout } from '../../features/users/api/login.ts';
import { meQuery, useMe } from '../../features/users/api/me.ts';
import { AccountSwitcher } from '../../features/users/components/account-switcher.tsx';
import { ImpersonationBanner } from '../../features/users/components/impersonation-banner.tsx';
import { session } from '../../lib/session.ts';
import { useMinimumDelay } from '../../lib/use-minimum-delay.ts';
import { hidingBarProps, MOBILE_BREAKPOINT, useHideOnScroll } from '../../lib/use-scroll-direction.ts';
import { APP_VERSION } from '../../lib/version.ts';
import { DesktopMenu, StackedMenu } from './main-menu.tsx';
import { mainMenu, phoneUserMenuLinks, showsMobileMenuButton } from './menu-model.ts';
import { MobileFooter } from './mobile-footer.tsx';
import { receivesPush } from './push-audience.ts';
import { UserMenu } from './user-menu.tsx';

/**
 * The signed-in layout: header (logo, menu, account switcher, user menu, and the places of the
 * news pop-up and the push-permission dialog), the page, and on mobile the footer. Below 768 px
 * header and footer hide while scrolling down and come back when scrolling up; hidden, they are
 * inert (issue 33 item 5: focus reached links off the screen).
 */
export const AppShellLayout = () => {
  const { t } = useTranslation();
  const me = useMe();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const isMobile = useMediaQuery(`(max-width: ${MOBILE_BREAKPOINT - 1}px)`) ?? false;
  const hidden = useHideOnScroll() && isMobile;
  const [drawerOpen, setDrawerOpen] = useState(false);
  const pendingSavePassword = useRef<boolean | undefined>(undefined);
  const loading = useMinimumDelay(me.isPending);
  const user = me.data;

  useEffect(() => {
    const token = session.token();
    // An account an admin only acts for ("log in as") is not added to the admin's switcher.
    if (!user || !token || user.realUser) return;
    accounts.remember(user, token, pendingSavePassword.current);
    pendingSavePassword.current = undefined;
  }, [user]);

  const signOut = async () => {
    await logout();
    queryClient.clear();
    navigate('/prijava', { replace: true });
  };

  const switched = async (savePassword?: boolean) => {
    pendingSavePassword.current = savePassword;
    // Everything cached belongs to the previous account: reset it, so the open queries load again as the new one.
    queryClient.removeQueries({ type: 'inactive' });
    await queryClient.resetQueries();
    navigate('/', { replace: true });
  };

  const leftImpersonation = async (restored: boolean) => {
    if (restored) {
      // As after an account switch: everything cached was the other user's; load it again as the admin.
      queryClient.removeQueries({ type: 'inactive' });
      await queryClient.resetQueries();
      navigate('/', { replace: true });
    } else {
      queryClient.clear();
      notifications.show({ color: 'yellow', message: t('identity.impersonation.backFailed') });
      navigate('/prijava', { replace: true });
    }
  };

  const items = user ? mainMenu(user) : [];

  return (
    <Box mih="100vh" bg="var(--mantine-color-gray-0)" pb={isMobile ? 110 : 0}>
      <Anchor href="#main" className="skip-link">
        {t('app.skipToContent')}
      </Anchor>
      <Box
        component="header"
        data-testid="app-header"
        {...hidingBarProps(hidden)}
        style={{
          position: 'sticky',
          top: 0,
          zIndex: 100,
          background: 'var(--mantine-color-white)',
          borderBottom: '1px solid var(--mantine-color-gray-3)',
          transform: hidden ? 'translateY(-100%)' : 'translateY(0)',
          transition: 'transform 200ms ease',
        }}
      >
        {user?.realUser ? <ImpersonationBanner user={user} onLeft={leftImpersonation} /> : null}
        {/* At least 64 px high, taller when a long menu wraps to a second row (see DesktopMenu). */}
        <Container size="xl" mih={64} py={4} style={{ display: 'flex', alignItems: 'center' }}>
          <Group justify="space-between" wrap="nowrap" w="100%">
            {/* The menu's side takes what the user's controls leave (minWidth 0: it may shrink below its content and wrap). */}
            <Group gap="lg" wrap="nowrap" style={{ flex: 1, minWidth: 0 }}>
              <Anchor component={Link} to="/" underline="never" c="inherit" title={t('pages.home')} style={{ flexShrink: 0 }}>
                <Logo compact={isMobile || items.length > 3} />
              </Anchor>
              {!isMobile && items.length > 0 ? (
                <nav aria-label={t('menu.main')} style={{ flex: 1, minWidth: 0 }}>
                  <DesktopMenu items={items} />
                </nav>
              ) : null}
            </Group>
            {/* Never squeezed: the user menu (profile, sign out) stays on the screen whatever the menu's length. */}
            <Group gap="xs" wrap="nowrap" style={{ flexShrink: 0 }}>
              {/* The news pop-up (issue 16) shows only for a signed-in user holding the consents, never while acting for someone else. */}
              <NewsPopup enabled={Boolean(user && user.missingConsents.length === 0 && !user.realUser)} />
              {/* The push-permission dialog (issue 16): likewise, never while acting for someone else (their notifications are theirs), never to whom nothing is pushed (issue 33). */}
              <PushPrompt
                userId={user?.id ?? null}
                enabled={Boolean(user && user.missingConsents.length === 0 && !user.realUser)}
                receivesPush={user ? receivesPush(user) : false}
                onesignalEnabled={user?.onesignalEnabled ?? 0}
                onChanged={() => queryClient.invalidateQueries({ queryKey: meQuery.queryKey })}
              />
              {user ? <AccountSwitcher currentUserId={user.id} onSwitched={switched} /> : null}
              {user ? <UserMenu user={user} onLogout={signOut} roleLinks={isMobile ? phoneUserMenuLinks(user) : []} /> : null}
              {isMobile && user && showsMobileMenuButton(user) ? (
                <Burger
                  opened={drawerOpen}
                  onClick={() => setDrawerOpen((o) => !o)}
                  aria-label={drawerOpen ? t('menu.close') : t('menu.open')}
                  data-testid="mobile-menu-button"
                />
              ) : null}
              {!user && !me.isPending ? (
                <Button variant="default" size="xs" onClick={signOut}>
                  {t('userMenu.logout')}
                </Button>
              ) : null}
            </Group>
          </Group>
        </Container>
      </Box>
      <Drawer opened={drawerOpen} onClose={() => setDrawerOpen(false)} title={t('menu.main')} size="xs" position="left">
        <nav aria-label={t('menu.main')}>
          <StackedMenu items={items} onNavigate={() => setDrawerOpen(false)} />
        </nav>
        <Divider my="md" />
        <Text size="xs" c="dimmed" data-testid="mobile-menu-version">
          {t('app.version', { version: APP_VERSION })}
        </Text>
      </Drawer>
      <Container size="xl" py="lg" component="main" id="main">
        {loading ? (
          <Center py="xl">
            <Loader role="status" aria-label={t('common.loading')} />
          </Center>
        ) : (
          <Outlet />
        )}
      </Container>
      {isMobile && user ? <MobileFooter hidden={hidden} user={user} /> : null}
    </Box>
  );
};
