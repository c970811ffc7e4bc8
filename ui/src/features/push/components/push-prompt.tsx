import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentSubscription, PUSH_PROMPT_DELAY_MS, pushDeclined, pushSupported, saveSubscription, subscribeHere } from '../../../lib/push.ts';
import { setPushPreference } from '../api/push-preference.ts';

/**
 * The header's push-permission dialog (spec §2, §4, §9; issue 16 item 4). About 2.5 s after load, for
 * a signed-in person in a browser that can take push notifications: when this browser is subscribed,
 * its subscription is synced with the API and, when the person's preference (onesignalEnabled) is 1,
 * push is switched on again; otherwise, unless the person said no here before (disablePush = 'true')
 * or the browser blocks notifications, a dialog offers to allow or deny. Allow forgets the earlier no,
 * asks the browser's permission, subscribes and switches push on; deny stores disablePush = 'true'.
 */
export const PushPrompt = ({
  userId,
  enabled,
  onesignalEnabled,
  onChanged,
}: {
  /** Whose the browser's subscription is: after an account switch the new account takes it over. */
  userId: number | null;
  enabled: boolean;
  onesignalEnabled: number;
  onChanged: () => unknown;
}) => {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  // The preference as it is when the timer fires (it may load or change meanwhile).
  const preference = useRef(onesignalEnabled);
  preference.current = onesignalEnabled;

  useEffect(() => {
    if (!enabled || userId === null || !pushSupported()) return;
    let cancelled = false;
    const timer = setTimeout(async () => {
      try {
        const subscription = await currentSubscription();
        if (cancelled) return;
        if (subscription) {
          await saveSubscription(subscription);
          if (preference.current === 1) await setPushPreference(1);
          return;
        }
        if (pushDeclined.get() || Notification.permission === 'denied') return;
        setOpen(true);
      } catch {
        // The prompt is a courtesy: a failure here leaves the page as it is.
      }
    }, PUSH_PROMPT_DELAY_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [enabled, userId]);

  const allow = async () => {
    setBusy(true);
    try {
      const result = await subscribeHere();
      if (result === 'subscribed') {
        await setPushPreference(1);
        await onChanged();
        notifications.show({ color: 'teal', message: t('push.prompt.on') });
      } else {
        notifications.show({ color: 'yellow', message: t('push.prompt.denied') });
      }
    } catch {
      notifications.show({ color: 'red', message: t('push.prompt.failed') });
    } finally {
      setBusy(false);
      setOpen(false);
    }
  };

  const deny = () => {
    pushDeclined.set();
    setOpen(false);
  };

  return (
    <span data-slot="push-permission" data-testid="push-permission-slot">
      <Modal
        opened={open}
        onClose={() => setOpen(false)}
        title={t('push.prompt.title')}
        centered
        closeButtonProps={{ 'aria-label': t('push.prompt.close') }}
        data-testid="push-prompt"
      >
        <Stack gap="md">
          <Text>{t('push.prompt.text')}</Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={deny} disabled={busy}>
              {t('push.prompt.deny')}
            </Button>
            <Button onClick={allow} loading={busy}>
              {t('push.prompt.allow')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </span>
  );
};
