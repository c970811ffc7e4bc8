import { describe, expect, it } from 'vitest';
import { ROLE, roleLabel } from './roles.ts';

describe('role labels', () => {
  it('names every role of the catalogue in Slovenian, and prints an unknown id as it is', () => {
    expect(Object.values(ROLE).map(roleLabel)).toEqual([
      'skrbnik',
      'vodja',
      'računovodja',
      'naročnik',
      'direktor',
      'urednik',
      'revizor',
      'odobritelj',
      'udeleženec',
    ]);
    expect(roleLabel(99)).toBe('99');
  });
});
