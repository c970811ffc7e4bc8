import { z } from 'zod';
import { MAX_ID, notAReference, reference } from '../shared/id.rules.ts';

/**
 * Exports (spec §2 /admin/exports, §3 Export record, §4 statuses, §5 "Export requires all fields
 * filled", §8 "Export: all fields must be filled"; issue 17 item 2; decision 0026). Shared by the
 * API and the export form.
 */
export const EXPORT_KINDS = ['users', 'participants', 'nps', 'costs', 'consents', 'chambers'] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];

/** spec §4: initiated (in queue), computing, finished, error. */
export const EXPORT_STATUSES = ['initiated', 'computing', 'finished', 'error'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

/** spec §5 and §8, in Slovenian: every parameter of an export is required. */
export const EXPORT_FIELDS_REQUIRED = 'Za izvoz morajo biti izpolnjena vsa polja.';
export const EXPORT_KIND_REQUIRED = 'Izberite vrsto izvoza.';
export const EXPORT_PERIOD_ORDER = 'Konec obdobja ne sme biti pred začetkom.';
export const EXPORT_DAY_INVALID = 'Vnesite veljaven datum.';

/** Which users a users export holds; `all` includes deleted accounts. */
export const EXPORT_USER_STATUSES = ['active', 'inactive', 'deleted', 'all'] as const;

const required = { error: EXPORT_FIELDS_REQUIRED };

/** An id the user picked (a course, a company). */
const pickedId = z.number(required).int(required).positive(required).max(MAX_ID, required);
/** A company, or 0 for every company (as `unit_id 0` means every unit, spec §6). */
const companyOrAll = reference('company', z.number(required).int(required).min(0, required).max(MAX_ID, required));
/** A course's interval by its 1-based position, or 0 for all time (decision 0015). */
const interval = notAReference(
  z.number(required).int(required).min(0, required).max(1000, required),
  'a position among the intervals of the course the same body names (checked with it)',
);

const isDay = (value: string) => {
  const at = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 10) === value;
};
/** A calendar day in Ljubljana, `YYYY-MM-DD`. */
const day = z
  .string(required)
  .min(1, { ...required, abort: true })
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: EXPORT_DAY_INVALID, abort: true })
  .refine(isDay, { error: EXPORT_DAY_INVALID });

/** A period of whole days in Ljubljana time, both ends included. */
const periodOrder = { error: EXPORT_PERIOD_ORDER, path: ['to'] };
const inOrder = (p: { from: string; to: string }) => p.from <= p.to;

export const usersExportParameters = z.object({ companyId: companyOrAll, status: z.enum(EXPORT_USER_STATUSES, required) }, required).strict();
export const participantsExportParameters = z.object({ courseId: reference('course', pickedId), intervalId: interval }, required).strict();
export const npsExportParameters = z
  .object({ courseId: reference('course', pickedId), from: day, to: day }, required)
  .strict()
  .refine(inOrder, periodOrder);
export const costsExportParameters = z
  .object({ companyId: reference('company', pickedId), from: day, to: day }, required)
  .strict()
  .refine(inOrder, periodOrder);
/** A professional chamber (spec §3 sync destination 1-3): its credit points earned in the period (decision 0030). */
const chamber = z.union([z.literal(1), z.literal(2), z.literal(3)], required);
export const chambersExportParameters = z.object({ chamber, from: day, to: day }, required).strict().refine(inOrder, periodOrder);
export const consentsExportParameters = z.object({ companyId: companyOrAll, from: day, to: day }, required).strict().refine(inOrder, periodOrder);

/** What an admin (or an accountant, an auditor) asks to export: the kind and its parameters, every one required. */
export const exportRequestRule = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('users'), parameters: usersExportParameters }).strict(),
    z.object({ kind: z.literal('participants'), parameters: participantsExportParameters }).strict(),
    z.object({ kind: z.literal('nps'), parameters: npsExportParameters }).strict(),
    z.object({ kind: z.literal('costs'), parameters: costsExportParameters }).strict(),
    z.object({ kind: z.literal('consents'), parameters: consentsExportParameters }).strict(),
    z.object({ kind: z.literal('chambers'), parameters: chambersExportParameters }).strict(),
  ],
  { error: EXPORT_KIND_REQUIRED },
);

export type ExportRequest = z.output<typeof exportRequestRule>;
export type ExportParameters = ExportRequest['parameters'];
export type ParametersOf<K extends ExportKind> = Extract<ExportRequest, { kind: K }>['parameters'];

const FILE_SLUG: Readonly<Record<ExportKind, string>> = {
  users: 'uporabniki',
  participants: 'udelezenci',
  nps: 'nps',
  costs: 'stroski',
  consents: 'privolitve',
  chambers: 'zbornica',
};

/** The name an export's file is downloaded under. */
export const exportFileName = (exportId: number, kind: ExportKind) => `izvoz-${exportId}-${FILE_SLUG[kind]}.xlsx`;

/** Whether a stored file's name is an export's (the file route never serves those, decision 0026). */
export const isExportFileName = (name: string) => /^izvoz-\d+-[a-z]+\.xlsx$/.test(name);
