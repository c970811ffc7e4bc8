// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { otherDialogOpen, PUSH_PROMPT_MARK, pushPromptDecision } from './push-prompt-rules.ts';

const state = { receivesPush: true, subscribed: false, answered: false, permission: 'default' as NotificationPermission, otherDialogOpen: false };

describe('the push prompt (spec §4, §9; issue 33 item 6)', () => {
  it('asks a person who receives push, in a browser not subscribed, never asked, not blocking, with no other dialog open', () => {
    expect(pushPromptDecision(state)).toBe('ask');
  });

  it('asks once per browser: answered or closed in any way before, it does not ask again', () => {
    expect(pushPromptDecision({ ...state, answered: true })).toBe('answered');
  });

  it('never opens together with another dialog: the news pop-up wins', () => {
    expect(pushPromptDecision({ ...state, otherDialogOpen: true })).toBe('other-dialog');
  });

  it('syncs a subscribed browser instead of asking; asks nothing where the browser blocks notifications', () => {
    expect(pushPromptDecision({ ...state, subscribed: true, answered: true })).toBe('sync');
    expect(pushPromptDecision({ ...state, permission: 'denied' })).toBe('blocked');
  });

  it('is not shown to roles without push content: the auditor reads no courses (decision 0016)', () => {
    // Who receives push: ui/src/app/layout/push-audience.ts.
    expect(pushPromptDecision({ ...state, receivesPush: false, subscribed: true })).toBe('no-content');
  });

  it('tells another open dialog from its own', () => {
    const root = document.createElement('div');
    root.innerHTML = `<div ${PUSH_PROMPT_MARK}><section role="dialog"></section></div>`;
    expect(otherDialogOpen(root)).toBe(false);
    root.insertAdjacentHTML('beforeend', '<section role="dialog" aria-label="Novica"></section>');
    expect(otherDialogOpen(root)).toBe(true);
  });
});
