import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../../tests/support/decider-spec.ts';
import { approvalScopeParam, approvalSettingsRule, DEFAULT_APPROVAL_SETTINGS, soleApproverWarnings } from './approval-settings.rules.ts';
import { approvalSettingsDecider } from './approval-settings.ts';

const messages = (input: unknown) => Object.fromEntries((approvalSettingsRule.safeParse(input).error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));
const steps = [
  { key: 'medical', label: 'Medicinski pregled', approverIds: [3] },
  { key: 'legal', label: 'Pravni pregled', approverIds: [4] },
];

describe('approval settings (decision 0063)', () => {
  it('default to off, the MEDI prefix and the medical, legal and regulatory steps', () => {
    expect(DEFAULT_APPROVAL_SETTINGS).toMatchObject({ enabled: false, codePrefix: 'MEDI' });
    expect(DEFAULT_APPROVAL_SETTINGS.steps.map((s) => s.label)).toEqual(['Medicinski pregled', 'Pravni pregled', 'Regulatorni pregled']);
  });

  it('check the prefix, the keys, and that every step of an approval that is on has an approver, each named once', () => {
    expect(messages({ enabled: true, codePrefix: 'MEDI', steps })).toEqual({});
    expect(messages({ enabled: true, codePrefix: 'M', steps })).toEqual({ codePrefix: 'Predpona kode ima od 2 do 8 velikih črk ali številk.' });
    expect(messages({ enabled: true, codePrefix: 'MEDI-1', steps })).toEqual({ codePrefix: 'Predpona kode ima od 2 do 8 velikih črk ali številk.' });
    expect(messages({ enabled: true, codePrefix: 'AB12CD34', steps: [] })).toEqual({ steps: 'Dodajte vsaj en korak odobritve.' });
    expect(messages({ enabled: true, codePrefix: 'MEDI', steps: [steps[0], { ...steps[1], key: 'medical' }] })).toEqual({
      'steps.1.key': 'Ključi korakov se ne smejo ponavljati.',
    });
    expect(messages({ enabled: true, codePrefix: 'MEDI', steps: [{ ...steps[0], approverIds: [] }] })).toEqual({
      'steps.0.approverIds': 'Vsak korak potrebuje vsaj enega odobritelja.',
    });
    expect(messages({ enabled: false, codePrefix: 'MEDI', steps: [{ ...steps[0], approverIds: [] }] })).toEqual({});
    expect(messages({ enabled: true, codePrefix: 'MEDI', steps: [{ ...steps[0], approverIds: [3, 3] }] })).toEqual({
      'steps.0.approverIds': 'Odobritelj je v koraku naveden dvakrat.',
    });
    expect(messages({ enabled: true, codePrefix: 'MEDI', steps: [{ ...steps[0], key: 'Medicina' }] })).toEqual({
      'steps.0.key': 'Ključ koraka ima male črke, številke in vezaje (do 40 znakov).',
    });
  });

  it('refuse two steps of one name on the server too (one rule for the API and the form), whatever their case and spaces', () => {
    expect(messages({ enabled: true, codePrefix: 'MEDI', steps: [steps[0], { ...steps[1], label: ' medicinski PREGLED ' }] })).toEqual({
      'steps.1.label': 'Dva koraka ne smeta imeti enakega imena.',
    });
    expect(messages({ enabled: false, codePrefix: 'MEDI', steps: [steps[0], { ...steps[1], label: 'Medicinski pregled', approverIds: [] }] })).toEqual({
      'steps.1.label': 'Dva koraka ne smeta imeti enakega imena.',
    });
  });

  it('warn when one person is the only approver of several steps (separation of duties), and not when others share them', () => {
    const three = [...steps, { key: 'regulatory', label: 'Regulatorni pregled', approverIds: [3] }];
    expect(soleApproverWarnings({ steps: three }, new Map([[3, 'Maja Medicina']]))).toEqual([
      'Maja Medicina je edini odobritelj v več korakih (Medicinski pregled, Regulatorni pregled). Ena oseba lahko podpiše le en korak iste različice, zato teh korakov ne bo mogoče odobriti; v vsak korak dodajte še drugega odobritelja.',
    ]);
    expect(soleApproverWarnings({ steps: three.map((s) => (s.key === 'regulatory' ? { ...s, approverIds: [3, 4] } : s)) })).toEqual([]);
    expect(soleApproverWarnings({ steps })).toEqual([]);
  });

  it('take a scope: the platform or a company id within range', () => {
    expect(approvalScopeParam.parse('platform')).toBe('platform');
    expect(approvalScopeParam.parse('12')).toBe(12);
    for (const bad of ['0', '-1', '2147483648', 'podjetje', '1e3']) expect(approvalScopeParam.safeParse(bad).success, bad).toBe(false);
  });

  it('record the whole settings when they change, nothing when they do not', () => {
    const settings = approvalSettingsRule.parse({ enabled: true, codePrefix: 'PHA', steps });
    const spec = deciderSpec(approvalSettingsDecider);
    spec
      .given([])
      .when({ type: 'SetApprovalSettings', settings })
      .thenExpect([{ type: 'ApprovalSettingsSet', data: settings }]);
    spec
      .given([{ type: 'ApprovalSettingsSet', data: settings }])
      .when({ type: 'SetApprovalSettings', settings })
      .thenExpect([]);
  });
});
