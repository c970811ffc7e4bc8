import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, moveStep, settingsErrors, stepKey } from './approval-settings-form.ts';

describe('approval settings form (issue 36)', () => {
  it('starts with the medical, legal and regulatory steps and the prefix MEDI', () => {
    expect(DEFAULT_SETTINGS.steps.map((s) => [s.key, s.label])).toEqual([
      ['medical', 'Medicinski pregled'],
      ['legal', 'Pravni pregled'],
      ['regulatory', 'Regulatorni pregled'],
    ]);
    expect(DEFAULT_SETTINGS.codePrefix).toBe('MEDI');
    expect(DEFAULT_SETTINGS.enabled).toBe(false);
  });

  it('makes a step key from its label, unique among the keys taken', () => {
    expect(stepKey('Farmakovigilančni pregled', [])).toBe('farmakovigilancni-pregled');
    expect(stepKey('Pravni pregled', ['pravni-pregled'])).toBe('pravni-pregled-2');
    expect(stepKey('???', [])).toBe('korak');
    expect(stepKey('2. pregled', [])).toBe('k-2-pregled');
  });

  it('moves a step within the list', () => {
    expect(moveStep(['a', 'b', 'c'], 2, -2)).toEqual(['c', 'a', 'b']);
    expect(moveStep(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(moveStep(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
  });

  it('says in Slovenian what is wrong: the prefix, a step without a name or with a name twice, a step without approvers while on', () => {
    expect(settingsErrors(DEFAULT_SETTINGS)).toEqual({});
    const errors = settingsErrors({
      enabled: true,
      codePrefix: 'medi-',
      steps: [
        { key: 'a', label: '', approverIds: [1] },
        { key: 'b', label: 'Pravni pregled', approverIds: [] },
        { key: 'c', label: 'pravni pregled', approverIds: [2] },
      ],
    });
    expect(errors).toEqual({
      codePrefix: 'Predpona kode ima od 2 do 8 velikih črk ali številk.',
      'steps.0.label': 'Vnos je obvezen',
      'steps.1.approverIds': 'Vsak korak potrebuje vsaj enega odobritelja.',
      'steps.2.label': 'Dva koraka ne smeta imeti enakega imena.',
    });
    expect(settingsErrors({ enabled: true, codePrefix: 'RX26', steps: [] })).toEqual({ steps: 'Dodajte vsaj en korak odobritve.' });
  });
});
