import { z } from 'zod';
import { notAReference } from '../shared/id.rules.ts';

/**
 * What a course report is asked for with (spec §3 Report log: date, interval, children, npsDetailed,
 * npsReasons): the interval (its 1-based position among the course's intervals; 0 is all time), the
 * instant the figures are shown as of (left out: now), and three options. Shared by the API and the
 * report tab's form.
 */
export const REPORT_MAX_INTERVAL = 1000;

export const courseReportRule = z
  .object({
    intervalId: notAReference(
      z
        .number({ error: 'Izberite termin.' })
        .int({ error: 'Izberite termin.' })
        .min(0, { error: 'Izberite termin.' })
        .max(REPORT_MAX_INTERVAL, { error: 'Izberite termin.' }),
      'a position among the intervals of the course in the path',
    ),
    /** The figures as they stood at this instant; left out: when the report is generated. */
    date: z.iso.datetime({ offset: true, error: 'Vnesite veljaven datum in čas.' }).optional(),
    /** A breakdown per unit (the units of the participants: the company's "children"). */
    children: z.boolean().default(false),
    /** The detailed NPS (per unit, company, community group and profession): only for a course with detailed NPS (spec §3 detailNps). */
    npsDetailed: z.boolean().default(false),
    /** The follow-up reasons of the NPS answers. */
    npsReasons: z.boolean().default(true),
  })
  .strict();

export type CourseReportRequest = z.output<typeof courseReportRule>;

/** Spec §9: a report can include only the last 20 comments. */
export const REPORT_COMMENTS_LIMIT = 20;

export const REPORT_MESSAGES = {
  futureDate: 'Datum poročila ne sme biti v prihodnosti.',
  noDetailedNps: 'Podrobni NPS je na voljo le za izobraževanja s podrobnim NPS.',
  noInterval: 'Izbrani termin ne obstaja.',
  /** spec §8 "Report error": the report could not be produced. */
  failed: 'Poročila ni bilo mogoče pripraviti. Poskusite ponovno.',
} as const;
