import { z } from 'zod';
import { refId } from '../shared/id.rules.ts';

/**
 * A course's costs (spec §3 "Course costs", §9 defaults), in euro cents. What they add up to
 * (decision 0015): views x viewAmount + archive + production + detailed NPS + inside pool + other +
 * fixed = totalAmount; finalAmount = totalAmount less the discount (0 to 100 %); shareEarnings =
 * views x sharedCost (the revenue shared per view). `companyId` is the company the costs are billed
 * to: its accountant reads them (2009).
 */
const cents = (label: string) =>
  z
    .number({ error: `${label}: vnesite znesek` })
    .int({ error: `${label}: znesek je v centih, brez decimalk` })
    .min(0, { error: `${label}: znesek ne sme biti negativen` })
    .max(100_000_000, { error: `${label}: znesek je prevelik` });

export const DEFAULT_COSTS = {
  archiveAmount: 30_000,
  productionAmount: 45_000,
  viewAmount: 785,
  detailedNpsAmount: 78_000,
  insidePoolAmount: 78_000,
  otherAmount: 0,
  fixedAmount: 0,
  discount: 0,
  sharedCost: 0,
  comment: null,
  activeCampaignPackage: 0,
  companyId: null,
} as const;

export const courseCostsRule = z
  .object({
    archiveAmount: cents('Arhiv').default(DEFAULT_COSTS.archiveAmount),
    productionAmount: cents('Produkcija').default(DEFAULT_COSTS.productionAmount),
    viewAmount: cents('Ogled').default(DEFAULT_COSTS.viewAmount),
    detailedNpsAmount: cents('Podrobni NPS').default(DEFAULT_COSTS.detailedNpsAmount),
    insidePoolAmount: cents('Notranji bazen').default(DEFAULT_COSTS.insidePoolAmount),
    otherAmount: cents('Drugo').default(0),
    fixedAmount: cents('Fiksni znesek').default(0),
    discount: z
      .number({ error: 'Popust mora biti med 0 in 100 %' })
      .min(0, { error: 'Popust mora biti med 0 in 100 %' })
      .max(100, { error: 'Popust mora biti med 0 in 100 %' })
      .default(0),
    sharedCost: cents('Delitev prihodka na ogled').default(0),
    comment: z
      .string()
      .trim()
      .max(2000, { error: 'Komentar je predolg' })
      .nullish()
      .transform((v) => v || null),
    // spec §3: 0 inactive, 1 regular, 2 large, 3 very large.
    activeCampaignPackage: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)], { error: 'Izberite paket kampanje' }).default(0),
    companyId: refId('company').nullable().default(null),
  })
  .strict();

export type CourseCosts = z.output<typeof courseCostsRule>;

export type CostFigures = { views: number; viewsAmount: number; totalAmount: number; finalAmount: number; shareEarnings: number };

/** What the costs come to for a number of views. */
export const costFigures = (costs: CourseCosts, views: number): CostFigures => {
  const viewsAmount = views * costs.viewAmount;
  const totalAmount =
    costs.archiveAmount + costs.productionAmount + viewsAmount + costs.detailedNpsAmount + costs.insidePoolAmount + costs.otherAmount + costs.fixedAmount;
  return {
    views,
    viewsAmount,
    totalAmount,
    finalAmount: Math.round((totalAmount * (100 - costs.discount)) / 100),
    shareEarnings: views * costs.sharedCost,
  };
};
