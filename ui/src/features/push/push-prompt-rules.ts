/**
 * What the header's push prompt does when its time comes (spec §4, §9; issue 33 item 6):
 * - `no-content`: nothing is pushed to this person: nothing is asked, nothing synced;
 * - `sync`: this browser is subscribed: the subscription is synced, nothing asked;
 * - `answered`: the question was answered or closed in this browser before (any way of closing counts);
 * - `blocked`: the browser blocks notifications;
 * - `other-dialog`: another dialog (the news pop-up, the menu) is open: it wins, and this page load asks nothing;
 * - `ask`: the dialog is shown.
 */
export type PushPromptDecision = 'no-content' | 'sync' | 'answered' | 'blocked' | 'other-dialog' | 'ask';

export const pushPromptDecision = (state: {
  receivesPush: boolean;
  subscribed: boolean;
  answered: boolean;
  permission: NotificationPermission;
  otherDialogOpen: boolean;
}): PushPromptDecision => {
  if (!state.receivesPush) return 'no-content';
  if (state.subscribed) return 'sync';
  if (state.answered) return 'answered';
  if (state.permission === 'denied') return 'blocked';
  if (state.otherDialogOpen) return 'other-dialog';
  return 'ask';
};

/** Marks the push dialog's own elements, so they are not taken for another dialog. */
export const PUSH_PROMPT_MARK = 'data-push-prompt';

/** Whether a dialog other than the push prompt is open (Mantine's modals and drawers are role="dialog" while shown). */
export const otherDialogOpen = (root: ParentNode = document) =>
  [...root.querySelectorAll('[role="dialog"]')].some((dialog) => !dialog.closest(`[${PUSH_PROMPT_MARK}]`));
