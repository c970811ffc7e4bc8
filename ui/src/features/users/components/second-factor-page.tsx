import { Alert, Anchor, Button, Checkbox, Group, PinInput, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { safeLocalPath } from '../../../lib/safe-path.ts';
import { answerSecondFactor, resendSecondFactor } from '../api/identity.ts';
import { AuthCard } from './auth-card.tsx';

/**
 * /prijava/2fa (spec §2, §4): the 6-digit code from the mail, "remember me" for this device, and
 * resend. The query carries auth2FAToken, oauthEmail, oauthPlatform, messenger_id and redirect.
 * A refused code: "Potrditev ni uspela. Poskusite ponovno." (spec §8).
 */
export const SecondFactorPage = ({ onSignedIn }: { onSignedIn: () => Promise<unknown> }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [token, setToken] = useState(params.get('auth2FAToken') ?? '');
  const [code, setCode] = useState('');
  const [remember, setRemember] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const target = safeLocalPath(params.get('redirect'));
  const answer = useMutation({
    mutationFn: () => answerSecondFactor({ auth2FAToken: token, code, rememberMe: remember }),
    onSuccess: async () => {
      await onSignedIn();
      await navigate(target, { replace: true });
    },
    onError: () => {
      setError(t('identity.secondFactor.failed'));
      setCode('');
    },
  });
  const resend = useMutation({
    mutationFn: () => resendSecondFactor(token),
    onSuccess: (result) => {
      setToken(result.auth2FAToken);
      setError(null);
      notifications.show({ color: 'teal', message: t('identity.secondFactor.resent') });
    },
    onError: () => notifications.show({ color: 'red', message: t('identity.secondFactor.resendFailed') }),
  });
  if (!token) {
    return (
      <AuthCard title={t('identity.secondFactor.title')}>
        <Alert color="red">{t('identity.secondFactor.missing')}</Alert>
        <Anchor component={Link} to="/prijava">
          {t('identity.complete.toLogin')}
        </Anchor>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t('identity.secondFactor.title')} intro={t('identity.secondFactor.intro')}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (/^\d{6}$/.test(code)) answer.mutate();
          else setError(t('identity.secondFactor.failed'));
        }}
        noValidate
      >
        <Stack gap="md">
          <div>
            <Text component="label" htmlFor="code" size="sm" fw={500}>
              {t('identity.secondFactor.code')}
            </Text>
            <PinInput id="code" length={6} type="number" oneTimeCode value={code} onChange={setCode} ariaLabel={t('identity.secondFactor.code')} mt={6} />
          </div>
          {error ? (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          ) : null}
          <Checkbox label={t('identity.secondFactor.remember')} checked={remember} onChange={(e) => setRemember(e.currentTarget.checked)} />
          <Group>
            <Button type="submit" loading={answer.isPending}>
              {t('identity.secondFactor.submit')}
            </Button>
            <Button variant="subtle" onClick={() => resend.mutate()} loading={resend.isPending}>
              {t('identity.secondFactor.resend')}
            </Button>
          </Group>
        </Stack>
      </form>
    </AuthCard>
  );
};
