import { Anchor, Badge, Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ConfirmButton } from '../../../components/confirm-button.tsx';
import { TableRegion } from '../../../components/table-region.tsx';
import { formatDateTime } from '../../../lib/i18n.ts';
import { loginAsToken } from '../api/exchange-token.ts';
import { useMe } from '../api/me.ts';
import { changeLifecycle, erasePersonalData, getConsentStanding, type LifecycleAction, sendWelcome, type UserDetail } from '../api/user-admin.ts';
import { hasSystemPermission } from '../roles.ts';
import { ChangeRequestsTable } from './change-requests.tsx';
import { PersonalDataExport } from './personal-data-export.tsx';

/** Which spec §4 transitions a status offers; the destructive ones ask first. */
const ACTIONS: Record<UserDetail['status'], LifecycleAction[]> = {
  active: ['deactivate', 'delete'],
  inactive: ['activate', 'delete'],
  deleted: ['reactivate'],
};
const DESTRUCTIVE = new Set<LifecycleAction>(['deactivate', 'delete']);
/** The system permission each account action needs (application/users/user-admin.routes.ts). */
const LIFECYCLE_PERMISSION: Record<LifecycleAction, number> = { activate: 1006, deactivate: 1006, delete: 1007, reactivate: 1007 };
/** Consent histories (decision 0013). */
const CONSENT_AUDIT = 1070;

/** The account beside the admin's form: its state and actions, abilities, social identities, consents, courses and change requests. */
export const UserAside = ({ user }: { user: UserDetail }) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const me = useMe();
  // What the caller may do here (an editor reads users and changes none, decision 0003): actions they
  // would only be refused are not offered.
  const may = (permission: number) => (me.data ? hasSystemPermission(me.data, permission) : false);
  const consents = useQuery({
    queryKey: ['users', 'admin', user.id, 'consents'],
    queryFn: () => getConsentStanding(user.id),
    enabled: may(CONSENT_AUDIT),
  });
  const lifecycle = useMutation({
    mutationFn: (action: LifecycleAction) => changeLifecycle(user.id, action),
    onSuccess: async (_result, action) => {
      await queryClient.invalidateQueries({ queryKey: ['users'] });
      notifications.show({ color: 'teal', message: t(`people.lifecycle.done.${action}`) });
    },
    onError: (error) => notifications.show({ color: 'red', message: error.message }),
  });
  const welcome = useMutation({
    mutationFn: () => sendWelcome(user.id),
    onSuccess: () => notifications.show({ color: 'teal', message: t('people.welcomeSent') }),
    onError: (error) => notifications.show({ color: 'red', message: error.message || t('people.welcomeFailed') }),
  });
  const loginAs = useMutation({
    mutationFn: () => loginAsToken(user.id),
    // The login-as route keeps the admin's own session to come back to (the impersonation banner).
    onSuccess: (token) => window.location.assign(`/login-as?id=${encodeURIComponent(token)}`),
    onError: () => notifications.show({ color: 'red', message: t('people.loginAsFailed') }),
  });
  const erase = useMutation({
    mutationFn: () => erasePersonalData(user.id),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['users'] });
      notifications.show({ color: 'teal', message: t('people.erase.done') });
    },
    onError: (error) => notifications.show({ color: 'red', message: error.message }),
  });
  const self = me.data?.id === user.id;
  const actions = user.erased ? [] : ACTIONS[user.status].filter((action) => may(LIFECYCLE_PERMISSION[action]));

  return (
    <Stack gap="md">
      <Paper withBorder radius="md" p="lg">
        <Title order={2} size="h4" mb="sm">
          {t('people.account')}
        </Title>
        <Stack gap={4} mb="md">
          <Text size="sm">
            {t('people.fields.registeredAt')}: {formatDateTime(user.registeredAt)} · {t(`people.origin.${user.origin}`, { defaultValue: user.origin })}
          </Text>
          <Text size="sm">
            {t('people.fields.lastLogin')}: {user.lastLoginAt ? formatDateTime(user.lastLoginAt) : '–'}
          </Text>
          <Text size="sm">
            {t('people.fields.secondFactor')}: {t(user.secondFactorEnabled ? 'people.yes' : 'people.no')} · {t('people.fields.emailConfirmed')}:{' '}
            {t(user.emailConfirmed ? 'people.yes' : 'people.no')}
          </Text>
          {user.erased ? (
            <Text size="sm" c="red.9">
              {t('people.erase.erased')}
            </Text>
          ) : null}
          {user.deletionRequestedAt ? (
            <Text size="sm" c="red.9">
              {t('people.deletionRequested', { when: formatDateTime(user.deletionRequestedAt) })}
              {user.deletionReason ? ` ${user.deletionReason}` : ''}
            </Text>
          ) : null}
        </Stack>
        <Group>
          {actions.map((action) =>
            DESTRUCTIVE.has(action) ? (
              self ? null : (
                <ConfirmButton
                  key={action}
                  label={t(`people.lifecycle.${action}`)}
                  question={t(`people.lifecycle.question.${action}`, { name: user.fullName })}
                  pending={lifecycle.isPending}
                  onConfirm={() => lifecycle.mutateAsync(action).catch(() => undefined)}
                />
              )
            ) : (
              <Button key={action} variant="outline" loading={lifecycle.isPending} onClick={() => lifecycle.mutate(action)}>
                {t(`people.lifecycle.${action}`)}
              </Button>
            ),
          )}
          {user.status === 'active' && may(1005) ? (
            <Button variant="default" loading={welcome.isPending} onClick={() => welcome.mutate()}>
              {t('people.sendWelcomeNow')}
            </Button>
          ) : null}
          {user.erased || self || !may(1007) ? null : (
            <ConfirmButton
              label={t('people.erase.action')}
              question={t('people.erase.question', { name: user.fullName })}
              pending={erase.isPending}
              onConfirm={() => erase.mutateAsync().catch(() => undefined)}
            />
          )}
          {user.status === 'active' && !self && may(1008) && !user.roles.some((r) => r.roleId === 1) ? (
            <Button variant="default" loading={loginAs.isPending} onClick={() => loginAs.mutate()}>
              {t('people.loginAs')}
            </Button>
          ) : null}
        </Group>
      </Paper>

      <Paper withBorder radius="md" p="lg">
        <Title order={2} size="h4" mb="sm">
          {t('people.requests.title')}
        </Title>
        <ChangeRequestsTable items={user.changeRequests} resolvable showUser={false} />
      </Paper>

      <Paper withBorder radius="md" p="lg">
        <Title order={2} size="h4" mb="sm">
          {t('people.abilities')}
        </Title>
        {user.systemAbilities.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('people.noAbilities')}
          </Text>
        ) : (
          <Group gap={4}>
            {user.systemAbilities.map((a) => (
              <Badge key={a.systemPermission} variant="outline" color="gray.7" tt="none">
                {a.systemPermission} · {t(`systemPermissions.${a.systemPermission}`, { defaultValue: '' })}
              </Badge>
            ))}
          </Group>
        )}
        <Text size="sm" mt="sm">
          {t('people.social')}:{' '}
          {user.socialIdentities.length === 0 ? '–' : user.socialIdentities.map((s) => `${s.platform}${s.email ? ` (${s.email})` : ''}`).join(', ')}
        </Text>
      </Paper>

      {may(CONSENT_AUDIT) ? (
        <Paper withBorder radius="md" p="lg">
          <Group justify="space-between" mb="sm">
            <Title order={2} size="h4">
              {t('people.consents')}
            </Title>
            <Anchor component={Link} to={`/revizija/privolitve?user=${user.id}`} size="sm">
              {t('people.consentHistory')}
            </Anchor>
          </Group>
          {consents.data ? (
            <Stack gap={2}>
              {consents.data.map((c) => (
                <Text key={c.type} size="sm">
                  {c.title}: {c.given ? t('people.consentGiven', { when: c.at ? formatDateTime(c.at) : '' }) : t('people.consentMissing')}
                </Text>
              ))}
            </Stack>
          ) : (
            <Text size="sm" c="dimmed">
              {consents.isError ? consents.error.message : t('common.loading')}
            </Text>
          )}
        </Paper>
      ) : null}

      <PersonalDataExport userId={user.id} />

      <Paper withBorder radius="md" p="lg">
        <Title order={2} size="h4" mb="sm">
          {t('people.courses')}
        </Title>
        {user.courses.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('people.noCourses')}
          </Text>
        ) : (
          <TableRegion label={t('people.courses')}>
            <Table striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('people.course.title')}</Table.Th>
                  <Table.Th>{t('people.course.status')}</Table.Th>
                  <Table.Th>{t('people.course.started')}</Table.Th>
                  <Table.Th>{t('people.course.completed')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {user.courses.map((c) => (
                  <Table.Tr key={c.courseId}>
                    <Table.Td>{c.title}</Table.Td>
                    <Table.Td>{t(`people.course.statuses.${c.status}`, { defaultValue: c.status })}</Table.Td>
                    <Table.Td>{formatDateTime(c.startedAt)}</Table.Td>
                    <Table.Td>{c.completedAt ? `${formatDateTime(c.completedAt)}${c.creditPoints !== null ? ` · ${c.creditPoints} KT` : ''}` : '–'}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </TableRegion>
        )}
      </Paper>
    </Stack>
  );
};
