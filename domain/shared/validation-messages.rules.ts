import { z } from 'zod';

/**
 * Slovenian validation messages for every zod schema of the process (API and UI): zod's own
 * Slovenian locale, with the spec's generic "Vnos je obvezen" for a missing value and a plain
 * message for an unknown field. Messages written on a rule (e.g. the password lengths) win.
 */
export const REQUIRED_MESSAGE = 'Vnos je obvezen';
export const UNKNOWN_FIELD_MESSAGE = 'Neznano polje';
export const FORM_INVALID_MESSAGE = 'Prosimo da pravilno izpolnite vsa obvezna polja.';

export const configureValidationMessages = () => {
  z.config(z.locales.sl());
  z.config({
    customError: (issue) => {
      if (issue.code === 'invalid_type' && issue.input === undefined) return REQUIRED_MESSAGE;
      if (issue.code === 'unrecognized_keys') return UNKNOWN_FIELD_MESSAGE;
      return undefined;
    },
  });
};
