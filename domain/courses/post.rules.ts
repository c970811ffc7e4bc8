import { z } from 'zod';
import { REQUIRED } from '../users/user.rules.ts';

/** A comment or question on a course (spec §3 Post): a message, shown as plain text, and the anonymous flag. */
export const POST_MAX_LENGTH = 5000;

export const postMessageRule = z
  .string({ error: REQUIRED })
  .trim()
  .min(1, { error: REQUIRED })
  .max(POST_MAX_LENGTH, { error: `Sporočilo je predolgo (največ ${POST_MAX_LENGTH} znakov)` });

export const postRule = z.object({ message: postMessageRule, anonymous: z.boolean().default(false) }).strict();
