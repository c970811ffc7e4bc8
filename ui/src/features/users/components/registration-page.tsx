import { Alert, Anchor, Button, Checkbox, Group, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { CONSENT_TEXTS } from '../../../../../domain/consents/consent.rules.ts';
import { registrationRule } from '../../../../../domain/users/user.rules.ts';
import { useZodForm } from '../../../lib/use-zod-form.ts';
import { type RegistrationInput, register, resendConfirmation } from '../api/identity.ts';
import { AuthCard } from './auth-card.tsx';
import { NewPasswordFields } from './new-password-fields.tsx';
import { ProfessionFields } from './profession-fields.tsx';

const EMPTY = {
  username: '',
  email: '',
  password: '',
  passwordConfirmation: '',
  firstName: '',
  middleName: '',
  lastName: '',
  phone: '',
  professionId: null as number | null,
  otherJob: '',
  licenceNumber: '',
  chamberMembershipNumber: '',
  consents: [] as number[],
};

/**
 * /registracija (spec §2, §3, §5): every user field, the password twice and the required consents
 * 1 to 4 with their texts. The rules are the API's own (registrationRule), so the messages match;
 * the server's codes (422004 e-mail taken, 422014 username taken) land on their fields. After a
 * sign-in with an unknown Google or Facebook account the query carries the provider's e-mail
 * (oauthEmail, prefilled) and the identity to bind (socialToken); an address the provider vouched
 * for needs no confirmation and signs the user in at once.
 */
export const RegistrationPage = ({ onSignedIn }: { onSignedIn: () => Promise<unknown> }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const socialToken = params.get('socialToken');
  const platform = params.get('oauthPlatform');
  const form = useZodForm(registrationRule, { ...EMPTY, email: params.get('oauthEmail') ?? '' } as unknown as RegistrationInput);
  const values = form.values as unknown as typeof EMPTY;
  const [problem, setProblem] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const submit = useMutation({
    mutationFn: (input: RegistrationInput) => register(input),
    onSuccess: async (result, input) => {
      if (result.authToken) {
        await onSignedIn();
        await navigate('/', { replace: true });
        return;
      }
      setSentTo(input.email);
    },
    onError: (error) => setProblem(form.serverErrors(error) ?? t('identity.registration.fixFields')),
  });
  const resend = useMutation({
    mutationFn: () => resendConfirmation(sentTo ?? ''),
    onSuccess: () => notifications.show({ color: 'teal', message: t('identity.registration.resent') }),
    onError: () => notifications.show({ color: 'red', message: t('identity.registration.resendFailed') }),
  });

  if (sentTo) {
    return (
      <AuthCard title={t('identity.registration.done')}>
        <Alert color="teal" role="status">
          {t('identity.registration.checkMail', { email: sentTo })}
        </Alert>
        <Group>
          <Button variant="default" onClick={() => resend.mutate()} loading={resend.isPending}>
            {t('identity.registration.resend')}
          </Button>
          <Anchor component={Link} to="/prijava">
            {t('identity.complete.toLogin')}
          </Anchor>
        </Group>
      </AuthCard>
    );
  }

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    const parsed = form.validate();
    if (!parsed) {
      setProblem(t('identity.registration.fixFields'));
      return;
    }
    submit.mutate({ ...(form.values as RegistrationInput), ...(socialToken ? { socialToken } : {}) });
  };
  const text = (key: keyof typeof EMPTY, label: string, props: { type?: string; autoComplete?: string; required?: boolean } = {}) => (
    <TextInput
      label={label}
      name={key}
      type={props.type ?? 'text'}
      autoComplete={props.autoComplete}
      value={values[key] as string}
      onChange={(e) => form.set(key as never, e.currentTarget.value as never)}
      withAsterisk={props.required ?? true}
      error={form.errors[key]}
    />
  );
  const toggleConsent = (type: number, on: boolean) =>
    form.set('consents' as never, (on ? [...new Set([...values.consents, type])] : values.consents.filter((c) => c !== type)) as never);

  return (
    <AuthCard
      title={t('identity.registration.title')}
      intro={platform ? t('identity.registration.social', { platform: t(`identity.platform.${platform}`) }) : t('identity.registration.intro')}
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          {text('username', t('identity.registration.username'), { autoComplete: 'username' })}
          {text('email', t('identity.registration.email'), { type: 'email', autoComplete: 'email' })}
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <NewPasswordFields
              form={{ values, errors: form.errors, set: (key, value) => form.set(key as never, value as never) }}
              labels={[t('identity.registration.password'), t('identity.registration.passwordConfirmation')]}
            />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            {text('firstName', t('identity.registration.firstName'), { autoComplete: 'given-name' })}
            {text('middleName', t('identity.registration.middleName'), { autoComplete: 'additional-name' })}
            {text('lastName', t('identity.registration.lastName'), { autoComplete: 'family-name' })}
          </SimpleGrid>
          {text('phone', t('identity.registration.phone'), { type: 'tel', autoComplete: 'tel' })}
          <ProfessionFields values={values} errors={form.errors} set={(key, value) => form.set(key as never, value as never)} />
          <Stack gap="xs" role="group" aria-label={t('identity.registration.consents')}>
            <Text fw={500} size="sm">
              {t('identity.registration.consents')}
            </Text>
            {CONSENT_TEXTS.map((c) => (
              <Checkbox
                key={c.type}
                name={`consent-${c.type}`}
                checked={values.consents.includes(c.type)}
                onChange={(e) => toggleConsent(c.type, e.currentTarget.checked)}
                label={
                  <>
                    <Text span fw={500} size="sm">
                      {c.title}
                      {c.required ? ' *' : ''}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {c.text}
                    </Text>
                  </>
                }
              />
            ))}
            {form.errors.consents ? (
              <Text c="red.8" size="sm" role="alert">
                {form.errors.consents}
              </Text>
            ) : null}
          </Stack>
          {problem ? (
            <Alert color="red" role="alert">
              {problem}
            </Alert>
          ) : null}
          <Button type="submit" loading={submit.isPending} size="md">
            {t('identity.registration.submit')}
          </Button>
          <Anchor component={Link} to="/prijava" size="sm">
            {t('identity.registration.haveAccount')}
          </Anchor>
        </Stack>
      </form>
    </AuthCard>
  );
};
