import { describe, expect, it } from 'vitest';
import { CONSENTS_REQUIRED_MESSAGE, passwordChangeRule, passwordResetRule, profileRule, registrationRule, secondFactorAnswerRule } from './user.rules.ts';

/** The spec §5 field rules the API and the forms share: each message as the spec words it. */
const valid = {
  username: 'ana2',
  email: 'Ana@Test.si',
  password: 'Geslo123',
  passwordConfirmation: 'Geslo123',
  firstName: 'Ana',
  middleName: 'Marija',
  lastName: 'Novak',
  phone: '+386 41 123 456',
  professionId: 3,
  otherJob: '',
  licenceNumber: '',
  chamberMembershipNumber: '',
  consents: [1, 2, 3, 4],
};

const messages = (input: unknown) => {
  const result = registrationRule.safeParse(input);
  return result.success ? {} : Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]));
};

describe('registration rules (spec §5)', () => {
  it('accepts a complete form, trims the e-mail and turns empty optional fields into null', () => {
    const parsed = registrationRule.parse({ ...valid, email: ' Ana@Test.si ' });
    expect(parsed.email).toBe('Ana@Test.si');
    expect(parsed).toMatchObject({ otherJob: null, licenceNumber: null, chamberMembershipNumber: null });
  });

  it('words the password length limits as the spec does: 8 to 24 characters', () => {
    expect(messages({ ...valid, password: '1234567', passwordConfirmation: '1234567' }).password).toBe('Geslo je prekratko (zahtevano je najmanj 8 znakov)');
    expect(messages({ ...valid, password: 'a'.repeat(25), passwordConfirmation: 'a'.repeat(25) }).password).toBe(
      'Geslo je predolgo (zahtevano je največ 24 znakov)',
    );
    expect(messages({ ...valid, password: 'a'.repeat(8), passwordConfirmation: 'a'.repeat(8) })).toEqual({});
    expect(messages({ ...valid, password: 'a'.repeat(24), passwordConfirmation: 'a'.repeat(24) })).toEqual({});
  });

  it('says "Gesli se ne ujemata" on the confirmation, also while other fields are still empty', () => {
    expect(messages({ ...valid, passwordConfirmation: 'Geslo124' })).toEqual({ passwordConfirmation: 'Gesli se ne ujemata' });
    const all = messages({ ...valid, firstName: '', phone: '', professionId: null, passwordConfirmation: 'x' });
    expect(all).toMatchObject({
      firstName: 'Vnos je obvezen',
      phone: 'Vnos je obvezen',
      professionId: 'Vnos je obvezen',
      passwordConfirmation: 'Gesli se ne ujemata',
    });
  });

  it('allows letters and digits only in a username of 2 to 256 characters', () => {
    expect(messages({ ...valid, username: 'a' }).username).toMatch(/prekratko/);
    expect(messages({ ...valid, username: 'a'.repeat(257) }).username).toMatch(/predolgo/);
    expect(messages({ ...valid, username: 'ana.novak' }).username).toBe('Uporabniško ime lahko vsebuje le črke in številke');
    expect(messages({ ...valid, username: 'ŽanČ2' })).toEqual({});
  });

  it('requires first, middle and last name, phone, profession and every required consent', () => {
    const result = messages({ ...valid, firstName: ' ', middleName: '', lastName: '', phone: '', professionId: undefined, consents: [1, 2, 4] });
    expect(result).toEqual({
      firstName: 'Vnos je obvezen',
      middleName: 'Vnos je obvezen',
      lastName: 'Vnos je obvezen',
      phone: 'Vnos je obvezen',
      professionId: 'Vnos je obvezen',
      consents: CONSENTS_REQUIRED_MESSAGE,
    });
  });

  it('checks the phone format only on something typed, and the e-mail', () => {
    expect(messages({ ...valid, phone: 'telefon' }).phone).toBe('Vnesite veljavno telefonsko številko');
    expect(messages({ ...valid, email: 'ana@' }).email).toBe('Vnesite veljaven e-naslov');
    expect(messages({ ...valid, email: '' }).email).toBe('Vnos je obvezen');
  });

  it('keeps the licence number to 1 to 5 characters (spec §9)', () => {
    expect(messages({ ...valid, licenceNumber: '123456' }).licenceNumber).toBe('Številka licence ima največ 5 znakov');
    expect(registrationRule.parse({ ...valid, licenceNumber: ' 12345 ' }).licenceNumber).toBe('12345');
  });

  it('refuses unknown fields and control characters in names', () => {
    expect(registrationRule.safeParse({ ...valid, admin: true }).success).toBe(false);
    expect(messages({ ...valid, firstName: 'Ana\u0000' }).firstName).toBeTruthy();
  });
});

describe('profile, password and second-factor rules', () => {
  it('takes an optional secondary e-mail, checked as an address', () => {
    const base = { firstName: 'Ana', lastName: 'Novak', phone: '041123456', professionId: 1 };
    expect(profileRule.parse({ ...base, secondaryEmail: '' }).secondaryEmail).toBeNull();
    expect(profileRule.parse({ ...base, secondaryEmail: 'Druga@Test.si' }).secondaryEmail).toBe('druga@test.si');
    expect(profileRule.safeParse({ ...base, secondaryEmail: 'druga' }).success).toBe(false);
  });

  it('applies the §5 password rules to a change and a reset', () => {
    expect(passwordChangeRule.safeParse({ currentPassword: 'x', password: 'short', passwordConfirmation: 'short' }).error?.issues[0]?.message).toBe(
      'Geslo je prekratko (zahtevano je najmanj 8 znakov)',
    );
    expect(passwordResetRule.safeParse({ token: 't', password: 'Geslo123', passwordConfirmation: 'Geslo321' }).error?.issues[0]?.message).toBe(
      'Gesli se ne ujemata',
    );
  });

  it('takes a second-factor code of exactly 6 digits', () => {
    expect(secondFactorAnswerRule.safeParse({ auth2FAToken: 't', code: '12345' }).success).toBe(false);
    expect(secondFactorAnswerRule.safeParse({ auth2FAToken: 't', code: '12345a' }).success).toBe(false);
    expect(secondFactorAnswerRule.parse({ auth2FAToken: 't', code: ' 123456 ' })).toEqual({ auth2FAToken: 't', code: '123456', rememberMe: false });
  });
});
