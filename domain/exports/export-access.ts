import { can, communityReach, type Subject } from '../permissions/can.ts';
import { EXPORT_KINDS, type ExportKind } from './export.rules.ts';

/**
 * Who may start and read which export (decision 0026): the permission that reads the same data on
 * its own page. Users 1004 (the users list), course participants and progress 1017 (a course's
 * participants tab), NPS answers 1056 (block views overview), chamber credit points 1017 too, costs 1052 (deals) or, for the
 * accountant, 2009 in the company the costs are billed to, consents 1070 (the consent audit).
 * An export is readable by whoever may start it with the same parameters, not only by the person
 * who started it: an auditor reads the consent export an admin made, and the other way round.
 */
export const EXPORT_SYSTEM_PERMISSION: Readonly<Record<ExportKind, number>> = {
  users: 1004,
  participants: 1017,
  nps: 1056,
  costs: 1052,
  consents: 1070,
  // Credit points are the participants' progress, reported (decision 0030).
  chambers: 1017,
};

/** The community permission that reaches costs: the accountant's cost overview (spec §6). */
export const EXPORT_COSTS_COMMUNITY_PERMISSION = 2009;

export type ExportReach = {
  /** Kinds the subject reads whole (a system permission). */
  readonly kinds: readonly ExportKind[];
  /** Units and companies where the subject reads costs (2009) when it lacks 1052. */
  readonly costs: { readonly unitIds: readonly number[]; readonly companyIds: readonly number[] };
};

export const exportReach = (subject: Subject): ExportReach => ({
  kinds: EXPORT_KINDS.filter((kind) => can(subject, EXPORT_SYSTEM_PERMISSION[kind], { kind: 'system' })),
  costs: communityReach(subject, 2009),
});

/** True when the subject reaches at least one export: the route's own check let it in. */
export const reachesExports = (reach: ExportReach) => reach.kinds.length > 0 || reach.costs.unitIds.length + reach.costs.companyIds.length > 0;
