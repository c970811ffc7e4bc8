import { z } from 'zod';
import { REQUIRED } from '../users/user.rules.ts';

/**
 * The consent types of spec §3/§5 (codes 1 to 4, all required) with the text a user agrees to.
 * `version` names the text: a consent records the version agreed to, and a user is asked again
 * when the text of a required consent changes (docs/decisions/0013-consents.md). Shared by the API
 * and the UI, so the page shows exactly the text whose version is recorded.
 */
export type ConsentTypeCode = 1 | 2 | 3 | 4;

export type ConsentText = {
  readonly type: ConsentTypeCode;
  readonly title: string;
  readonly text: string;
  readonly version: string;
  readonly required: boolean;
};

export const CONSENT_TEXTS: readonly ConsentText[] = [
  {
    type: 1,
    title: 'Splošni pogoji uporabe',
    text: 'Strinjam se s splošnimi pogoji uporabe platforme: dostop je oseben in neprenosljiv, vsebine so namenjene izključno strokovnemu izpopolnjevanju, kreditne točke se podelijo le za izobraževanja, ki jih opravim sam.',
    version: '2026-01',
    required: true,
  },
  {
    type: 2,
    title: 'Varstvo osebnih podatkov',
    text: 'Seznanjen sem s politiko zasebnosti in dovoljujem obdelavo mojih osebnih podatkov (ime, poklic, enota, napredek pri izobraževanjih, odgovori na ankete) za izvajanje izobraževanj, izdajo potrdil in poročanje o kreditnih točkah.',
    version: '2026-01',
    required: true,
  },
  {
    type: 3,
    title: 'Izjava strokovnega delavca v zdravstvu',
    text: 'Izjavljam, da sem strokovni delavec v zdravstvu oziroma lekarništvu in da smem prejemati strokovne informacije o zdravilih, ki so po zakonu namenjene le strokovni javnosti.',
    version: '2026-01',
    required: true,
  },
  {
    type: 4,
    title: 'Obveščanje',
    text: 'Dovoljujem, da me o novih izobraževanjih, spletnih seminarjih in novostih obveščate po elektronski pošti, z e-novicami in s potisnimi obvestili. Privolitev lahko kadar koli prekličem v profilu.',
    version: '2026-01',
    required: true,
  },
];

export const consentText = (type: ConsentTypeCode): ConsentText => CONSENT_TEXTS.find((t) => t.type === type) as ConsentText;

export const REQUIRED_CONSENT_TYPES: readonly ConsentTypeCode[] = CONSENT_TEXTS.filter((t) => t.required).map((t) => t.type);

/** spec §5: consent codes 1 to 4. */
const BAD_TYPE = 'Vrsta privolitve mora biti število med 1 in 4.';
export const consentTypeRule = z
  .number({ error: BAD_TYPE })
  .int({ error: BAD_TYPE })
  .min(1, { error: BAD_TYPE })
  .max(4, { error: BAD_TYPE })
  .transform((value) => value as ConsentTypeCode);

/** Through which channel a consent was given or withdrawn. `admin`: recorded by an admin on the user's behalf. */
export const CONSENT_CHANNELS = ['web', 'mobile', 'admin', 'import'] as const;
export type ConsentChannel = (typeof CONSENT_CHANNELS)[number];

/** Channels a later feature may contact a user on (newsletter, push and notification sends ask first). */
export const CONTACT_CHANNELS = ['email', 'newsletter', 'push'] as const;
export type ContactChannel = (typeof CONTACT_CHANNELS)[number];

/** The note an admin must leave when recording a consent on a user's behalf. */
export const onBehalfNoteRule = z
  .string({ error: REQUIRED })
  .trim()
  .min(5, { error: 'Opomba mora imeti najmanj 5 znakov: zakaj in na podlagi česa privolitev vnašate.' })
  .max(500, { error: 'Opomba je predolga (največ 500 znakov).' });

/** An admin's entry on a user's behalf (permission 1006): give or withdraw one type, with the note. */
export const onBehalfRule = z.object({ action: z.enum(['give', 'withdraw']), type: consentTypeRule, note: onBehalfNoteRule }).strict();
