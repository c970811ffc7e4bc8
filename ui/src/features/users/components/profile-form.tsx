import { Alert, Anchor, Button, Group, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { profileRule } from '../../../../../domain/users/user.rules.ts';
import { useZodForm } from '../../../lib/use-zod-form.ts';
import type { CurrentUser } from '../api/me.ts';
import { type ProfileInput, updateProfile } from '../api/profile.ts';
import { ProfessionFields } from './profession-fields.tsx';

const initialOf = (user: CurrentUser) => ({
  firstName: user.firstName,
  middleName: user.middleName ?? '',
  lastName: user.lastName,
  phone: user.phone ?? '',
  professionId: user.profession?.id ?? null,
  otherJob: user.otherJob ?? '',
  licenceNumber: user.licenceNumber ?? '',
  chamberMembershipNumber: user.chamberMembershipNumber ?? '',
  secondaryEmail: user.secondaryEmail ?? '',
});

/**
 * The profile's own fields (spec §3): names, phone, profession with the other job, licence and
 * chamber membership numbers, and a second e-mail. Username and e-mail are shown; the e-mail is
 * changed through its own confirmed flow. Rating is kept but never displayed (spec §3).
 */
export const ProfileForm = ({ user, onSaved }: { user: CurrentUser; onSaved: () => Promise<unknown> }) => {
  const { t } = useTranslation();
  const form = useZodForm(profileRule, initialOf(user) as unknown as ProfileInput);
  const values = form.values as unknown as ReturnType<typeof initialOf>;
  const [problem, setProblem] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: updateProfile,
    onSuccess: async () => {
      notifications.show({ color: 'teal', message: t('identity.profile.saved') });
      await onSaved();
    },
    onError: (error) => setProblem(form.serverErrors(error)),
  });
  const text = (key: keyof ReturnType<typeof initialOf>, label: string, props: { required?: boolean; type?: string; autoComplete?: string } = {}) => (
    <TextInput
      label={label}
      name={key}
      type={props.type ?? 'text'}
      autoComplete={props.autoComplete}
      withAsterisk={props.required ?? false}
      value={values[key] as string}
      onChange={(e) => form.set(key as never, e.currentTarget.value as never)}
      error={form.errors[key]}
    />
  );
  return (
    <Paper withBorder radius="md" p="lg">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setProblem(null);
          const parsed = form.validate();
          if (parsed) save.mutate(form.values);
        }}
      >
        <Stack gap="md">
          <Title order={2} size="h4">
            {t('identity.profile.personal')}
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <div>
              <Text size="sm" fw={500}>
                {t('identity.registration.username')}
              </Text>
              <Text data-testid="profile-username">{user.username}</Text>
            </div>
            <div>
              <Text size="sm" fw={500}>
                {t('identity.profile.email')}
              </Text>
              <Group gap="xs">
                <Text data-testid="profile-email">{user.email}</Text>
                <Anchor component={Link} to="/sprememba-e-naslova" size="sm">
                  {t('identity.profile.changeEmail')}
                </Anchor>
              </Group>
            </div>
          </SimpleGrid>
          {text('secondaryEmail', t('identity.profile.secondaryEmail'), { type: 'email', autoComplete: 'email' })}
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            {text('firstName', t('identity.registration.firstName'), { required: true, autoComplete: 'given-name' })}
            {text('middleName', t('identity.registration.middleName'), { autoComplete: 'additional-name' })}
            {text('lastName', t('identity.registration.lastName'), { required: true, autoComplete: 'family-name' })}
          </SimpleGrid>
          {text('phone', t('identity.registration.phone'), { required: true, type: 'tel', autoComplete: 'tel' })}
          <ProfessionFields values={values} errors={form.errors} set={(key, value) => form.set(key as never, value as never)} />
          {problem ? (
            <Alert color="red" role="alert">
              {problem}
            </Alert>
          ) : null}
          <Group>
            <Button type="submit" loading={save.isPending}>
              {t('identity.profile.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
};
