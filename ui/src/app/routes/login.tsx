import { Center, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { Logo } from '../../components/logo.tsx';
import { LoginForm } from '../../features/auth/components/login-form.tsx';
import { safeLocalPath } from '../../lib/safe-path.ts';

/** /prijava: after login the user goes to the `redirect` query value or / (spec §2). */
export const LoginPage = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const redirect = params.get('redirect');
  const target = safeLocalPath(redirect);
  return (
    <Center mih="100vh" p="md" bg="var(--mantine-color-gray-0)" component="main">
      <Paper withBorder shadow="sm" radius="md" p="xl" w="100%" maw={420}>
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
          <LoginForm onLoggedIn={() => navigate(target, { replace: true })} />
        </Stack>
      </Paper>
    </Center>
  );
};
