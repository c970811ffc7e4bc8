import { z } from 'zod';

/**
 * NPS of spec §9: promoters 9 to 10, neutrals 7 to 8, detractors 6 or lower; score = % promoters
 * minus % detractors (-100 to 100); above 30 good, above 50 very good, above 70 excellent; overview
 * colours low red, medium amber, high green.
 */
export type NpsCategory = 'promoter' | 'neutral' | 'detractor';

export const npsCategory = (score: number): NpsCategory => (score >= 9 ? 'promoter' : score >= 7 ? 'neutral' : 'detractor');

export type NpsCounts = { readonly promoters: number; readonly neutrals: number; readonly detractors: number };

export type NpsGrade = 'none' | 'poor' | 'good' | 'veryGood' | 'excellent';

export type NpsSummary = NpsCounts & {
  readonly answers: number;
  /** null without answers: no score is not a score of 0. */
  readonly score: number | null;
  readonly grade: NpsGrade;
  /** Overview colour: low red (30 or below), medium amber (above 30 up to 50), high green (above 50). */
  readonly level: 'none' | 'low' | 'medium' | 'high';
};

/** An NpsSummary as the API answers it (statistics and course reports). */
export const npsSummarySchema = z.object({
  promoters: z.number(),
  neutrals: z.number(),
  detractors: z.number(),
  answers: z.number(),
  score: z.number().nullable(),
  grade: z.string(),
  level: z.string(),
});

export const countNps = (scores: Iterable<number>): NpsCounts => {
  let promoters = 0;
  let neutrals = 0;
  let detractors = 0;
  for (const score of scores) {
    const category = npsCategory(score);
    if (category === 'promoter') promoters++;
    else if (category === 'neutral') neutrals++;
    else detractors++;
  }
  return { promoters, neutrals, detractors };
};

export const summariseNps = (counts: NpsCounts): NpsSummary => {
  const answers = counts.promoters + counts.neutrals + counts.detractors;
  if (answers === 0) return { ...counts, answers, score: null, grade: 'none', level: 'none' };
  // Rounded to one decimal: 1 promoter of 3 is 33.3, not 33.33333.
  const score = Math.round(((counts.promoters - counts.detractors) / answers) * 1000) / 10;
  const grade: NpsGrade = score > 70 ? 'excellent' : score > 50 ? 'veryGood' : score > 30 ? 'good' : 'poor';
  const level = score > 50 ? 'high' : score > 30 ? 'medium' : 'low';
  return { ...counts, answers, score, grade, level };
};
