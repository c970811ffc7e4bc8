import { Alert, Anchor, Button, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { passwordResetRule } from '../../../../../domain/users/user.rules.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { useZodForm } from '../../../lib/use-zod-form.ts';
import { completePasswordReset } from '../api/identity.ts';
import { AuthCard } from './auth-card.tsx';
import { NewPasswordFields } from './new-password-fields.tsx';

/**
 * /geslo/complete (a reset link) and /nov-uporabnik (a user an admin or an import created, setting
 * the first password): the same form with the link's token. The new password ends every other
 * session and signs this one in; a used or expired link gets the §8 message and a way to ask again.
 */
export const PasswordSetPage = ({ mode, onSignedIn }: { mode: 'reset' | 'new-user'; onSignedIn: () => Promise<unknown> }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('link') ?? '';
  const form = useZodForm(passwordResetRule, { token, password: '', passwordConfirmation: '' });
  const [expired, setExpired] = useState(!token);
  const save = useMutation({
    mutationFn: completePasswordReset,
    onSuccess: async () => {
      notifications.show({ color: 'teal', message: t('identity.reset.saved') });
      await onSignedIn();
      await navigate('/', { replace: true });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.errors.some((e) => e.field === 'token')) setExpired(true);
      else {
        const message = form.serverErrors(error);
        if (message) notifications.show({ color: 'red', message });
      }
    },
  });
  const title = mode === 'new-user' ? t('identity.reset.newUserTitle') : t('identity.reset.completeTitle');
  if (expired) {
    return (
      <AuthCard title={title}>
        <Alert color="red" role="alert">
          {t('identity.reset.noLink')}
        </Alert>
        <Anchor component={Link} to="/geslo">
          {t('identity.reset.again')}
        </Anchor>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={title} intro={mode === 'new-user' ? t('identity.reset.newUserIntro') : undefined}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const parsed = form.validate();
          if (parsed) save.mutate(parsed);
        }}
      >
        <Stack gap="md">
          <NewPasswordFields form={form} labels={[t('identity.reset.password'), t('identity.reset.passwordConfirmation')]} />
          <Button type="submit" loading={save.isPending}>
            {t('identity.reset.save')}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
};
