import { z } from 'zod';
import { singleLine } from '../shared/text.rules.ts';

/**
 * Field rules of spec §5 shared by the API and the UI forms, with the spec's Slovenian messages.
 * Pure zod, no I/O: the UI imports this file.
 */
export const REQUIRED = 'Vnos je obvezen';

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 24;
export const USERNAME_MIN = 2;
export const USERNAME_MAX = 256;

export const passwordRule = z
  .string({ error: REQUIRED })
  .min(1, { error: REQUIRED })
  .min(PASSWORD_MIN, { error: `Geslo je prekratko (zahtevano je najmanj ${PASSWORD_MIN} znakov)` })
  .max(PASSWORD_MAX, { error: `Geslo je predolgo (zahtevano je največ ${PASSWORD_MAX} znakov)` });

export const usernameRule = z
  .string({ error: REQUIRED })
  .min(1, { error: REQUIRED })
  .min(USERNAME_MIN, { error: `Uporabniško ime je prekratko (zahtevani sta najmanj ${USERNAME_MIN} znaki)` })
  .max(USERNAME_MAX, { error: `Uporabniško ime je predolgo (dovoljenih je največ ${USERNAME_MAX} znakov)` })
  .regex(/^[\p{L}\p{N}]+$/u, { error: 'Uporabniško ime lahko vsebuje le črke in številke' });

export const emailRule = z
  .string({ error: REQUIRED })
  .trim()
  .min(1, { error: REQUIRED })
  .max(254, { error: 'E-naslov je predolg' })
  .pipe(z.email({ error: 'Vnesite veljaven e-naslov' }));

export const personNameRule = singleLine(z.string({ error: REQUIRED }).trim().min(1, { error: REQUIRED }).max(100, { error: 'Vnos je predolg' }));

/** The login form: username or e-mail (sent lowercased) and password. */
export const loginFormRule = z.object({
  usernameOrEmail: singleLine(z.string({ error: REQUIRED }).trim().min(1, { error: REQUIRED }).max(USERNAME_MAX, { error: 'Vnos je predolg' })),
  password: z.string({ error: REQUIRED }).min(1, { error: REQUIRED }).max(1024, { error: 'Vnos je predolg' }),
});

export const passwordConfirmationRule = z
  .object({ password: passwordRule, passwordConfirmation: z.string({ error: REQUIRED }) })
  .refine((v) => v.password === v.passwordConfirmation, { error: 'Gesli se ne ujemata', path: ['passwordConfirmation'] });
