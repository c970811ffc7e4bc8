import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ConfirmButton } from '../../../components/confirm-button.tsx';
import { useMe } from '../api/me.ts';
import { changeLifecycleInBulk, exportLoginLinks } from '../api/user-admin.ts';
import { UsersTable } from './users-table.tsx';

/** /admin/users: every user, searched and filtered on the server; selected rows are activated or deactivated together. */
/** `canCreate`: whether "Nov uporabnik" is offered (user create 1005; issue 18: the editor holds none). */
export const AdminUsersPage = ({ canCreate = true }: { canCreate?: boolean }) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const me = useMe();
  const canExport = (me.data?.systemAbilities ?? []).some((a) => a.systemPermission === 1066);
  const links = useMutation({
    mutationFn: () => exportLoginLinks([...selected]),
    onError: () => notifications.show({ color: 'red', message: t('people.bulk.exportFailed') }),
  });
  const bulk = useMutation({
    mutationFn: (active: boolean) => changeLifecycleInBulk([...selected], active),
    onSuccess: async (result) => {
      await queryClient.invalidateQueries({ queryKey: ['users'] });
      setSelected(new Set());
      notifications.show({ color: 'teal', message: t('people.bulk.done', { count: result.changed }) });
      for (const failure of result.failed) notifications.show({ color: 'red', message: failure.message });
    },
    onError: (error) => notifications.show({ color: 'red', message: error.message }),
  });
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={1} size="h2">
          {t('pages.admin.users')}
        </Title>
        {canCreate ? (
          <Button component={Link} to="/admin/users/new">
            {t('pages.admin.userNew')}
          </Button>
        ) : null}
      </Group>
      {selected.size > 0 ? (
        <Paper withBorder radius="md" p="sm" data-testid="bulk-bar">
          <Group justify="space-between">
            <Text>{t('people.bulk.selected', { count: selected.size })}</Text>
            <Group>
              <Button variant="outline" loading={bulk.isPending && bulk.variables === true} onClick={() => bulk.mutate(true)}>
                {t('people.lifecycle.activate')}
              </Button>
              <ConfirmButton
                label={t('people.lifecycle.deactivate')}
                question={t('people.bulk.deactivateQuestion', { count: selected.size })}
                pending={bulk.isPending}
                onConfirm={() => bulk.mutateAsync(false).catch(() => undefined)}
              />
              {canExport ? (
                <Button variant="default" loading={links.isPending} onClick={() => links.mutate()}>
                  {t('people.bulk.exportLinks')}
                </Button>
              ) : null}
              <Button variant="subtle" onClick={() => setSelected(new Set())}>
                {t('people.bulk.clear')}
              </Button>
            </Group>
          </Group>
        </Paper>
      ) : null}
      <UsersTable scope="admin" rowHref={(u) => `/admin/users/${u.id}`} selection={{ selected, onChange: setSelected }} />
    </Stack>
  );
};
