import { z } from 'zod';
import { refId } from '../shared/id.rules.ts';
import { singleLine } from '../shared/text.rules.ts';
import { REQUIRED } from '../users/user.rules.ts';
import { coverRule } from './cover.rules.ts';

/**
 * An academy ("powerclass", spec §3): a titled series of courses. Title, description (at least 20
 * characters, like a course's) and cover are required; at least one course, each once, in order.
 */
const TOO_LONG = 'Vnos je predolg';
const text = (max: number) => z.string({ error: REQUIRED }).trim().min(1, { error: REQUIRED }).max(max, { error: TOO_LONG });

export const academyRule = z
  .object({
    title: singleLine(text(200)),
    description: z.string({ error: REQUIRED }).trim().min(20, { error: 'Opis mora imeti najmanj 20 znakov' }).max(10_000, { error: TOO_LONG }),
    cover: coverRule(singleLine(text(1000))),
    courseIds: z
      .array(refId('course'))
      .min(1, { error: 'Izberite vsaj eno izobraževanje' })
      .max(100, { error: 'Akademija ima lahko največ 100 izobraževanj' })
      .refine((ids) => new Set(ids).size === ids.length, { error: 'Izobraževanje je v akademiji le enkrat' }),
  })
  .strict();

export type AcademyFields = z.infer<typeof academyRule>;
