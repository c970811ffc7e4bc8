import { approvalSettingsRule, DEFAULT_APPROVAL_SETTINGS, DEFAULT_CODE_PREFIX } from '../../../../../domain/courses/approval-settings.rules.ts';
import type { ApprovalSettings } from '../api/approvals.ts';

/**
 * The admin's approval settings form, as plain functions (issue 36 item 2): the default steps,
 * step keys made from their labels, moving steps, and the checks with Slovenian messages: the
 * API's own rule (domain/courses/approval-settings.rules.ts), two steps of one name included.
 */

export const DEFAULT_SETTINGS: ApprovalSettings = {
  ...DEFAULT_APPROVAL_SETTINGS,
  codePrefix: DEFAULT_CODE_PREFIX,
  steps: DEFAULT_APPROVAL_SETTINGS.steps.map((s) => ({ ...s, approverIds: [] })),
};

const FOLD: Record<string, string> = { č: 'c', š: 's', ž: 'z', ć: 'c', đ: 'd' };

/** A step's key (a slug starting with a letter): "Pravni pregled" → "pravni-pregled"; a key taken already gets -2, -3. */
export const stepKey = (label: string, taken: readonly string[]) => {
  const slug = label
    .toLowerCase()
    .replace(/[čšžćđ]/g, (c) => FOLD[c] ?? c)
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 34);
  const base = slug === '' ? 'korak' : /^[a-z]/.test(slug) ? slug : `k-${slug}`;
  let key = base;
  for (let n = 2; taken.includes(key); n++) key = `${base}-${n}`;
  return key;
};

/** The steps with the one at `index` moved by `by` places (kept within the list). */
export const moveStep = <T>(steps: readonly T[], index: number, by: number): T[] => {
  const to = Math.max(0, Math.min(steps.length - 1, index + by));
  const next = [...steps];
  const [step] = next.splice(index, 1);
  if (step !== undefined) next.splice(to, 0, step);
  return next;
};

/** Field messages by path (`codePrefix`, `steps`, `steps.1.label`, `steps.1.approverIds`); empty when the settings may be saved. */
export const settingsErrors = (settings: ApprovalSettings): Record<string, string> => {
  const errors: Record<string, string> = {};
  const parsed = approvalSettingsRule.safeParse(settings);
  if (!parsed.success)
    for (const issue of parsed.error.issues) {
      const path = issue.path.join('.') || 'steps';
      errors[path] ??= issue.message;
    }
  return errors;
};
