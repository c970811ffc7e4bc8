import { Alert, Button, Group, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { emailRequestRule } from '../../../../../domain/users/user.rules.ts';
import { useZodForm } from '../../../lib/use-zod-form.ts';
import { AuthCard } from './auth-card.tsx';
import { EmailField } from './email-request-fields.tsx';

/**
 * /registracija/bind-email: a social sign-in whose provider gave no usable e-mail. The person gives
 * one, then either registers with it (the identity is bound on registration, the address confirmed
 * by mail) or signs in with the password of an existing account, which binds the identity there.
 */
export const BindEmailPage = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const platform = params.get('oauthPlatform') ?? '';
  const socialToken = params.get('socialToken');
  const form = useZodForm(emailRequestRule, { email: '' });
  if (!socialToken || !['google', 'facebook'].includes(platform)) {
    return (
      <AuthCard title={t('identity.bindEmail.title')}>
        <Alert color="red" role="alert">
          {t('login.providerUnavailable.social')}
        </Alert>
        <Button variant="default" onClick={() => navigate('/prijava')}>
          {t('identity.complete.toLogin')}
        </Button>
      </AuthCard>
    );
  }
  const go = (to: 'registracija' | 'prijava') => {
    const parsed = form.validate();
    if (!parsed) return;
    const query = new URLSearchParams({ oauthEmail: parsed.email.toLowerCase(), oauthPlatform: platform });
    query.set(to === 'registracija' ? 'socialToken' : 'oauthToken', socialToken);
    void navigate(`/${to}?${query.toString()}`);
  };
  return (
    <AuthCard title={t('identity.bindEmail.title')} intro={t('identity.bindEmail.intro', { platform: t(`identity.platform.${platform}`) })}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          go('registracija');
        }}
      >
        <Stack gap="md">
          <EmailField form={form} label={t('identity.bindEmail.email')} />
          <Group>
            <Button type="submit">{t('identity.bindEmail.register')}</Button>
            <Button variant="default" onClick={() => go('prijava')}>
              {t('identity.bindEmail.login')}
            </Button>
          </Group>
        </Stack>
      </form>
    </AuthCard>
  );
};
