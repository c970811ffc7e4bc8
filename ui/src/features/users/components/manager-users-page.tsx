import { Alert, Button, Group, Modal, SegmentedControl, Select, Stack, Text, Textarea, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { changeRequestRule } from '../../../../../domain/users/user-admin.rules.ts';
import { useZodForm } from '../../../lib/use-zod-form.ts';
import { useMe } from '../api/me.ts';
import { fileChangeRequest, listMyChangeRequests, type UserListItem, unitsQuery } from '../api/user-admin.ts';
import { ChangeRequestsTable } from './change-requests.tsx';
import { UsersTable } from './users-table.tsx';

const MANAGING_ROLES = new Set([2, 5]);

/** A manager's request about one user (spec §4: change of unit, deletion or other; §5: a description is required). */
const ChangeRequestDialog = ({ user, onClose }: { user: UserListItem; onClose: () => void }) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const me = useMe();
  const units = useQuery(unitsQuery);
  const form = useZodForm(changeRequestRule, { kind: 'other', description: '', unitId: null });
  // Only units the manager manages: a request cannot move someone out of their reach.
  const managed = (me.data?.userRoles ?? []).filter((r) => MANAGING_ROLES.has(r.role_id));
  const unitOptions = (units.data ?? [])
    .filter((u) => managed.some((r) => r.unit_id === u.id || (r.unit_id === 0 && r.company_id === u.company_id)))
    .map((u) => ({ value: String(u.id), label: u.company_name ? `${u.name} (${u.company_name})` : u.name }));
  const file = useMutation({
    mutationFn: () => fileChangeRequest(user.id, form.values),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['users'] });
      notifications.show({ color: 'teal', message: t('people.requests.filed') });
      onClose();
    },
    onError: form.notifyServerErrors,
  });
  const v = form.values;
  return (
    <Modal opened onClose={onClose} title={t('people.requests.newFor', { name: user.fullName })} centered size="lg">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (form.validate()) file.mutate();
        }}
      >
        <Stack>
          <SegmentedControl
            aria-label={t('people.requests.kind')}
            value={v.kind}
            onChange={(x) => form.set('kind', x as 'unit' | 'deletion' | 'other')}
            data={(['unit', 'deletion', 'other'] as const).map((k) => ({ value: k, label: t(`people.requests.kinds.${k}`) }))}
          />
          {v.kind === 'unit' ? (
            <Select
              label={t('people.requests.newUnit')}
              withAsterisk
              searchable
              data={unitOptions}
              value={v.unitId === null || v.unitId === undefined ? null : String(v.unitId)}
              onChange={(x) => form.set('unitId', x ? Number(x) : null)}
              error={form.errors.unitId}
            />
          ) : null}
          <Textarea
            label={t('people.requests.description')}
            withAsterisk
            autosize
            minRows={3}
            value={v.description}
            onChange={(x) => form.set('description', x.currentTarget.value)}
            error={form.errors.description}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={file.isPending}>
              {t('people.requests.send')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
};

/**
 * /manager/users: a manager or director who is not admin sees the users of the units they manage
 * (unit 0 = the whole company), read-only, and asks the admins for changes; below, their requests
 * with the outcome. spec §8 "user manages no units or companies" when they manage none.
 */
export const ManagerUsersPage = () => {
  const { t } = useTranslation();
  const me = useMe();
  const [requesting, setRequesting] = useState<UserListItem | null>(null);
  const mine = useQuery({ queryKey: ['users', 'manager', 'requests'], queryFn: listMyChangeRequests, enabled: me.data !== undefined });
  const manages = (me.data?.userRoles ?? []).some((r) => MANAGING_ROLES.has(r.role_id) && r.company_id !== null);
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('pages.manager.users')}
      </Title>
      {me.data && !manages ? (
        <Alert color="orange">{t('people.managesNothing')}</Alert>
      ) : (
        <>
          <Text c="dimmed" size="sm">
            {t('people.managerIntro')}
          </Text>
          <UsersTable
            scope="manager"
            rowAction={(user) => (
              <Button size="xs" variant="light" onClick={() => setRequesting(user)}>
                {t('people.requests.new')}
              </Button>
            )}
          />
          <Title order={2} size="h4">
            {t('people.requests.mine')}
          </Title>
          <ChangeRequestsTable items={mine.data?.items ?? []} resolvable={false} showUser />
        </>
      )}
      {requesting ? <ChangeRequestDialog user={requesting} onClose={() => setRequesting(null)} /> : null}
    </Stack>
  );
};
