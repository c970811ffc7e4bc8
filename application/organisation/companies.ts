import { companyDecider, companyStream, type Signature } from '../../domain/organisation/company.ts';
import type { CompanyFields } from '../../domain/organisation/organisation.rules.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import type { EventMetadata } from '../../infrastructure/event-store/event-store.port.ts';
import { organisationDependents } from '../../projections/organisation/organisation.queries.ts';
import { handleCommand } from '../shared/handle-command.ts';
import type { OrganisationDeps } from './organisation.deps.ts';

export const createCompany = async (deps: OrganisationDeps, fields: CompanyFields, metadata: EventMetadata) => {
  const companyId = await deps.ids.next('company');
  const result = await handleCommand(deps.store, {
    streamName: companyStream(companyId),
    decider: companyDecider,
    command: { type: 'CreateCompany', companyId, fields },
    metadata,
  });
  return { id: companyId, position: result.position };
};

export const updateCompany = async (deps: OrganisationDeps, companyId: number, fields: CompanyFields, metadata: EventMetadata) => {
  const result = await handleCommand(deps.store, {
    streamName: companyStream(companyId),
    decider: companyDecider,
    command: { type: 'UpdateCompany', fields },
    metadata,
  });
  return { id: companyId, position: result.position };
};

export const changeCompanySignature = async (deps: OrganisationDeps, companyId: number, signature: Signature, metadata: EventMetadata) => {
  const result = await handleCommand(deps.store, {
    streamName: companyStream(companyId),
    decider: companyDecider,
    command: { type: 'ChangeSignature', signature },
    metadata,
  });
  return { id: companyId, position: result.position };
};

/** Deletes a company (1012) that has no units and nobody holding a role in it any more. */
export const deleteCompany = async (deps: OrganisationDeps, companyId: number, metadata: EventMetadata) => {
  const dependents = await organisationDependents(deps.db, 'company', companyId);
  if (dependents.units > 0) {
    throw new DomainError('422', 'Podjetja ni mogoče izbrisati, dokler ima enote. Najprej izbrišite ali prestavite njegove enote.', { status: 422 });
  }
  if (dependents.people > 0) {
    throw new DomainError('422', 'Podjetja ni mogoče izbrisati, dokler imajo uporabniki v njem vloge. Najprej jim vloge odvzemite.', { status: 422 });
  }
  const result = await handleCommand(deps.store, {
    streamName: companyStream(companyId),
    decider: companyDecider,
    command: { type: 'DeleteCompany' },
    metadata,
  });
  return { id: companyId, position: result.position };
};
