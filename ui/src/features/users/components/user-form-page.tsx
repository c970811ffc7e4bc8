import { Anchor, Button, Center, Checkbox, Grid, Group, Loader, Paper, Select, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { createUserRule } from '../../../../../domain/users/user-admin.rules.ts';
import { useZodForm } from '../../../lib/use-zod-form.ts';
import { useMe } from '../api/me.ts';
import { professionsQuery } from '../api/professions.ts';
import { createUser, getUser, type UserDetail, type UserInput, updateUser } from '../api/user-admin.ts';
import { hasSystemPermission } from '../roles.ts';
import { RoleEditor, type RoleRow } from './role-editor.tsx';
import { UserAside } from './user-aside.tsx';
import { UserStatusBadge } from './users-table.tsx';

const EMPTY: UserInput = {
  username: '',
  email: '',
  secondaryEmail: '',
  firstName: '',
  middleName: '',
  lastName: '',
  phone: '',
  professionId: null,
  otherJob: '',
  licenceNumber: '',
  chamberMembershipNumber: '',
  notes: '',
  roles: [],
  sendWelcome: true,
};

const toInput = (u: UserDetail): UserInput => ({
  username: u.username,
  email: u.email,
  secondaryEmail: u.secondaryEmail ?? '',
  firstName: u.firstName,
  middleName: u.middleName ?? '',
  lastName: u.lastName,
  phone: u.phone ?? '',
  professionId: u.professionId,
  otherJob: u.otherJob ?? '',
  licenceNumber: u.licenceNumber ?? '',
  chamberMembershipNumber: u.chamberMembershipNumber ?? '',
  notes: u.notes ?? '',
  roles: u.roles.map((r) => ({ roleId: r.roleId, companyId: r.companyId, unitId: r.unitId })),
  sendWelcome: false,
});

/**
 * /admin/users/new and /admin/users/{id}: every spec §3 field an admin edits, with the §5 rules
 * and §8 codes the API answers; role assignments; beside it the account's state and actions.
 */
export const UserFormPage = ({ id }: { id: number | null }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const user = useQuery({ queryKey: ['users', 'admin', id], queryFn: () => getUser('admin', id as number), enabled: id !== null });
  const professions = useQuery(professionsQuery);
  const me = useMe();
  const form = useZodForm(createUserRule, EMPTY);
  const loaded = user.data;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the form is filled once per loaded user.
  useEffect(() => {
    if (loaded) form.reset(toInput(loaded));
  }, [loaded]);

  const save = useMutation({
    mutationFn: (input: UserInput) => {
      if (id === null) return createUser(input);
      const { sendWelcome: _welcome, ...fields } = input;
      return updateUser(id, fields);
    },
    onSuccess: async (result) => {
      await queryClient.invalidateQueries({ queryKey: ['users'] });
      notifications.show({ color: 'teal', message: t(id === null ? 'form.created' : 'form.saved') });
      if (id === null) navigate(`/admin/users/${result.id}`);
    },
    onError: form.notifyServerErrors,
  });

  if (id !== null && user.isPending)
    return (
      <Center py="xl">
        <Loader role="status" aria-label={t('common.loading')} />
      </Center>
    );
  if (id !== null && !user.data) return <Text>{t('form.notFound')}</Text>;

  const v = form.values;
  const e = form.errors;
  // An editor reads users and changes none (1005 creates, 1006 changes; decision 0003): a read-only page.
  const canChange = me.data ? hasSystemPermission(me.data, id === null ? 1005 : 1006) : false;
  const text = (key: keyof UserInput, label: string, options: { required?: boolean; type?: string; autoComplete?: string } = {}) => (
    <TextInput
      label={label}
      type={options.type ?? 'text'}
      autoComplete={options.autoComplete ?? 'off'}
      value={(v[key] as string | null | undefined) ?? ''}
      onChange={(x) => form.set(key, x.currentTarget.value as never)}
      error={e[key as string]}
      withAsterisk={options.required ?? false}
    />
  );
  const profession = (professions.data ?? []).find((p) => p.id === v.professionId);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (form.validate()) save.mutate(v);
  };

  return (
    <Stack gap="md">
      <Anchor component={Link} to="/admin/users" size="sm">
        ← {t('form.back')}
      </Anchor>
      <Group gap="sm">
        <Title order={1} size="h2">
          {id === null ? t('pages.admin.userNew') : (user.data?.fullName ?? '')}
        </Title>
        {user.data ? <UserStatusBadge status={user.data.status} /> : null}
      </Group>
      <Paper withBorder radius="md" p="lg">
        <form onSubmit={submit} noValidate>
          {canChange ? null : (
            <Text size="sm" c="dimmed" mb="md" data-testid="user-read-only">
              {t('people.readOnly')}
            </Text>
          )}
          <fieldset disabled={!canChange} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
            <Stack gap="md">
              <Grid>
                <Grid.Col span={{ base: 12, md: 4 }}>{text('username', t('people.fields.username'), { required: true })}</Grid.Col>
                <Grid.Col span={{ base: 12, md: 4 }}>{text('email', t('people.fields.email'), { required: true, type: 'email' })}</Grid.Col>
                <Grid.Col span={{ base: 12, md: 4 }}>{text('secondaryEmail', t('people.fields.secondaryEmail'), { type: 'email' })}</Grid.Col>
                <Grid.Col span={{ base: 12, md: 4 }}>{text('firstName', t('people.fields.firstName'), { required: true })}</Grid.Col>
                <Grid.Col span={{ base: 12, md: 4 }}>{text('middleName', t('people.fields.middleName'))}</Grid.Col>
                <Grid.Col span={{ base: 12, md: 4 }}>{text('lastName', t('people.fields.lastName'), { required: true })}</Grid.Col>
                <Grid.Col span={{ base: 12, md: 4 }}>{text('phone', t('people.fields.phone'), { required: true, type: 'tel' })}</Grid.Col>
                <Grid.Col span={{ base: 12, md: 4 }}>
                  <Select
                    label={t('people.fields.profession')}
                    searchable
                    clearable
                    data={(professions.data ?? []).map((p) => ({ value: String(p.id), label: p.name }))}
                    value={v.professionId === null || v.professionId === undefined ? null : String(v.professionId)}
                    onChange={(x) => form.set('professionId', x ? Number(x) : null)}
                    error={e.professionId}
                  />
                </Grid.Col>
                <Grid.Col span={{ base: 12, md: 4 }}>{text('otherJob', t('people.fields.otherJob'))}</Grid.Col>
                <Grid.Col span={{ base: 12, md: 4 }}>
                  <TextInput
                    label={t('people.fields.licenceNumber')}
                    value={v.licenceNumber ?? ''}
                    onChange={(x) => form.set('licenceNumber', x.currentTarget.value)}
                    error={e.licenceNumber}
                    withAsterisk={profession?.needsLicenceNumber ?? false}
                  />
                </Grid.Col>
                <Grid.Col span={{ base: 12, md: 4 }}>
                  <TextInput
                    label={t('people.fields.chamberMembershipNumber')}
                    value={v.chamberMembershipNumber ?? ''}
                    onChange={(x) => form.set('chamberMembershipNumber', x.currentTarget.value)}
                    error={e.chamberMembershipNumber}
                    withAsterisk={profession?.needsChamberNumber ?? false}
                  />
                </Grid.Col>
                {user.data ? (
                  <Grid.Col span={{ base: 12, md: 4 }}>
                    <TextInput
                      label={t('people.fields.onesignal')}
                      value={t(user.data.onesignalEnabled === 1 ? 'people.push.on' : 'people.push.off')}
                      readOnly
                    />
                  </Grid.Col>
                ) : null}
                <Grid.Col span={12}>
                  <Textarea
                    label={t('people.fields.notes')}
                    description={t('people.fields.notesHint')}
                    autosize
                    minRows={2}
                    value={v.notes ?? ''}
                    onChange={(x) => form.set('notes', x.currentTarget.value)}
                    error={e.notes}
                  />
                </Grid.Col>
              </Grid>
              <RoleEditor value={(v.roles ?? []) as RoleRow[]} onChange={(roles) => form.set('roles', roles)} errors={e} />
              {id === null ? (
                <Checkbox label={t('people.sendWelcome')} checked={v.sendWelcome ?? true} onChange={(x) => form.set('sendWelcome', x.currentTarget.checked)} />
              ) : null}
              {canChange ? (
                <Group>
                  <Button type="submit" loading={save.isPending}>
                    {t(id === null ? 'form.create' : 'form.save')}
                  </Button>
                </Group>
              ) : null}
            </Stack>
          </fieldset>
        </form>
      </Paper>
      {user.data ? <UserAside user={user.data} /> : null}
    </Stack>
  );
};
