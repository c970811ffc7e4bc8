import type { CourseFields } from '../../domain/courses/course.rules.ts';
import type { CourseOwner } from '../../domain/courses/course.ts';
import { can, communityReach, type Subject } from '../../domain/permissions/can.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import { audienceCompanies } from '../../projections/courses/courses.queries.ts';
import { unitScope } from '../../projections/organisation/organisation.queries.ts';
import type { CoursesDeps } from './courses.deps.ts';

/**
 * A client authors courses in their own community (spec §6: course 2005 create, 2006 update; block
 * 1028, 1029): the course belongs to the client's unit and its company, and may only be for people
 * of that company. Admins and editors (system 1018, 1019) author any course, for anyone.
 */

/** The unit a new community course belongs to: the one asked for, or the client's only unit with 2005. */
export const ownerFor = async (deps: CoursesDeps, subject: Subject, unitId: number | undefined): Promise<CourseOwner> => {
  const units = communityReach(subject, 2005).unitIds;
  const chosen = unitId ?? (units.length === 1 ? units[0] : undefined);
  if (chosen === undefined) throw new DomainError('400', 'Izberite enoto, ki ji izobraževanje pripada.', { status: 400, field: 'unitId' });
  const scope = await unitScope(deps.db, chosen);
  if (!scope || !can(subject, 2005, { kind: 'community', companyId: scope.companyId, unitId: chosen }))
    throw new DomainError('403', 'V tej enoti ne morete ustvarjati izobraževanj.', { status: 403, field: 'unitId' });
  return { companyId: scope.companyId, unitId: chosen };
};

/** A community's course is for its own company's people only: never public, its units, groups and company in that company. */
export const checkCommunityAudience = async (deps: CoursesDeps, owner: CourseOwner, fields: CourseFields) => {
  const outside = () => new DomainError('400', 'Izobraževanje skupnosti je lahko le za ljudi njenega podjetja.', { status: 400, field: 'audience' });
  if (fields.public) throw new DomainError('400', 'Izobraževanje skupnosti ne more biti javno.', { status: 400, field: 'public' });
  if (fields.audience.companyIds.some((id) => id !== owner.companyId)) throw outside();
  const companies = await audienceCompanies(deps.db, fields.audience.unitIds, fields.audience.groupIds);
  if (companies.some((id) => id !== owner.companyId)) throw outside();
};
