import { Alert, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ConfirmButton } from '../../../components/confirm-button.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { socialProviders } from '../api/identity.ts';
import type { CurrentUser } from '../api/me.ts';
import { startSocialBinding, unbindSocial } from '../api/profile.ts';

const PLATFORMS = ['google', 'facebook'] as const;

/**
 * Google and Facebook accounts bound to this user (spec §1 binding): bind goes through the
 * provider's pages and comes back to /profil?povezano=<platform> (or ?napaka=povezava when that
 * account belongs to someone else); unbind after a confirmation.
 */
export const SocialAccounts = ({ user, onChanged }: { user: CurrentUser; onChanged: () => Promise<unknown> }) => {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const providers = useQuery({ queryKey: ['auth', 'social'], queryFn: socialProviders, staleTime: 60_000 });
  const bind = useMutation({
    mutationFn: startSocialBinding,
    onSuccess: ({ url }) => window.location.assign(url),
    onError: (error, platform) =>
      notifications.show({
        color: 'red',
        message: error instanceof ApiError && error.message ? error.message : t(`login.providerUnavailable.${platform}`),
      }),
  });
  const unbind = useMutation({ mutationFn: unbindSocial, onSuccess: onChanged });
  const bound = params.get('povezano');
  return (
    <Paper withBorder radius="md" p="lg">
      <Stack gap="md">
        <Title order={2} size="h4">
          {t('identity.profile.social')}
        </Title>
        {bound && (PLATFORMS as readonly string[]).includes(bound) ? (
          <Alert color="teal" role="status">
            {t('identity.profile.bound', { platform: t(`identity.platform.${bound}`) })}
          </Alert>
        ) : null}
        {params.get('napaka') === 'povezava' ? (
          <Alert color="red" role="alert">
            {t('identity.profile.bindFailed')}
          </Alert>
        ) : null}
        {PLATFORMS.map((platform) => {
          const identity = user.socialIdentities.find((i) => i.platform === platform);
          const available = providers.data?.providers.find((p) => p.platform === platform)?.available ?? false;
          // Issue 33 item 8: a disabled "Poveži" says why (the provider is not set up here, or could not be checked).
          const reason =
            identity || available || providers.isPending
              ? null
              : providers.isError
                ? t('identity.profile.bindUnknown')
                : t('identity.profile.bindNotConfigured', { platform: t(`identity.platform.${platform}`) });
          return (
            <Group key={platform} justify="space-between" data-testid={`social-${platform}`}>
              <Group gap="sm">
                <Text fw={500}>{t(`identity.platform.${platform}`)}</Text>
                {identity ? (
                  <Badge color="#1b6e2f" variant="outline">
                    {t('identity.profile.socialBound', { email: identity.email ?? '—' })}
                  </Badge>
                ) : (
                  <Badge color="gray.7" variant="outline">
                    {t('identity.profile.socialNone')}
                  </Badge>
                )}
              </Group>
              {identity ? (
                <ConfirmButton
                  label={t('identity.profile.unbind')}
                  question={t('identity.profile.unbindQuestion', { platform: t(`identity.platform.${platform}`) })}
                  pending={unbind.isPending}
                  onConfirm={() => unbind.mutateAsync(platform)}
                />
              ) : (
                <Button
                  variant="default"
                  onClick={() => bind.mutate(platform)}
                  loading={bind.isPending && bind.variables === platform}
                  disabled={!available}
                  aria-describedby={reason ? `social-${platform}-reason` : undefined}
                >
                  {t('identity.profile.bind')}
                </Button>
              )}
              {reason ? (
                <Text size="sm" c="dimmed" w="100%" id={`social-${platform}-reason`} data-testid={`social-${platform}-reason`}>
                  {reason}
                </Text>
              ) : null}
            </Group>
          );
        })}
      </Stack>
    </Paper>
  );
};
