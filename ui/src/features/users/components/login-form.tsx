import { Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { loginFormRule } from '../../../../../domain/users/user.rules.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { useLogin } from '../api/login.ts';

type FieldErrors = Partial<Record<'usernameOrEmail' | 'password', string>>;

/**
 * Username or e-mail and password; field messages inline, a refused login as a toast. With the
 * second factor on, the answer leads to the 2FA screen; a social identity waiting to be bound
 * (`oauth`) goes along with the login (spec §7 oauthEmail, oauthPlatform).
 */
export const LoginForm = ({
  onLoggedIn,
  onSecondFactor,
  oauth,
}: {
  onLoggedIn: () => void;
  onSecondFactor: (auth2FAToken: string) => void;
  oauth?: { email: string; platform: string; token: string } | null;
}) => {
  const { t } = useTranslation();
  const login = useLogin();
  const [values, setValues] = useState({ usernameOrEmail: oauth?.email ?? '', password: '' });
  const [errors, setErrors] = useState<FieldErrors>({});

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = loginFormRule.safeParse(values);
    if (!parsed.success) {
      const next: FieldErrors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as keyof FieldErrors;
        next[field] ??= issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    login.mutate(oauth ? { ...parsed.data, oauthEmail: oauth.email, oauthPlatform: oauth.platform, oauthToken: oauth.token } : parsed.data, {
      onSuccess: (answer) => ('authToken' in answer ? onLoggedIn() : onSecondFactor(answer.secondFactorAuth.authToken)),
      onError: (error) => {
        notifications.show({
          color: 'red',
          message:
            error instanceof ApiError && error.status === 401
              ? t('login.failed')
              : error instanceof ApiError && error.errors[0]?.message
                ? error.errors[0].message
                : t('login.failed'),
        });
      },
    });
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput
          label={t('login.usernameOrEmail')}
          name="usernameOrEmail"
          autoComplete="username"
          value={values.usernameOrEmail}
          onChange={(e) => {
            const usernameOrEmail = e.currentTarget.value;
            setValues((v) => ({ ...v, usernameOrEmail }));
          }}
          error={errors.usernameOrEmail}
          withAsterisk
        />
        <PasswordInput
          label={t('login.password')}
          name="password"
          autoComplete="current-password"
          value={values.password}
          onChange={(e) => {
            const password = e.currentTarget.value;
            setValues((v) => ({ ...v, password }));
          }}
          error={errors.password}
          withAsterisk
        />
        <Button type="submit" loading={login.isPending} fullWidth size="md">
          {t('login.submit')}
        </Button>
      </Stack>
    </form>
  );
};
