import { Alert, Button, Group, Modal, Paper, PasswordInput, Stack, Switch, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { passwordChangeRule } from '../../../../../domain/users/user.rules.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { useZodForm } from '../../../lib/use-zod-form.ts';
import type { CurrentUser } from '../api/me.ts';
import { changePassword, requestOwnPasswordReset, setSecondFactor } from '../api/profile.ts';
import { CurrentPasswordField } from './current-password-field.tsx';
import { NewPasswordFields } from './new-password-fields.tsx';

/**
 * Security on the profile: change the password (other sessions end), mail oneself a reset link,
 * and switch the second factor (a code by e-mail at login) with the current password.
 */
export const SecuritySettings = ({ user, onChanged }: { user: CurrentUser; onChanged: () => Promise<unknown> }) => {
  const { t } = useTranslation();
  return (
    <Paper withBorder radius="md" p="lg">
      <Stack gap="lg">
        <Title order={2} size="h4">
          {t('identity.profile.security')}
        </Title>
        <PasswordChange />
        <SecondFactorSwitch enabled={user.secondFactorEnabled} onChanged={onChanged} />
      </Stack>
    </Paper>
  );
};

const PasswordChange = () => {
  const { t } = useTranslation();
  const form = useZodForm(passwordChangeRule, { currentPassword: '', password: '', passwordConfirmation: '' });
  const change = useMutation({
    mutationFn: changePassword,
    onSuccess: () => {
      form.reset({ currentPassword: '', password: '', passwordConfirmation: '' });
      notifications.show({ color: 'teal', message: t('identity.profile.passwordChanged') });
    },
    onError: form.notifyServerErrors,
  });
  const reset = useMutation({
    mutationFn: requestOwnPasswordReset,
    onSuccess: () => notifications.show({ color: 'teal', message: t('identity.profile.resetSent') }),
    onError: (error) =>
      notifications.show({ color: 'red', message: error instanceof ApiError && error.message ? error.message : t('identity.profile.saveFailed') }),
  });
  return (
    <form
      noValidate
      aria-label={t('identity.profile.password')}
      onSubmit={(event) => {
        event.preventDefault();
        const parsed = form.validate();
        if (parsed) change.mutate(parsed);
      }}
    >
      <Stack gap="sm">
        <Text fw={500}>{t('identity.profile.password')}</Text>
        <CurrentPasswordField form={form} field="currentPassword" label={t('identity.profile.currentPassword')} />
        <Group grow align="flex-start">
          <NewPasswordFields
            form={form}
            labels={[t('identity.profile.newPassword'), t('identity.profile.newPasswordConfirmation')]}
            names={['newPassword', 'newPasswordConfirmation']}
          />
        </Group>
        <Group>
          <Button type="submit" loading={change.isPending}>
            {t('identity.profile.changePassword')}
          </Button>
          <Button variant="subtle" onClick={() => reset.mutate()} loading={reset.isPending}>
            {t('identity.profile.resetLink')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
};

const SecondFactorSwitch = ({ enabled, onChanged }: { enabled: boolean; onChanged: () => Promise<unknown> }) => {
  const { t } = useTranslation();
  const [asking, setAsking] = useState(false);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setAsking(false);
    setPassword('');
    setError(null);
  };
  const save = useMutation({
    mutationFn: () => setSecondFactor({ enabled: !enabled, password }),
    onSuccess: async () => {
      close();
      await onChanged();
    },
    onError: (e) => setError(e instanceof ApiError && e.message ? e.message : t('identity.profile.saveFailed')),
  });
  return (
    <Stack gap="xs">
      <Switch
        label={t('identity.profile.secondFactor')}
        description={enabled ? t('identity.profile.secondFactorOn') : t('identity.profile.secondFactorOff')}
        checked={enabled}
        onChange={() => setAsking(true)}
      />
      <Modal opened={asking} onClose={close} title={t('identity.profile.secondFactor')} centered>
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            if (password) save.mutate();
            else setError(t('validation.required'));
          }}
        >
          <Stack>
            <Text size="sm">{t('identity.profile.confirmWithPassword')}</Text>
            <PasswordInput
              label={t('identity.profile.currentPassword')}
              name="secondFactorPassword"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
              data-autofocus
            />
            {error ? (
              <Alert color="red" role="alert">
                {error}
              </Alert>
            ) : null}
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                {t('common.cancel')}
              </Button>
              <Button type="submit" loading={save.isPending}>
                {enabled ? t('identity.profile.disable') : t('identity.profile.enable')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Stack>
  );
};
