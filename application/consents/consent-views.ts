import { z } from 'zod';
import { CONSENT_TEXTS, consentText } from '../../domain/consents/consent.rules.ts';
import type { ConsentEvent, ConsentState } from '../../domain/consents/consent.ts';
import type { ChainVerification } from '../../domain/consents/consent-chain.ts';

/** Where one consent type stood (now, or as of a date). */
export const standingSchema = z.object({
  type: z.number(),
  title: z.string(),
  given: z.boolean(),
  textVersion: z.string().nullable(),
  at: z.string().nullable(),
  channel: z.string().nullable(),
  onBehalfOf: z.object({ adminId: z.number(), note: z.string() }).nullable(),
});

export const timelineRowSchema = z.object({
  sequence: z.number(),
  position: z.string(),
  at: z.string(),
  action: z.enum(['given', 'withdrawn']),
  type: z.number(),
  title: z.string(),
  textVersion: z.string(),
  channel: z.string(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  recordedBy: z.object({ id: z.number(), name: z.string() }).nullable(),
  note: z.string().nullable(),
  hash: z.string(),
});

export type TimelineRow = z.infer<typeof timelineRowSchema>;
export type StandingRow = z.infer<typeof standingSchema>;

export const verificationSchema = z.object({
  valid: z.boolean(),
  checked: z.number(),
  broken: z.object({ index: z.number(), position: z.string().nullable(), reason: z.string(), message: z.string() }).nullable(),
  /** The stream against the latest signed checkpoint (decision 0052); null before the first. */
  checkpoint: z
    .object({ sequence: z.number(), at: z.string(), valid: z.boolean(), finding: z.string().nullable(), message: z.string().nullable() })
    .nullable()
    .default(null),
});

const REASONS: Record<string, string> = {
  hash: 'podatki dogodka se ne ujemajo z njegovim zgoščenim zapisom (dogodek je bil spremenjen)',
  link: 'dogodek se ne navezuje na zgoščeni zapis prejšnjega (prejšnji dogodek je bil spremenjen ali zamenjan)',
  sequence: 'zaporedna številka ne sledi prejšnji (dogodek je bil odstranjen ali vrinjen)',
  shape: 'dogodek nima zgoščenega zapisa',
};

export const toVerification = (result: ChainVerification) => ({
  valid: result.valid,
  checked: result.checked,
  broken: result.valid
    ? null
    : {
        ...result.broken,
        message: `Veriga je prekinjena pri dogodku št. ${result.broken.index + 1}: ${REASONS[result.broken.reason] ?? result.broken.reason}.`,
      },
});

export const toStanding = (state: ConsentState): StandingRow[] =>
  CONSENT_TEXTS.map((text) => {
    const standing = state.standings[text.type];
    return {
      type: text.type,
      title: text.title,
      given: standing?.given ?? false,
      textVersion: standing?.textVersion ?? null,
      at: standing?.at ?? null,
      channel: standing?.channel ?? null,
      onBehalfOf: standing?.onBehalfOf ?? null,
    };
  });

/** The history as auditors read it, with the name of the admin who recorded an entry on the user's behalf. */
export const toTimeline = async (
  history: readonly { event: ConsentEvent; position: string }[],
  names: (ids: readonly number[]) => Promise<Map<number, string>>,
): Promise<TimelineRow[]> => {
  const admins = [...new Set(history.flatMap((h) => (h.event.data.onBehalfOf ? [h.event.data.onBehalfOf.adminId] : [])))];
  const known = await names(admins);
  return history.map(({ event, position }) => {
    const d = event.data;
    const type = d.consentType as 1 | 2 | 3 | 4;
    return {
      sequence: d.sequence,
      position,
      at: d.at,
      action: event.type === 'ConsentGiven' ? 'given' : 'withdrawn',
      type,
      title: consentText(type).title,
      textVersion: d.textVersion,
      channel: d.channel,
      ip: d.ip,
      userAgent: d.userAgent,
      recordedBy: d.onBehalfOf ? { id: d.onBehalfOf.adminId, name: known.get(d.onBehalfOf.adminId) ?? `#${d.onBehalfOf.adminId}` } : null,
      note: d.onBehalfOf?.note ?? null,
      hash: d.hash,
    };
  });
};
