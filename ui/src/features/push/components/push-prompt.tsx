import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentSubscription, PUSH_PROMPT_DELAY_MS, pushDeclined, pushSupported, saveSubscription, subscribeHere } from '../../../lib/push.ts';
import { setPushPreference } from '../api/push-preference.ts';
import { otherDialogOpen, PUSH_PROMPT_MARK, type PushPromptDecision, pushPromptDecision } from '../push-prompt-rules.ts';

/**
 * The header's push-permission dialog (spec §2, §4, §9; issue 16 item 4). About 2.5 s after load, for
 * a signed-in person in a browser that can take push notifications: when this browser is subscribed,
 * its subscription is synced with the API and, when the person's preference (onesignalEnabled) is 1,
 * push is switched on again; otherwise a dialog offers to allow or deny. Allow forgets the earlier no,
 * asks the browser's permission, subscribes and switches push on; deny stores disablePush = 'true'.
 *
 * Issue 33 item 6 (the rules in push-prompt-rules.ts): asked once per browser, however it is closed
 * (X, Escape, a click outside count as "Ne, hvala"); never together with another dialog (the news
 * pop-up wins: open at the time, this page load asks nothing; opening later, it closes this one
 * unanswered); never to a person nothing is pushed to (the auditor). Closed, it takes no focus.
 */
export const PushPrompt = ({
  userId,
  enabled,
  receivesPush,
  onesignalEnabled,
  onChanged,
}: {
  /** Whose the browser's subscription is: after an account switch the new account takes it over. */
  userId: number | null;
  enabled: boolean;
  /** Whether anything is pushed to the person (push-prompt-rules.ts receivesPush). */
  receivesPush: boolean;
  onesignalEnabled: number;
  onChanged: () => unknown;
}) => {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  // What the prompt decided on this page load, for whoever looks (the e2e tests wait for it instead of a time).
  const [decision, setDecision] = useState<PushPromptDecision | 'answered-now' | null>(null);
  // The preference as it is when the timer fires (it may load or change meanwhile).
  const preference = useRef(onesignalEnabled);
  preference.current = onesignalEnabled;

  useEffect(() => {
    if (!enabled || userId === null || !pushSupported()) return;
    let cancelled = false;
    const timer = setTimeout(async () => {
      try {
        const subscription = receivesPush ? await currentSubscription() : null;
        if (cancelled) return;
        const next = pushPromptDecision({
          receivesPush,
          subscribed: subscription !== null,
          answered: pushDeclined.get(),
          permission: Notification.permission,
          otherDialogOpen: otherDialogOpen(),
        });
        setDecision(next);
        if (next === 'sync' && subscription) {
          await saveSubscription(subscription);
          if (preference.current === 1) await setPushPreference(1);
        }
        if (next === 'ask') setOpen(true);
      } catch {
        // The prompt is a courtesy: a failure here leaves the page as it is.
      }
    }, PUSH_PROMPT_DELAY_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [enabled, userId, receivesPush]);

  // The news pop-up (or any other dialog) opening meanwhile wins: this one closes, unanswered, and asks on a later load.
  useEffect(() => {
    if (!open) return;
    const observer = new MutationObserver(() => {
      if (!otherDialogOpen()) return;
      setOpen(false);
      setDecision('other-dialog');
    });
    observer.observe(document.body, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [open]);

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
      setDecision('answered-now');
    }
  };

  /** "Ne, hvala", the X, Escape or a click outside: all the same answer, remembered in this browser. */
  const deny = () => {
    if (busy) return;
    pushDeclined.set();
    setOpen(false);
    setDecision('answered-now');
  };

  return (
    <span data-slot="push-permission" data-testid="push-permission-slot" data-decision={decision ?? undefined}>
      <Modal
        opened={open}
        onClose={deny}
        title={t('push.prompt.title')}
        centered
        closeButtonProps={{ 'aria-label': t('push.prompt.close') }}
        data-testid="push-prompt"
        {...{ [PUSH_PROMPT_MARK]: true }}
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
