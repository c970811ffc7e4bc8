import { z } from 'zod';
import { refId } from '../shared/id.rules.ts';
import { singleLine } from '../shared/text.rules.ts';
import { REQUIRED } from '../users/user.rules.ts';

/**
 * A newsletter issue (spec §3 Newsletter, §5): title and description required, a valid address,
 * keywords, the professions it is for (none: every profession), a cover (recommended 800 x 600),
 * published or not. Shared by the API and the UI form.
 */
const TOO_LONG = 'Vnos je predolg';
const INVALID_URL = 'Vnesite veljaven naslov (https://…)';
const optionalLine = (max: number) =>
  singleLine(z.string().trim().max(max, { error: TOO_LONG }))
    .nullish()
    .transform((v) => v || null);
const httpsUrl = (max: number) =>
  singleLine(z.string().trim().max(max, { error: TOO_LONG }))
    .refine((v) => v === '' || /^https:\/\/[^\s/]+\.[^\s]+$/.test(v), { error: INVALID_URL })
    .nullish()
    .transform((v) => v || null);

export const newsletterRule = z
  .object({
    title: singleLine(z.string({ error: REQUIRED }).trim().min(1, { error: REQUIRED }).max(200, { error: TOO_LONG })),
    issue: optionalLine(40),
    description: z.string({ error: REQUIRED }).trim().min(1, { error: REQUIRED }).max(5000, { error: TOO_LONG }),
    keywords: z
      .array(singleLine(z.string().trim().min(1, { error: REQUIRED }).max(50, { error: TOO_LONG })))
      .max(20, { error: 'Največ 20 ključnih besed' })
      .default([]),
    /** An https address or an uploaded image (/api/files/{id}). */
    imageUrl: singleLine(z.string().trim().max(1000, { error: TOO_LONG }))
      .refine((v) => v === '' || /^\/api\/files\/[1-9]\d{0,9}$/.test(v) || /^https:\/\/[^\s/]+\.[^\s]+$/.test(v), { error: INVALID_URL })
      .nullish()
      .transform((v) => v || null),
    url: httpsUrl(1000),
    professionIds: z.array(refId('profession')).max(500).default([]),
    published: z.boolean().default(false),
  })
  .strict();

export type NewsletterFields = z.output<typeof newsletterRule>;
