import { Alert, Anchor, Center, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Logo } from '../../components/logo.tsx';
import { LoginForm } from '../../features/users/components/login-form.tsx';
import { SocialButtons } from '../../features/users/components/social-buttons.tsx';
import { safeLocalPath } from '../../lib/safe-path.ts';

const PROBLEMS = new Set(['google', 'facebook', 'social']);

/**
 * /prijava: after login the user goes to the `redirect` query value or / (spec §2); with the second
 * factor on, to /prijava/2fa carrying the spec's query (auth2FAToken, oauthEmail, oauthPlatform,
 * messenger_id, redirect). A social sign-in whose e-mail has an account comes back here to bind it.
 */
export const LoginPage = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const target = safeLocalPath(params.get('redirect'));
  const problem = params.get('napaka');
  const oauthToken = params.get('oauthToken');
  const oauth = oauthToken ? { email: params.get('oauthEmail') ?? '', platform: params.get('oauthPlatform') ?? '', token: oauthToken } : null;
  const toSecondFactor = (auth2FAToken: string) => {
    const query = new URLSearchParams({ auth2FAToken, redirect: target });
    for (const key of ['oauthEmail', 'oauthPlatform', 'messenger_id']) {
      const value = params.get(key);
      if (value) query.set(key, value);
    }
    void navigate(`/prijava/2fa?${query.toString()}`);
  };
  return (
    <Center mih="100vh" p="md" bg="var(--mantine-color-gray-0)" component="main">
      <Paper withBorder shadow="sm" radius="md" p="xl" w="100%" maw={440}>
        <Stack gap="lg">
          <Logo />
          <div>
            <Title order={1} size="h2">
              {t('login.title')}
            </Title>
            <Text c="dimmed" size="sm">
              {t('login.subtitle')}
            </Text>
          </div>
          {problem && PROBLEMS.has(problem) ? (
            <Alert color="red" role="alert">
              {t(`login.providerUnavailable.${problem}`)}
            </Alert>
          ) : null}
          {oauth ? <Alert color="brand">{t('login.bindHint', { platform: t(`identity.platform.${oauth.platform}`), email: oauth.email })}</Alert> : null}
          <LoginForm oauth={oauth} onLoggedIn={() => navigate(target, { replace: true })} onSecondFactor={toSecondFactor} />
          <Group justify="space-between">
            <Anchor component={Link} to="/geslo" size="sm">
              {t('login.forgotPassword')}
            </Anchor>
            <Anchor component={Link} to="/registracija" size="sm">
              {t('login.register')}
            </Anchor>
          </Group>
          {oauth ? null : <SocialButtons redirect={target} />}
        </Stack>
      </Paper>
    </Center>
  );
};
