import { z } from 'zod';
import { type ReferenceKind, reference, refId } from '../shared/id.rules.ts';
import { singleLine } from '../shared/text.rules.ts';
import { REQUIRED } from '../users/user.rules.ts';

/**
 * Field rules of spec §5 for the organisation forms, shared by the API and the UI: company name
 * and address required, post code digits only, unit name required, group name required, profession
 * group name at least 3 characters, tag name required. Messages are Slovenian.
 */
const TOO_LONG = 'Vnos je predolg';
const requiredText = (max = 255) => singleLine(z.string({ error: REQUIRED }).trim().min(1, { error: REQUIRED }).max(max, { error: TOO_LONG }));
/** An optional text: empty means none. */
const optionalText = (max = 255) =>
  singleLine(z.string().trim().max(max, { error: TOO_LONG }))
    .nullish()
    .transform((v) => (v ? v : null));
const optionalId = (kind: ReferenceKind) =>
  refId(kind)
    .nullish()
    .transform((v) => v ?? null);

/** The three professional chambers a company's data can be synced to (spec §3). */
export const SYNC_DESTINATIONS = [1, 2, 3] as const;

export const zipRule = z
  .string()
  .trim()
  .regex(/^\d*$/, { error: 'Poštna številka lahko vsebuje le števke' })
  .max(10, { error: TOO_LONG })
  .nullish()
  .transform((v) => (v ? v : null));

const syncDestinationRule = z
  .union([z.literal(1), z.literal(2), z.literal(3)], { error: 'Izberite eno od zbornic' })
  .nullish()
  .transform((v) => v ?? null);

export const companyRule = z
  .object({
    name: requiredText(),
    address: requiredText(),
    city: optionalText(),
    zip: zipRule,
    region: optionalText(),
    tagId: optionalId('companyTag'),
    vat: optionalText(40),
    parentCompanyId: optionalId('company'),
    externalId: optionalText(100),
    syncDestination: syncDestinationRule,
    financial: z
      .object({ iban: optionalText(40), swift: optionalText(20), billingEmail: optionalText(254) })
      .strict()
      .nullish()
      .transform((v) => ({ iban: v?.iban ?? null, swift: v?.swift ?? null, billingEmail: v?.billingEmail ?? null })),
  })
  .strict();

export type CompanyFields = z.output<typeof companyRule>;

/** The certificate signature: name and role of the signatory and a PNG image (recommended 200x60). */
export const signatureRule = z
  .object({
    name: requiredText(120),
    role: requiredText(120),
    imageFileId: optionalId('file'),
  })
  .strict();

/** spec §5: unit name required, post code digits only; the rest of spec §3's address fields optional. */
export const unitRule = z
  .object({
    name: requiredText(),
    companyId: reference('company', z.number({ error: REQUIRED }).int().positive({ error: REQUIRED }).max(2_147_483_647, { error: REQUIRED })),
    tagId: optionalId('unitTag'),
    address: optionalText(),
    city: optionalText(),
    zip: zipRule,
    region: optionalText(),
    vat: optionalText(40),
    externalId: optionalText(100),
    syncDestination: syncDestinationRule,
  })
  .strict();

export const communityGroupRule = z
  .object({
    name: requiredText(),
    unitIds: z.array(refId('unit')).max(5000).default([]),
  })
  .strict();

export const professionRule = z
  .object({
    name: requiredText(),
    groupId: optionalId('professionGroup'),
    needsLicenceNumber: z.boolean().default(false),
    needsChamberNumber: z.boolean().default(false),
    /** The chamber its people's credit points are reported to (issue 32 item 4). */
    chamber: syncDestinationRule,
    /** Its people may prescribe or supply medicines: they may receive RX courses (issue 36, decision 0062). */
    mayPrescribe: z.boolean().default(false),
  })
  .strict();

export const professionGroupRule = z
  .object({
    name: z
      .string({ error: REQUIRED })
      .trim()
      .min(1, { error: REQUIRED })
      .min(3, { error: 'Ime skupine mora imeti najmanj 3 znake' })
      .max(255, { error: TOO_LONG }),
  })
  .strict();

export const TAG_KINDS = ['company', 'course', 'profession', 'unit'] as const;
export type TagKind = (typeof TAG_KINDS)[number];

export const tagRule = z
  .object({
    name: requiredText(100),
    internalUse: z.boolean().default(false),
  })
  .strict();

export const tagKindRule = z.enum(TAG_KINDS);
