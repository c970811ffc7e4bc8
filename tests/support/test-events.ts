import { z } from 'zod';
import { defineEvent } from '../../domain/shared/event.ts';

/** Event types for store and runner tests, independent of any feature. */
export const testEvents = [defineEvent('TestHappened', z.object({ n: z.number().int() })), defineEvent('TestNoted', z.object({ text: z.string() }))] as const;

/** Version 1 of `TestRenamed` stored `{ name }`. */
export const renamedV1 = defineEvent('TestRenamed', z.object({ name: z.string() }));

/** Version 2 splits the name; the upcaster lifts version 1 data. */
export const renamedV2 = defineEvent('TestRenamed', z.object({ firstName: z.string(), lastName: z.string() }), {
  version: 2,
  upcasters: {
    1: (data) => {
      const [firstName = '', ...rest] = String((data as { name: string }).name).split(' ');
      return { firstName, lastName: rest.join(' ') };
    },
  },
});
