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
  /**
   * Who joins the user: an admin (1006) anyone; the unit's team (1049) only users of this company or
   * of none; the user themself only a unit of a company they already belong to (decision 0009).
   */
  by: 'admin' | 'team' | 'self' = 'admin',
) => {
  const scope = await unitScope(deps.db, unitId);
  if (!scope) throw new DomainError('404', 'Enota ne obstaja.', { status: 404 });
  const result = await handleCommand(deps.store, {
    streamName: userStream(userId),
    decider: userDecider,
    command:
      change === 'join'
        ? { type: 'GrantRole', role: { roleId: ROLE.participant, unitId, companyId: scope.companyId }, withinCompany: by === 'team', selfJoin: by === 'self' }
        : { type: 'RevokeRole', role: { roleId: ROLE.participant, unitId, companyId: scope.companyId } },
    metadata,
  });
  return { id: unitId, position: result.position };
};
