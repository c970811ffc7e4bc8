import { z } from 'zod';

/**
 * The certificate of a completed course (issue 18 item 3, decision 0032): its short number, its
 * issuer and the words of its accreditation line. Pure: no clock, no I/O.
 */

/** Crockford's base32: no I, L, O or U, so a number read aloud or typed again stays the same. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

const yearIn = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Ljubljana', year: 'numeric' });

/**
 * `ML-<year>-XXXXX-XXXXX`: the year of issue (Ljubljana) and 50 random bits of the certificate's
 * UUID (v4) in Crockford base32. A function of what CertificateIssued has always recorded (the
 * UUID and the time), so certificates issued before the number existed have one too, and the
 * number is hard to guess (2^50 per year): the public verification page cannot be walked.
 */
export const certificateNumber = (certificateId: string, issuedAt: Date): string => {
  const hex = certificateId.replace(/-/g, '').toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(hex)) throw new Error(`Not a UUID: ${certificateId}`);
  // The first 12 hex digits (48 random bits) and the one after the version digit (4 random bits): 52, of which 50 are used.
  let bits = BigInt(`0x${hex.slice(0, 12)}${hex[13]}`) >> 2n;
  let code = '';
  for (let i = 0; i < 10; i++) {
    code = (ALPHABET[Number(bits & 31n)] as string) + code;
    bits >>= 5n;
  }
  return `ML-${yearIn.format(issuedAt)}-${code.slice(0, 5)}-${code.slice(5)}`;
};

export const CERTIFICATE_NUMBER_PATTERN = /^ML-\d{4}-[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$/;

/**
 * A number as someone typed it, in its one spelling (upper case, O read as 0, I and L as 1, spaces
 * for dashes); null when it cannot be a certificate number at all.
 */
export const normaliseCertificateNumber = (input: string): string | null => {
  const compact = input
    .trim()
    .toUpperCase()
    .replace(/[\s–—_]+/g, '-')
    .replace(/[^0-9A-Z-]/g, '');
  const match = /^ML-?(\d{4})-?([0-9A-Z]{5})-?([0-9A-Z]{5})$/.exec(compact);
  if (!match) return null;
  const fix = (s: string) => s.replace(/O/g, '0').replace(/[IL]/g, '1');
  const number = `ML-${match[1]}-${fix(match[2] as string)}-${fix(match[3] as string)}`;
  return CERTIFICATE_NUMBER_PATTERN.test(number) ? number : null;
};

/**
 * Where the participant belonged when the certificate was issued (their unit and its company, names
 * as they were then). It issues the certificate: the unit, when it has a signature of its own, else
 * the company, with that signature (name, role, PNG image) as it is when the PDF is drawn.
 */
export const certificateIssuer = z.object({
  companyId: z.number().int().positive(),
  companyName: z.string(),
  unitId: z.number().int().positive().nullable(),
  unitName: z.string().nullable(),
});
export type CertificateIssuer = z.infer<typeof certificateIssuer>;

/** The professional chambers of a course's sync destination (spec §3, ids 1 to 3): as named and after "pri". */
export const CHAMBERS = {
  1: { name: 'Lekarniška zbornica', locative: 'Lekarniški zbornici' },
  2: { name: 'Zdravniška zbornica', locative: 'Zdravniški zbornici' },
  3: { name: 'Zbornica zdravstvene nege', locative: 'Zbornici zdravstvene nege' },
} as const;

export const chamberOf = (syncDestination: number | null | undefined) =>
  syncDestination === 1 || syncDestination === 2 || syncDestination === 3 ? CHAMBERS[syncDestination] : null;

const decimal = new Intl.NumberFormat('sl-SI', { maximumFractionDigits: 1 });

/**
 * "3 kreditne točke": Slovenian number agreement. Whole numbers by their last two digits (1 ednina,
 * 2 dvojina, 3 and 4 množina, 5 and more rodilnik množine); a decimal number takes the genitive
 * singular, as "1,5 litra" or "2,5 odstotka" do: "1,5 kreditne točke".
 */
export const creditPointsText = (points: number) => {
  const n = decimal.format(points);
  if (!Number.isInteger(points)) return `${n} kreditne točke`;
  const last = points % 100;
  if (last === 1) return `${n} kreditna točka`;
  if (last === 2) return `${n} kreditni točki`;
  if (last === 3 || last === 4) return `${n} kreditne točke`;
  return `${n} kreditnih točk`;
};

/**
 * Whether a whole number, read aloud in Slovenian, begins with a voiceless sound, so that it takes
 * "s" rather than "z": tri, štiri, pet, šest, sedem (and trinajst … sedemnajst, trideset …
 * sedemdeset, sto, tristo … sedemsto, tisoč); units are read before tens ("triindvajset"). Zero
 * (nič), ena, dva, osem, devet, deset, enajst, dvanajst, dvajset, dvesto and osemsto begin voiced or with a vowel.
 */
const readWithVoicelessSound = (whole: number): boolean => {
  const voiceless = (digit: number) => digit >= 3 && digit <= 7;
  if (whole >= 1000) return Math.floor(whole / 1000) === 1 || readWithVoicelessSound(Math.floor(whole / 1000));
  if (whole >= 100) return Math.floor(whole / 100) === 1 || voiceless(Math.floor(whole / 100));
  if (whole >= 20) return voiceless(whole % 10 === 0 ? Math.floor(whole / 10) : whole % 10);
  return voiceless(whole >= 10 ? whole - 10 : whole);
};

/** The same after "ovrednoteno s/z" (orodnik): "z 1 kreditno točko", "z 2 kreditnima točkama", "s 5 kreditnimi točkami", "z 1,5 kreditne točke". */
const withCreditPoints = (points: number) => {
  const n = decimal.format(points);
  // "s" before a voiceless sound as the number is read (tremi, štirimi, petimi, …, tridesetimi, stotimi); otherwise "z".
  const preposition = readWithVoicelessSound(Math.trunc(points)) ? 's' : 'z';
  if (!Number.isInteger(points)) return `${preposition} ${n} kreditne točke`;
  const last = points % 100;
  if (last === 1) return `${preposition} ${n} kreditno točko`;
  if (last === 2) return `${preposition} ${n} kreditnima točkama`;
  return `${preposition} ${n} kreditnimi točkami`;
};

/**
 * The accreditation line of the certificate: "Izobraževanje je ovrednoteno s 3 kreditnimi točkami
 * pri Lekarniški zbornici." Without a chamber (no sync destination) the chamber is left out; a
 * course without credit points has no line.
 */
export const accreditationLine = (points: number, syncDestination: number | null | undefined): string | null => {
  if (!(points > 0)) return null;
  const chamber = chamberOf(syncDestination);
  return `Izobraževanje je ovrednoteno ${withCreditPoints(points)}${chamber ? ` pri ${chamber.locative}` : ''}.`;
};
