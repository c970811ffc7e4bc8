import { z } from 'zod';
import { notAReference, reference } from '../shared/id.rules.ts';
import { singleLine } from '../shared/text.rules.ts';

/**
 * Field rules of spec §5 shared by the API and the UI forms, with the spec's Slovenian messages.
 * Pure zod, no I/O: the UI imports this file.
 */
export const REQUIRED = 'Vnos je obvezen';

/** spec §7 regFormId: the registration form the client says it came from; it names no record. */
export const regFormIdRule = notAReference(z.union([z.string().max(100), z.number().int()]), 'the registration form the client sends (spec §7)').optional();

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

/**
 * spec §5 "Gesli se ne ujemata" on the confirmation field. It is checked even while other fields
 * have errors (zod would otherwise wait for the whole form), so a form shows every message at once.
 */
const PASSWORDS_MATCH = {
  error: 'Gesli se ne ujemata',
  path: ['passwordConfirmation'],
  when: (payload: { value: unknown; issues: readonly { path?: readonly PropertyKey[] }[] }) =>
    typeof (payload.value as { password?: unknown })?.password === 'string' &&
    typeof (payload.value as { passwordConfirmation?: unknown })?.passwordConfirmation === 'string',
};

export const passwordConfirmationRule = z
  .object({ password: passwordRule, passwordConfirmation: z.string({ error: REQUIRED }) })
  .refine((v) => v.password === v.passwordConfirmation, PASSWORDS_MATCH);

const TOO_LONG = 'Vnos je predolg';
/** An optional single-line text: empty means none. */
const optionalLine = (max: number) =>
  singleLine(z.string().trim().max(max, { error: TOO_LONG }))
    .nullish()
    .transform((v) => v || null);

/** spec §5: phone required; digits with the usual separators and an optional leading +. */
export const phoneRule = singleLine(
  z
    .string({ error: REQUIRED })
    .trim()
    .min(1, { error: REQUIRED })
    .max(30, { error: TOO_LONG })
    // An empty phone has its own message above; the format is judged only on something typed.
    .refine((v) => v === '' || /^\+?[0-9][0-9 ()/-]{4,}$/.test(v), { error: 'Vnesite veljavno telefonsko številko' }),
);

/** spec §5 and §9: licence number 1 to 5 characters (required where the profession needs it: checked against the profession). */
export const licenceNumberRule = singleLine(z.string().trim().max(5, { error: 'Številka licence ima največ 5 znakov' }))
  .nullish()
  .transform((v) => v || null);

/** A user's own profile (spec §3): names, phone, profession with the other job, licence and chamber membership numbers. */
export const profileRule = z
  .object({
    firstName: personNameRule,
    middleName: optionalLine(100),
    lastName: personNameRule,
    phone: phoneRule,
    professionId: reference('profession', z.number({ error: REQUIRED }).int().positive({ error: REQUIRED }).max(2_147_483_647, { error: REQUIRED })),
    otherJob: optionalLine(100),
    licenceNumber: licenceNumberRule,
    chamberMembershipNumber: optionalLine(20),
    /** spec §3 secondaryEmail: optional; another user's address is refused (422016). */
    secondaryEmail: z
      .string()
      .trim()
      .max(254, { error: 'E-naslov je predolg' })
      .refine((v) => v === '' || z.email().safeParse(v).success, { error: 'Vnesite veljaven e-naslov' })
      .nullish()
      .transform((v) => (v ? v.toLowerCase() : null)),
  })
  .strict();

export type ProfileFields = z.output<typeof profileRule>;

/** Changing one's own password: the current one, then the new one twice (spec §5 lengths and "Gesli se ne ujemata"). */
export const passwordChangeRule = z
  .object({
    currentPassword: z.string({ error: REQUIRED }).min(1, { error: REQUIRED }).max(1024, { error: TOO_LONG }),
    password: passwordRule,
    passwordConfirmation: z.string({ error: REQUIRED }),
  })
  .strict()
  .refine((v) => v.password === v.passwordConfirmation, PASSWORDS_MATCH);

/** spec §8: a request to delete one's data, with an optional reason. */
export const deletionRequestRule = z
  .object({
    reason: z
      .string()
      .trim()
      .max(500, { error: TOO_LONG })
      .nullish()
      .transform((v) => v || null),
  })
  .strict();

/**
 * Registration (spec §2 /registracija, §3, §5): every user field, the password twice, and the four
 * required consents. First, middle and last name, phone and profession are required (§5); the
 * licence and chamber numbers are required where the profession asks for them (checked against the
 * profession). `socialToken` carries a social identity waiting to be bound (a sign-in with an
 * unknown Google or Facebook account).
 */
export const REQUIRED_CONSENT_CODES = [1, 2, 3, 4] as const;
export const CONSENTS_REQUIRED_MESSAGE = 'Za registracijo potrebujemo vse obvezne privolitve.';

export const registrationRule = z
  .object({
    username: usernameRule,
    email: emailRule,
    password: passwordRule,
    passwordConfirmation: z.string({ error: REQUIRED }),
    firstName: personNameRule,
    middleName: personNameRule,
    lastName: personNameRule,
    phone: phoneRule,
    professionId: reference('profession', z.number({ error: REQUIRED }).int().positive({ error: REQUIRED }).max(2_147_483_647, { error: REQUIRED })),
    otherJob: optionalLine(100),
    licenceNumber: licenceNumberRule,
    chamberMembershipNumber: optionalLine(20),
    consents: z
      .array(z.number().int())
      .max(10)
      .refine((given) => REQUIRED_CONSENT_CODES.every((code) => given.includes(code)), { error: CONSENTS_REQUIRED_MESSAGE }),
    regFormId: regFormIdRule,
    socialToken: z.string().max(4000).optional(),
  })
  .strict()
  .refine((v) => v.password === v.passwordConfirmation, PASSWORDS_MATCH);

export type RegistrationFields = z.output<typeof registrationRule>;

/** The address a reset, a confirmation or a new-user link is asked for. */
export const emailRequestRule = z.object({ email: emailRule }).strict();

/** A link's token, and for a password reset or first password the new password twice. */
export const tokenRule = z.object({ token: z.string({ error: REQUIRED }).trim().min(1, { error: REQUIRED }).max(200) }).strict();
export const passwordResetRule = z
  .object({
    token: z.string({ error: REQUIRED }).trim().min(1, { error: REQUIRED }).max(200),
    password: passwordRule,
    passwordConfirmation: z.string({ error: REQUIRED }),
  })
  .strict()
  .refine((v) => v.password === v.passwordConfirmation, PASSWORDS_MATCH);

/** A new e-mail, confirmed by the current password. */
export const emailChangeRule = z.object({ email: emailRule, password: z.string({ error: REQUIRED }).min(1, { error: REQUIRED }).max(1024) }).strict();

/** The second factor switched on or off, confirmed by the current password. */
export const secondFactorSettingRule = z
  .object({ enabled: z.boolean({ error: REQUIRED }), password: z.string({ error: REQUIRED }).min(1, { error: REQUIRED }).max(1024) })
  .strict();

/** The code from the mail (6 digits) with the token the login answered, and "remember me". */
export const secondFactorAnswerRule = z
  .object({
    auth2FAToken: z.string({ error: REQUIRED }).min(1, { error: REQUIRED }).max(2000),
    code: z
      .string({ error: REQUIRED })
      .trim()
      .regex(/^\d{6}$/, { error: 'Koda ima 6 števk' }),
    rememberMe: z.boolean().default(false),
  })
  .strict();
