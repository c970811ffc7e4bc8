import { z } from 'zod';
import { REQUIRED } from '../users/user.rules.ts';

/** spec §5: company name and address required; unit name required; post code digits only. */
const requiredText = z.string({ error: REQUIRED }).trim().min(1, { error: REQUIRED }).max(255, { error: 'Vnos je predolg' });
const optionalText = z.string().trim().max(255, { error: 'Vnos je predolg' }).nullable();

export const companyRule = z.object({
  name: requiredText,
  address: requiredText,
  city: optionalText,
  zip: z.string().trim().regex(/^\d+$/, { error: 'Poštna številka lahko vsebuje le števke' }).nullable(),
});

export const unitRule = z.object({ name: requiredText });

export const communityGroupRule = z.object({ name: requiredText });

export const professionRule = z.object({ name: requiredText });
