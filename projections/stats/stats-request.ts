import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { can, canSomewhere, communityReach } from '../../domain/permissions/can.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import { idParam, indexParam } from '../../domain/shared/id.rules.ts';
import { npsSummarySchema } from '../../domain/stats/nps.ts';
import { type anyOf, requireAuth } from '../../infrastructure/http/http.port.ts';
import { companiesOfUnits, courseReachable, courseWindow, type StatsDb, type StatsScope } from './stats.queries.ts';

// What every statistics route shares: the read models its answers come from, the query of a moment
// and an interval, who may see which answers (the caller's scope), and the NPS summary's shape.

/** The read models the statistics routes read: a change in any is a new figure. */
export const READ_MODELS = ['stats', 'courses', 'academies', 'users', 'organisation'] as const;
export const tags = ['stats'];
export const asOf = z.iso.datetime({ offset: true, error: 'Vnesite veljaven datum in čas.' }).optional();
export const windowQuery = z.object({ intervalId: indexParam.default(0), asOf });
export const courseParams = z.object({ id: idParam });
export const notFound = () => new DomainError('404', 'Izobraževanje ali termin ne obstaja.', { status: 404 });
export const forbidden = () => new DomainError('403', 'Nimate pravic za ogled teh podatkov.', { status: 403 });

export const summary = npsSummarySchema;

/** Everyone with the system permission; otherwise the reach of the community permission. */
export const scopeOf = (request: FastifyRequest, systemPermission: number, communityPermission: number): StatsScope => {
  const { subject } = requireAuth(request);
  if (can(subject, systemPermission, { kind: 'system' })) return { all: true };
  if (!canSomewhere(subject, communityPermission)) throw forbidden();
  return { all: false, ...communityReach(subject, communityPermission) };
};

/** Narrowed to one unit (a community page); a community role may only ask for a unit it reaches. */
export const narrowTo = async (db: StatsDb, scope: StatsScope, unitId: number | undefined): Promise<StatsScope> => {
  if (unitId === undefined) return scope;
  if (!scope.all) {
    const companies = await companiesOfUnits(db, [unitId], []);
    // A unit outside the caller's reach is answered as missing.
    if (!scope.unitIds.includes(unitId) && !companies.some((c) => scope.companyIds.includes(c)))
      throw new DomainError('404', 'Enota ne obstaja.', { status: 404 });
  }
  return { all: false, unitIds: [unitId], companyIds: [] };
};

/**
 * A community-scoped caller reads only courses of their companies (or public ones); any other
 * course is answered as missing (404), so its id reveals nothing.
 */
export const requireReachable = async (db: StatsDb, scope: StatsScope, courseId: number) => {
  if (scope.all) return;
  const companies = await companiesOfUnits(db, scope.unitIds, scope.companyIds);
  if (!(await courseReachable(db, courseId, companies))) throw notFound();
};

export const windowOf = async (db: StatsDb, courseId: number, query: { intervalId: number; asOf?: string | undefined }, scope: StatsScope) => {
  const found = await courseWindow(db, courseId, query.intervalId, query.asOf ? new Date(query.asOf) : new Date());
  if (!found) throw notFound();
  await requireReachable(db, scope, courseId);
  return found;
};

export const windowResponse = z.object({ intervalId: z.number(), from: z.string(), to: z.string(), asOf: z.string() });
export const toWindow = (w: { intervalId: number; from: Date; to: Date; asOf: Date }) => ({
  intervalId: w.intervalId,
  from: w.from.toISOString(),
  to: w.to.toISOString(),
  asOf: w.asOf.toISOString(),
});

/** A route's access, and the read models whose change makes its answer stale. */
export const routeConfig = (access: ReturnType<typeof anyOf>) => ({ access, readModels: READ_MODELS });
