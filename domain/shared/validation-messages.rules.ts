import { z } from 'zod';

/**
 * Slovenian validation messages for every zod schema of the process (API and UI): the spec's
 * generic "Vnos je obvezen" for a missing value, a plain message for an unknown field, and plain
 * sentences for the other failures a person or a client can cause (zod's own Slovenian locale,
 * kept underneath, names JavaScript types: "pričakovano število, prejeto string"). Messages
 * written on a rule (e.g. the password lengths) win.
 */
export const REQUIRED_MESSAGE = 'Vnos je obvezen';
export const UNKNOWN_FIELD_MESSAGE = 'Neznano polje';
export const FORM_INVALID_MESSAGE = 'Prosimo da pravilno izpolnite vsa obvezna polja.';
export const WRONG_KIND_MESSAGE = 'Vnos ni pravilne oblike';

const EXPECTED: Record<string, string> = {
  number: 'Vnesite število',
  int: 'Vnesite celo število',
  string: 'Vnesite besedilo',
  boolean: 'Izberite da ali ne',
  array: 'Vnesite seznam',
};

const FORMATS: Record<string, string> = {
  email: 'Vnesite veljaven e-naslov',
  url: 'Vnesite veljaven spletni naslov',
  datetime: 'Vnesite veljaven datum in čas',
  date: 'Vnesite veljaven datum',
  uuid: 'Vnos ni v pravilni obliki',
};

type Issue = { code?: string; input?: unknown; expected?: unknown; origin?: unknown; maximum?: unknown; minimum?: unknown; values?: unknown; format?: unknown };

/** The message for one zod issue, or undefined to keep zod's own. */
export const plainMessage = (issue: Issue): string | undefined => {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined || issue.input === null ? REQUIRED_MESSAGE : (EXPECTED[String(issue.expected)] ?? WRONG_KIND_MESSAGE);
    case 'unrecognized_keys':
      return UNKNOWN_FIELD_MESSAGE;
    case 'too_big':
      if (issue.origin === 'string') return `Vnos je predolg (največ ${issue.maximum} znakov)`;
      if (issue.origin === 'array' || issue.origin === 'set') return `Preveč izbir (največ ${issue.maximum})`;
      if (issue.origin === 'number' || issue.origin === 'int' || issue.origin === 'bigint') return `Vrednost je prevelika (največ ${issue.maximum})`;
      return undefined;
    case 'too_small':
      if (issue.origin === 'string') return Number(issue.minimum) <= 1 ? REQUIRED_MESSAGE : `Vnos je prekratek (najmanj ${issue.minimum} znakov)`;
      if (issue.origin === 'array' || issue.origin === 'set') return `Izberite vsaj ${issue.minimum}`;
      if (issue.origin === 'number' || issue.origin === 'int' || issue.origin === 'bigint') return `Vrednost je premajhna (najmanj ${issue.minimum})`;
      return undefined;
    case 'invalid_value':
      return Array.isArray(issue.values) && issue.values.length <= 12
        ? `Izberite eno od možnosti: ${issue.values.map((v) => String(v)).join(', ')}`
        : 'Izbrana možnost ni veljavna';
    case 'invalid_format':
      return FORMATS[String(issue.format)] ?? 'Vnos ni v pravilni obliki';
    case 'not_multiple_of':
      return 'Vrednost ni v pravilnih korakih';
    default:
      return undefined;
  }
};

export const configureValidationMessages = () => {
  z.config(z.locales.sl());
  z.config({ customError: (issue) => plainMessage(issue as Issue) });
};
