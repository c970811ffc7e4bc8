import { Alert, Anchor, Stack } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { emailRequestRule } from '../../../../../domain/users/user.rules.ts';
import { useZodForm } from '../../../lib/use-zod-form.ts';
import { requestPasswordReset } from '../api/identity.ts';
import { useProblemRequest } from '../use-problem-request.ts';
import { AuthCard } from './auth-card.tsx';
import { EmailField, ProblemAndSubmit } from './email-request-fields.tsx';

/**
 * /geslo: asks for a link to set a new password. The answer is the same whether or not the address
 * has an account, so the page cannot be used to find out who is registered.
 */
export const PasswordResetPage = () => {
  const { t } = useTranslation();
  const form = useZodForm(emailRequestRule, { email: '' });
  const [sent, setSent] = useState(false);
  const request = useProblemRequest(
    form,
    (parsed) => requestPasswordReset(parsed.email),
    () => setSent(true),
  );
  return (
    <AuthCard title={t('identity.reset.title')} intro={sent ? undefined : t('identity.reset.intro')}>
      {sent ? (
        <Alert color="teal" role="status">
          {t('identity.reset.sent')}
        </Alert>
      ) : (
        <form noValidate onSubmit={request.onSubmit}>
          <Stack gap="md">
            <EmailField form={form} label={t('identity.reset.email')} />
            <ProblemAndSubmit problem={request.problem} loading={request.pending} label={t('identity.reset.submit')} />
          </Stack>
        </form>
      )}
      <Anchor component={Link} to="/prijava" size="sm">
        {t('identity.complete.toLogin')}
      </Anchor>
    </AuthCard>
  );
};
