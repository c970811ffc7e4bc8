import { Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { pushDeclined, pushSupported, subscribeHere, unsubscribeHere } from '../../../lib/push.ts';
import type { CurrentUser } from '../api/me.ts';
import { setPush } from '../api/profile.ts';

class PushDenied extends Error {}

/**
 * Push notifications on or off (spec §7 POST /users/onesignal with onesignalEnabled; issue 16 item 4).
 * On: this browser asks for permission and subscribes (its subscription kept by the API), then the
 * preference is 1. Off: this browser's subscription is dropped, the header's prompt stops asking here
 * (disablePush), and the preference is 0, so no browser of the person gets pushes.
 */
export const PushSetting = ({ user, onChanged }: { user: CurrentUser; onChanged: () => Promise<unknown> }) => {
  const { t } = useTranslation();
  const supported = pushSupported();
  const save = useMutation({
    mutationFn: async (on: boolean) => {
      if (on) {
        if (supported && (await subscribeHere()) === 'denied') throw new PushDenied();
        return setPush(true);
      }
      await unsubscribeHere();
      pushDeclined.set();
      return setPush(false);
    },
    onSuccess: onChanged,
    onError: (error) =>
      notifications.show({
        color: error instanceof PushDenied ? 'yellow' : 'red',
        message: t(error instanceof PushDenied ? 'identity.profile.pushDenied' : 'identity.profile.pushFailed'),
      }),
  });
  const on = save.isPending ? Boolean(save.variables) : user.onesignalEnabled > 0;
  return (
    <Paper withBorder radius="md" p="lg">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('identity.profile.push')}
        </Title>
        <Text size="sm" c="dimmed">
          {t(supported ? 'identity.profile.pushHint' : 'identity.profile.pushUnsupported')}
        </Text>
        <Switch label={t('identity.profile.pushOn')} checked={on} disabled={save.isPending} onChange={(e) => save.mutate(e.currentTarget.checked)} />
      </Stack>
    </Paper>
  );
};
