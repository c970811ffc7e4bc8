import { ROLE } from '../../domain/permissions/roles.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import { userDecider } from '../../domain/users/user.decide.ts';
import { userStream } from '../../domain/users/user.ts';
import type { EventMetadata } from '../../infrastructure/event-store/event-store.port.ts';
import { unitScope } from '../../projections/organisation/organisation.queries.ts';
import { handleCommand } from '../shared/handle-command.ts';
import type { OrganisationDeps } from './organisation.deps.ts';

/**
 * Members of a unit are its participants (role 10 in that unit). Managers add and remove them
 * (1049, 1050); a user joins or leaves a unit themselves (1047, 1048).
 */
export const changeMembership = async (
  deps: OrganisationDeps,
  unitId: number,
  userId: number,
  change: 'join' | 'leave',
  metadata: EventMetadata,
  /** Added by the unit's team (1049), not by an admin (1006) or the user: only users of this company or of none. */
  byCompanyTeam = false,
) => {
  const scope = await unitScope(deps.db, unitId);
  if (!scope) throw new DomainError('404', 'Enota ne obstaja.', { status: 404 });
  const result = await handleCommand(deps.store, {
    streamName: userStream(userId),
    decider: userDecider,
    command:
      change === 'join'
        ? { type: 'GrantRole', role: { roleId: ROLE.participant, unitId, companyId: scope.companyId }, withinCompany: byCompanyTeam }
        : { type: 'RevokeRole', role: { roleId: ROLE.participant, unitId, companyId: scope.companyId } },
    metadata,
  });
  return { id: unitId, position: result.position };
};
