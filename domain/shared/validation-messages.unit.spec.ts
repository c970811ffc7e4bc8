import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { configureValidationMessages, REQUIRED_MESSAGE } from './validation-messages.rules.ts';

const messageOf = (schema: z.ZodType, input: unknown) => {
  const result = schema.safeParse(input);
  return result.success ? null : result.error.issues[0]?.message;
};

/** What a person (or a client) reads for failures no rule words itself: Slovenian sentences, no JavaScript type names. */
describe('validation messages', () => {
  beforeAll(() => configureValidationMessages());

  it('names what is expected in words, and a missing or empty value as required', () => {
    expect(messageOf(z.number(), 'abc')).toBe('Vnesite število');
    expect(messageOf(z.number().int(), 1.5)).toBe('Vnesite celo število');
    expect(messageOf(z.string(), 123)).toBe('Vnesite besedilo');
    expect(messageOf(z.boolean(), 'da')).toBe('Izberite da ali ne');
    expect(messageOf(z.object({ a: z.string() }), {})).toBe(REQUIRED_MESSAGE);
    expect(messageOf(z.string(), null)).toBe(REQUIRED_MESSAGE);
    expect(messageOf(z.string().min(1), '')).toBe(REQUIRED_MESSAGE);
  });

  it('gives limits as numbers and choices by name', () => {
    expect(messageOf(z.number().max(10), 11)).toBe('Vrednost je prevelika (največ 10)');
    expect(messageOf(z.number().min(0), -1)).toBe('Vrednost je premajhna (najmanj 0)');
    expect(messageOf(z.string().max(200), 'x'.repeat(201))).toBe('Vnos je predolg (največ 200 znakov)');
    expect(messageOf(z.string().min(3), 'ab')).toBe('Vnos je prekratek (najmanj 3 znakov)');
    expect(messageOf(z.array(z.number()).max(2), [1, 2, 3])).toBe('Preveč izbir (največ 2)');
    expect(messageOf(z.enum(['facebook', 'google']), 'twitter')).toBe('Izberite eno od možnosti: facebook, google');
    expect(messageOf(z.email(), 'ni-naslov')).toBe('Vnesite veljaven e-naslov');
  });

  it('keeps a message written on the rule', () => {
    expect(messageOf(z.number().max(10, { error: 'Največ 10 točk' }), 11)).toBe('Največ 10 točk');
  });

  it('uses no English or JavaScript type names', () => {
    for (const [schema, input] of [
      [z.number(), 'abc'],
      [z.string().max(2), 'abc'],
      [z.enum(['a', 'b']), 'c'],
      [z.url(), 'ni'],
      [z.iso.datetime(), 'včeraj'],
    ] as const) {
      expect(messageOf(schema, input)).not.toMatch(/string|number|expected|pričakovano|prejeto|Invalid/i);
    }
  });
});
