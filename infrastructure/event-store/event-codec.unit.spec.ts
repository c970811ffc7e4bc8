import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineEvent } from '../../domain/shared/event.ts';
import { createEventCodec, UnknownEventTypeError } from './event-codec.ts';

const v3 = defineEvent('PersonNamed', z.object({ first: z.string(), last: z.string(), title: z.string().nullable() }), {
  version: 3,
  upcasters: {
    1: (data) => ({ full: (data as { name: string }).name }),
    2: (data) => {
      const [first = '', ...rest] = (data as { full: string }).full.split(' ');
      return { first, last: rest.join(' '), title: null };
    },
  },
});

describe('event codec', () => {
  const codec = createEventCodec([v3]);

  it('validates on write and stamps the current schema version', () => {
    expect(codec.encode('PersonNamed', { first: 'Ana', last: 'Novak', title: 'dr.' })).toEqual({
      schemaVersion: 3,
      data: { first: 'Ana', last: 'Novak', title: 'dr.' },
    });
    expect(() => codec.encode('PersonNamed', { first: 'Ana' })).toThrow();
    expect(() => codec.encode('Nobody', {})).toThrow(UnknownEventTypeError);
  });

  it('lifts every older version through each upcaster in turn on read', () => {
    expect(codec.decode('PersonNamed', 1, { name: 'Ana Marija Novak' })).toEqual({ first: 'Ana', last: 'Marija Novak', title: null });
    expect(codec.decode('PersonNamed', 2, { full: 'Ana Novak' })).toEqual({ first: 'Ana', last: 'Novak', title: null });
    expect(codec.decode('PersonNamed', 3, { first: 'A', last: 'B', title: null })).toEqual({ first: 'A', last: 'B', title: null });
  });

  it('refuses two definitions of one type', () => {
    expect(() => createEventCodec([v3, v3])).toThrow(/defined twice/);
  });
});
