import { z } from 'zod';
import type { Decider } from '../shared/decider.ts';
import { defineEvent, type EventsOf } from '../shared/event.ts';
import { type ApprovalScope, type ApprovalSettings, DEFAULT_APPROVAL_SETTINGS } from './approval-settings.rules.ts';

/** The approval settings of one scope (decision 0063): the platform's own courses, or one company's. */
export const approvalSettingsStream = (scope: ApprovalScope) => `approval-settings-${scope}`;

export const approvalSettingsEvents = [
  // The whole settings each time, as the admin saved them.
  defineEvent(
    'ApprovalSettingsSet',
    z.object({
      enabled: z.boolean(),
      codePrefix: z.string().min(2).max(8),
      steps: z.array(z.object({ key: z.string(), label: z.string(), approverIds: z.array(z.number().int().positive()) })),
    }),
  ),
] as const;
export type ApprovalSettingsEvent = EventsOf<typeof approvalSettingsEvents>;

export type ApprovalSettingsState = ApprovalSettings;
export type ApprovalSettingsCommand = { type: 'SetApprovalSettings'; settings: ApprovalSettings };

export const approvalSettingsDecider: Decider<ApprovalSettingsCommand, ApprovalSettingsEvent, ApprovalSettingsState> = {
  initialState: DEFAULT_APPROVAL_SETTINGS,
  evolve: (_state, event) => event.data,
  decide: (command, state) => (JSON.stringify(state) === JSON.stringify(command.settings) ? [] : [{ type: 'ApprovalSettingsSet', data: command.settings }]),
};
