import { ActionIcon, Button, Checkbox, Menu, Modal, PasswordInput, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconSwitchHorizontal, IconUserPlus } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { loginFormRule } from '../../../../../domain/users/user.rules.ts';
import { session } from '../../../lib/session.ts';
import { type Account, accounts } from '../accounts.ts';
import { requestToken } from '../api/login.ts';

type Dialog = { account: Account | null } | null;

/**
 * spec §2/§4 account switcher: the accounts used in this browser, without the current one. An entry
 * with a saved jwt switches at once; otherwise a dialog asks for the password (with "save password").
 * "Add account" signs in to another account the same way.
 */
export const AccountSwitcher = ({ currentUserId, onSwitched }: { currentUserId: number; onSwitched: (savePassword?: boolean) => void | Promise<void> }) => {
  const { t } = useTranslation();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [version, setVersion] = useState(0);
  const [menuOpen, setMenuOpen] = useState(false);
  const others = accounts.list().filter((a) => a.id !== currentUserId);
  void version;

  const switchTo = (account: Account) => {
    if (account.jwt) {
      session.setToken(account.jwt);
      onSwitched();
    } else {
      setDialog({ account });
    }
  };

  return (
    <>
      {/* Opened, the focus goes to the first item (each is marked; the first in order takes it), not to an unnamed placeholder (issue 33 item 5). */}
      <Menu
        position="bottom-end"
        width={280}
        withinPortal
        withInitialFocusPlaceholder={false}
        opened={menuOpen}
        onChange={setMenuOpen}
        onOpen={() => setVersion((v) => v + 1)}
      >
        <Menu.Target>
          {/* The hint gives way to the menu it names (issue 18: it stayed over the open menu). */}
          <Tooltip label={t('accounts.switch')} disabled={menuOpen}>
            <ActionIcon variant="subtle" color="dark" size="lg" aria-label={t('accounts.switch')} data-testid="account-switcher">
              <IconSwitchHorizontal size={20} aria-hidden />
            </ActionIcon>
          </Tooltip>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>{t('accounts.title')}</Menu.Label>
          {others.length === 0 ? (
            <Text size="sm" px="sm" py={4} c="dimmed">
              {t('accounts.empty')}
            </Text>
          ) : (
            others.map((account) => (
              <Menu.Item key={account.id} onClick={() => switchTo(account)} data-account={account.username} data-autofocus>
                <Text size="sm" fw={500}>
                  {account.fullName}
                </Text>
                <Text size="xs" c="dimmed">
                  {account.email}
                </Text>
              </Menu.Item>
            ))
          )}
          <Menu.Divider />
          <Menu.Item leftSection={<IconUserPlus size={16} aria-hidden />} onClick={() => setDialog({ account: null })} data-autofocus>
            {t('accounts.add')}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      {dialog ? (
        <SwitchDialog
          account={dialog.account}
          onClose={() => setDialog(null)}
          onLoggedIn={(savePassword) => {
            setDialog(null);
            onSwitched(savePassword);
          }}
        />
      ) : null}
    </>
  );
};

const SwitchDialog = ({ account, onClose, onLoggedIn }: { account: Account | null; onClose: () => void; onLoggedIn: (savePassword: boolean) => void }) => {
  const { t } = useTranslation();
  const [usernameOrEmail, setUsernameOrEmail] = useState(account?.username ?? '');
  const [password, setPassword] = useState('');
  const [savePassword, setSavePassword] = useState(account?.savePassword ?? false);
  const [errors, setErrors] = useState<{ usernameOrEmail?: string; password?: string }>({});
  const [pending, setPending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = loginFormRule.safeParse({ usernameOrEmail, password });
    if (!parsed.success) {
      const next: typeof errors = {};
      for (const issue of parsed.error.issues) next[issue.path[0] as keyof typeof errors] ??= issue.message;
      setErrors(next);
      return;
    }
    setPending(true);
    try {
      const answer = await requestToken(parsed.data);
      if (!('authToken' in answer)) {
        // The account asks for a second factor: that is the 2FA screen's job, not this dialog's.
        window.location.assign(`/prijava/2fa?auth2FAToken=${encodeURIComponent(answer.secondFactorAuth.authToken)}`);
        return;
      }
      session.setToken(answer.authToken);
      // The shell records the account (keeping the jwt only with "save password") once the user has loaded.
      onLoggedIn(savePassword);
    } catch {
      notifications.show({ color: 'red', message: t('accounts.failed') });
    } finally {
      setPending(false);
    }
  };

  return (
    <Modal opened onClose={onClose} title={account ? t('accounts.loginAs', { name: account.fullName }) : t('accounts.add')} centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label={t('accounts.usernameOrEmail')}
            value={usernameOrEmail}
            readOnly={account !== null}
            onChange={(e) => {
              const value = e.currentTarget.value;
              setUsernameOrEmail(value);
            }}
            error={errors.usernameOrEmail}
            autoComplete="username"
            withAsterisk
          />
          <PasswordInput
            label={t('accounts.password')}
            value={password}
            onChange={(e) => {
              const value = e.currentTarget.value;
              setPassword(value);
            }}
            error={errors.password}
            autoComplete="current-password"
            data-autofocus
            withAsterisk
          />
          <Checkbox label={t('accounts.savePassword')} checked={savePassword} onChange={(e) => setSavePassword(e.currentTarget.checked)} />
          <Button type="submit" loading={pending}>
            {t('accounts.submit')}
          </Button>
          <Button variant="default" onClick={onClose}>
            {t('accounts.cancel')}
          </Button>
        </Stack>
      </form>
    </Modal>
  );
};
