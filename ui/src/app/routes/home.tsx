import { Badge, Button, Container, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Logo } from '../../components/logo.tsx';
import { logout } from '../../features/auth/api/login.ts';
import { useMe } from '../../features/users/api/me.ts';

export const HomeRoute = () => {
  const { t } = useTranslation();
  const me = useMe();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const signOut = async () => {
    await logout();
    queryClient.clear();
    navigate('/prijava', { replace: true });
  };
  return (
    <Container size="md" py="xl">
      <Stack gap="lg">
        <Group justify="space-between">
          <Logo />
          <Button variant="default" onClick={signOut}>
            {t('user.logout')}
          </Button>
        </Group>
        <Paper withBorder p="lg" radius="md">
          {me.isPending ? (
            <Text>{t('common.loading')}</Text>
          ) : me.data ? (
            <Stack gap="sm">
              <Title order={1} size="h2">
                {t('home.welcome', { name: me.data.fullName })}
              </Title>
              <Text c="dimmed">{t('home.roles')}</Text>
              <Group gap="xs">
                {me.data.roles.map((role) => (
                  <Badge key={`${role.id}-${role.unit_id}`} variant="light">
                    {t(`roles.${role.id}`)}
                    {role.unit_name ? ` · ${role.unit_name}` : ''}
                  </Badge>
                ))}
              </Group>
            </Stack>
          ) : null}
        </Paper>
      </Stack>
    </Container>
  );
};
