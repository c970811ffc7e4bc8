import { Alert, Anchor, Center, Loader, Stack } from '@mantine/core';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useLinkOnce } from '../../../lib/use-link-once.ts';
import { confirmEmailChange } from '../api/identity.ts';
import { AuthCard } from './auth-card.tsx';

/** /sprememba-e-naslova/complete: the link sent to the new address confirms the change, once. */
export const EmailChangeCompletePage = ({ onChanged }: { onChanged: () => Promise<unknown> }) => {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const confirm = useCallback(
    async (token: string) => {
      const result = await confirmEmailChange(token);
      await onChanged();
      return result;
    },
    [onChanged],
  );
  const state = useLinkOnce(params.get('link'), confirm);
  return (
    <AuthCard title={t('identity.emailChange.completeTitle')}>
      {state.status === 'working' ? (
        <Center py="md">
          <Loader role="status" aria-label={t('common.loading')} />
        </Center>
      ) : state.status === 'done' ? (
        <Alert color="teal" role="status">
          {t('identity.emailChange.done', { email: state.result.email })}
        </Alert>
      ) : (
        <Stack>
          <Alert color="red" role="alert">
            {t('identity.complete.failed')}
          </Alert>
          <Anchor component={Link} to="/sprememba-e-naslova">
            {t('identity.emailChange.again')}
          </Anchor>
        </Stack>
      )}
      <Anchor component={Link} to="/profil" size="sm">
        {t('identity.emailChange.backToProfile')}
      </Anchor>
    </AuthCard>
  );
};
