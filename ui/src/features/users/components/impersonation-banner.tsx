import { Button, Container, Group, Paper, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { leaveImpersonation } from '../api/login.ts';
import type { CurrentUser } from '../api/me.ts';

/**
 * During "log in as" (issue 13): who is acting for whom, and the way back to the admin's own
 * account. `onLeft` gets whether the admin's session came back (false: sign in again).
 */
export const ImpersonationBanner = ({ user, onLeft }: { user: CurrentUser; onLeft: (restored: boolean) => Promise<unknown> }) => {
  const { t } = useTranslation();
  const leave = useMutation({ mutationFn: leaveImpersonation, onSuccess: onLeft });
  if (!user.realUser) return null;
  return (
    <Paper bg="yellow.1" radius={0} py={6} data-testid="impersonation-banner" role="status">
      <Container size="xl">
        <Group justify="space-between" gap="sm">
          <Text size="sm" fw={500}>
            {t('identity.impersonation.banner', { admin: user.realUser.fullName, name: user.fullName })}
          </Text>
          <Button size="xs" variant="white" color="dark" onClick={() => leave.mutate()} loading={leave.isPending}>
            {t('identity.impersonation.back')}
          </Button>
        </Group>
      </Container>
    </Paper>
  );
};
