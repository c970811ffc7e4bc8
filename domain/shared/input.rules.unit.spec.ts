import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { idParam, idRule, indexParam, MAX_ID } from './id.rules.ts';
import { isSingleLine, isStorableText, singleLine } from './text.rules.ts';

describe('text that can be stored and read back', () => {
  it('refuses NUL, lone surrogates and control characters, keeps emoji, č/š/ž, tabs and line breaks', () => {
    for (const ok of ['Lekarna Center', 'ščžŠČŽ', '😀 👨‍👩‍👧', 'vrstica\nvrstica\r\n\tzamik', '']) expect(isStorableText(ok), JSON.stringify(ok)).toBe(true);
    for (const bad of ['\u0000', 'a\u0000b', '\ud800', 'x\udfffy', '\ud83d', '\u0007', '\u001b[31m', '\uffff', '\ufffe']) {
      expect(isStorableText(bad), JSON.stringify(bad)).toBe(false);
    }
  });

  it('keeps names and titles on one line', () => {
    expect(isSingleLine('Interakcije zdravil')).toBe(true);
    for (const bad of ['a\nb', 'a\rb', 'a\tb', 'a\u2028b', 'a\u0085b', 'a\u007fb']) expect(isSingleLine(bad), JSON.stringify(bad)).toBe(false);
    const rule = singleLine(z.string().trim().max(40));
    expect(rule.safeParse('  Ime  ').data).toBe('Ime');
    expect(rule.safeParse('Ime\nPriimek').error?.issues[0]?.message).toBe('Vnos mora biti v eni vrstici.');
  });
});

describe('ids', () => {
  it('takes only decimal digits in a path, within the integer range of the read models', () => {
    expect(idParam.parse('42')).toBe(42);
    expect(idParam.parse(String(MAX_ID))).toBe(MAX_ID);
    for (const bad of ['0', '-1', '1.5', '1e3', '0x10', ' 1', '01', 'abc', '2147483648', '99999999999999999999', '1\u0000', '']) {
      expect(idParam.safeParse(bad).success, bad).toBe(false);
    }
    expect(indexParam.parse('0')).toBe(0);
    expect(indexParam.safeParse('-0').success).toBe(false);
  });

  it('bounds ids in a body too', () => {
    expect(idRule.safeParse(MAX_ID).success).toBe(true);
    for (const bad of [0, -1, 1.5, MAX_ID + 1, 2 ** 53]) expect(idRule.safeParse(bad).success, String(bad)).toBe(false);
  });
});
