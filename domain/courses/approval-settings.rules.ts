import { z } from 'zod';
import { MAX_ID, refId } from '../shared/id.rules.ts';
import { singleLine } from '../shared/text.rules.ts';
import { REQUIRED } from '../users/user.rules.ts';

/**
 * Approval settings of a scope (issue 36 item 2, decision 0063): whether its courses need approval
 * before publishing, the prefix of their approval codes and the steps, each with who may sign it.
 * Pure zod, shared by the API and the admin's form.
 */
export const DEFAULT_CODE_PREFIX = 'MEDI';
export const DEFAULT_APPROVAL_STEPS = [
  { key: 'medical', label: 'Medicinski pregled' },
  { key: 'legal', label: 'Pravni pregled' },
  { key: 'regulatory', label: 'Regulatorni pregled' },
] as const;

/** 'platform' (the platform's own courses) or a company's id: the courses its clients author. */
export const approvalScopeParam = z
  .string()
  .regex(/^(platform|[1-9][0-9]{0,9})$/, { error: 'Neveljavno področje odobritev.' })
  .transform((v) => (v === 'platform' ? ('platform' as const) : Number(v)))
  .refine((v) => v === 'platform' || v <= MAX_ID, { error: 'Neveljavno področje odobritev.' });
export type ApprovalScope = 'platform' | number;

export const approvalStepRule = z
  .object({
    key: z
      .string({ error: REQUIRED })
      .trim()
      .regex(/^[a-z][a-z0-9-]{0,39}$/, { error: 'Ključ koraka ima male črke, številke in vezaje (do 40 znakov).' }),
    label: singleLine(z.string({ error: REQUIRED }).trim().min(1, { error: REQUIRED }).max(100, { error: 'Vnos je predolg' })),
    approverIds: z.array(refId('user')).max(50, { error: 'Korak ima lahko največ 50 odobriteljev.' }).default([]),
  })
  .strict();

export const approvalSettingsRule = z
  .object({
    enabled: z.boolean({ error: REQUIRED }),
    codePrefix: z
      .string({ error: REQUIRED })
      .trim()
      .regex(/^[A-Z0-9]{2,8}$/, { error: 'Predpona kode ima od 2 do 8 velikih črk ali številk.' }),
    steps: z.array(approvalStepRule).min(1, { error: 'Dodajte vsaj en korak odobritve.' }).max(10, { error: 'Korakov je lahko največ 10.' }),
  })
  .strict()
  .superRefine((settings, ctx) => {
    const seen = new Set<string>();
    // Two steps of one name: the approver, the inbox and the trail could not tell them apart (the form and the API both check it here).
    const labels = new Set<string>();
    settings.steps.forEach((step, i) => {
      if (seen.has(step.key)) ctx.addIssue({ code: 'custom', path: ['steps', i, 'key'], message: 'Ključi korakov se ne smejo ponavljati.' });
      seen.add(step.key);
      const label = step.label.trim().toLocaleLowerCase('sl');
      if (label !== '' && labels.has(label)) ctx.addIssue({ code: 'custom', path: ['steps', i, 'label'], message: 'Dva koraka ne smeta imeti enakega imena.' });
      labels.add(label);
      if (settings.enabled && step.approverIds.length === 0)
        ctx.addIssue({ code: 'custom', path: ['steps', i, 'approverIds'], message: 'Vsak korak potrebuje vsaj enega odobritelja.' });
      if (new Set(step.approverIds).size !== step.approverIds.length)
        ctx.addIssue({ code: 'custom', path: ['steps', i, 'approverIds'], message: 'Odobritelj je v koraku naveden dvakrat.' });
    });
  });
export type ApprovalSettings = z.output<typeof approvalSettingsRule>;

/**
 * Separation of duties (decision 0063): settings that may be saved but let one person carry several
 * steps alone (the only approver named on each), so one signer could approve a version in more than
 * one step's name. The API answers them with the settings and the admin's form shows them; the
 * signature itself is refused for a second step of one version by one person (course-approval.ts).
 */
export const soleApproverWarnings = (settings: Pick<ApprovalSettings, 'steps'>, names: ReadonlyMap<number, string> = new Map()): string[] => {
  const alone = new Map<number, string[]>();
  for (const step of settings.steps)
    if (step.approverIds.length === 1) {
      const id = step.approverIds[0] as number;
      alone.set(id, [...(alone.get(id) ?? []), step.label]);
    }
  return [...alone.entries()]
    .filter(([, labels]) => labels.length > 1)
    .map(
      ([id, labels]) =>
        `${names.get(id) || `Oseba št. ${id}`} je edini odobritelj v več korakih (${labels.join(', ')}). Ena oseba lahko podpiše le en korak iste različice, zato teh korakov ne bo mogoče odobriti; v vsak korak dodajte še drugega odobritelja.`,
    );
};

/** A scope that was never set: approval off, the default prefix and steps, nobody named yet. */
export const DEFAULT_APPROVAL_SETTINGS: ApprovalSettings = {
  enabled: false,
  codePrefix: DEFAULT_CODE_PREFIX,
  steps: DEFAULT_APPROVAL_STEPS.map((s) => ({ ...s, approverIds: [] })),
};
