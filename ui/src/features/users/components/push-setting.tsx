import { Paper, Stack, Switch, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { CurrentUser } from '../api/me.ts';
import { setPush } from '../api/profile.ts';

/** Push notifications on or off (spec §7 POST /users/onesignal with onesignalEnabled). */
export const PushSetting = ({ user, onChanged }: { user: CurrentUser; onChanged: () => Promise<unknown> }) => {
  const { t } = useTranslation();
  const save = useMutation({
    mutationFn: setPush,
    onSuccess: onChanged,
    onError: () => notifications.show({ color: 'red', message: t('identity.profile.saveFailed') }),
  });
  const on = save.isPending ? Boolean(save.variables) : user.onesignalEnabled > 0;
  return (
    <Paper withBorder radius="md" p="lg">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('identity.profile.push')}
        </Title>
        <Switch label={t('identity.profile.pushOn')} checked={on} disabled={save.isPending} onChange={(e) => save.mutate(e.currentTarget.checked)} />
      </Stack>
    </Paper>
  );
};
