import { Alert, Anchor, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { emailChangeRule } from '../../../../../domain/users/user.rules.ts';
import { useZodForm } from '../../../lib/use-zod-form.ts';
import { useMe } from '../api/me.ts';
import { requestEmailChange } from '../api/profile.ts';
import { useProblemRequest } from '../use-problem-request.ts';
import { AuthCard } from './auth-card.tsx';
import { CurrentPasswordField } from './current-password-field.tsx';
import { EmailField, ProblemAndSubmit } from './email-request-fields.tsx';

/**
 * /sprememba-e-naslova: the new address and the current password. The change waits for the link
 * sent to the new address (/sprememba-e-naslova/complete); the old address is told of the request.
 */
export const EmailChangePage = () => {
  const { t } = useTranslation();
  const me = useMe();
  const form = useZodForm(emailChangeRule, { email: '', password: '' });
  const [sentTo, setSentTo] = useState<string | null>(null);
  const request = useProblemRequest(form, requestEmailChange, (input) => setSentTo(input.email));
  return (
    <AuthCard title={t('identity.emailChange.title')} intro={sentTo ? undefined : t('identity.emailChange.intro')}>
      {me.data ? (
        <Text size="sm">
          {t('identity.emailChange.current')}: <strong>{me.data.email}</strong>
        </Text>
      ) : null}
      {sentTo ? (
        <Alert color="teal" role="status">
          {t('identity.emailChange.sent')} ({sentTo})
        </Alert>
      ) : (
        <form noValidate onSubmit={request.onSubmit}>
          <Stack gap="md">
            <EmailField form={form} label={t('identity.emailChange.email')} />
            <CurrentPasswordField form={form} field="password" label={t('identity.emailChange.password')} />
            <ProblemAndSubmit problem={request.problem} loading={request.pending} label={t('identity.emailChange.submit')} />
          </Stack>
        </form>
      )}
      <Anchor component={Link} to="/profil" size="sm">
        {t('identity.emailChange.backToProfile')}
      </Anchor>
    </AuthCard>
  );
};
