import { Alert, Anchor, Button, Center, Loader, Stack, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { emailRequestRule } from '../../../../../domain/users/user.rules.ts';
import { useLinkOnce } from '../../../lib/use-link-once.ts';
import { useZodForm } from '../../../lib/use-zod-form.ts';
import { confirmRegistration, resendConfirmation } from '../api/identity.ts';
import { AuthCard } from './auth-card.tsx';

/**
 * /registracija/complete: the link from the confirmation mail (`link` query) confirms the address
 * and signs the user in. A used or expired link says so (spec §8) and offers a new one.
 */
export const RegistrationCompletePage = ({ onSignedIn }: { onSignedIn: () => Promise<unknown> }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const confirm = useCallback(
    async (token: string) => {
      await confirmRegistration(token);
      await onSignedIn();
    },
    [onSignedIn],
  );
  const state = useLinkOnce(params.get('link'), confirm);
  return (
    <AuthCard title={t('identity.complete.title')}>
      {state.status === 'working' ? (
        <Center py="md">
          <Loader role="status" aria-label={t('identity.complete.working')} />
        </Center>
      ) : state.status === 'done' ? (
        <Stack>
          <Alert color="teal" role="status">
            {t('identity.complete.done')}
          </Alert>
          <Button onClick={() => navigate('/', { replace: true })}>{t('identity.complete.continue')}</Button>
        </Stack>
      ) : (
        <Stack>
          <Alert color="red" role="alert">
            {t('identity.complete.failed')}
          </Alert>
          <ResendConfirmation />
          <Anchor component={Link} to="/prijava" size="sm">
            {t('identity.complete.toLogin')}
          </Anchor>
        </Stack>
      )}
    </AuthCard>
  );
};

/** A new confirmation link for an address still waiting; the answer never says whether it has an account. */
const ResendConfirmation = () => {
  const { t } = useTranslation();
  const form = useZodForm(emailRequestRule, { email: '' });
  const [sent, setSent] = useState(false);
  const resend = useMutation({
    mutationFn: (email: string) => resendConfirmation(email),
    onSuccess: () => setSent(true),
    onError: form.notifyServerErrors,
  });
  if (sent) return <Alert color="teal">{t('identity.registration.resent')}</Alert>;
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const parsed = form.validate();
        if (parsed) resend.mutate(parsed.email);
      }}
    >
      <Stack gap="sm">
        <TextInput
          label={t('identity.registration.email')}
          name="email"
          type="email"
          value={form.values.email}
          onChange={(e) => form.set('email', e.currentTarget.value)}
          error={form.errors.email}
        />
        <Button type="submit" variant="default" loading={resend.isPending}>
          {t('identity.registration.resend')}
        </Button>
      </Stack>
    </form>
  );
};
