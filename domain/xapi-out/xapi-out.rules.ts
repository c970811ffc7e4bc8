import { z } from 'zod';

/**
 * The delivery log and the backfill (issue 35 item 5, decision 0061), as the API and the admin page
 * check them: a statement waits (čaka), was sent (poslano) or failed for good (napaka).
 */
export const DELIVERY_STATUSES = ['pending', 'sent', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** A position in the event log as the API writes it (`X-Event-Position`): `<commit>-<prepare>`. */
export const EVENT_POSITION_PATTERN = /^\d{1,19}-\d{1,19}$/;

/** A position's halves are PostgreSQL bigints. */
const INT8_MAX = 9_223_372_036_854_775_807n;

/** A day of the platform's time (years 2000 to 2999): a backfill from before it existed reads the same as from its start. */
const DAY = /^2\d{3}-\d{2}-\d{2}$/;
const isDay = (value: string) => {
  const at = DAY.test(value) ? Date.parse(`${value}T00:00:00Z`) : Number.NaN;
  return !Number.isNaN(at) && new Date(at).toISOString().slice(0, 10) === value;
};

/**
 * "Pošlji znova od …": statements of events from a day (Ljubljana time) or from a position in the log
 * on are queued again; the LRS keeps each once, since each is sent with its own id again.
 */
export const backfillRule = z
  .object({
    from: z.string().trim().refine(isDay, { error: 'Vnesite veljaven datum' }).optional(),
    position: z
      .string()
      .trim()
      .regex(EVENT_POSITION_PATTERN, { error: 'Položaj dogodka je oblike 123-456' })
      .refine((v) => !EVENT_POSITION_PATTERN.test(v) || v.split('-').every((part) => BigInt(part) <= INT8_MAX), { error: 'Takega položaja dogodka ni' })
      .optional(),
  })
  .strict()
  .refine((b) => (b.from === undefined) !== (b.position === undefined), { error: 'Vnesite datum ali položaj dogodka (eno od obeh)', path: ['from'] });
export type BackfillRequest = z.output<typeof backfillRule>;
