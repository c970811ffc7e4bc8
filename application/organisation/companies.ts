import { companyDecider, companyStream, type Signature } from '../../domain/organisation/company.ts';
import type { CompanyFields } from '../../domain/organisation/organisation.rules.ts';
import type { EventMetadata } from '../../infrastructure/event-store/event-store.port.ts';
import { handleCommand } from '../shared/handle-command.ts';
import type { OrganisationDeps } from './organisation.deps.ts';
import { requireReference } from './references.ts';

const checkReferences = async (deps: OrganisationDeps, fields: CompanyFields) => {
  await requireReference(deps, { tagKind: 'company' }, fields.tagId, 'tagId');
  await requireReference(deps, 'company', fields.parentCompanyId, 'parentCompanyId');
};

export const createCompany = async (deps: OrganisationDeps, fields: CompanyFields, metadata: EventMetadata) => {
  await checkReferences(deps, fields);
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
  await checkReferences(deps, fields);
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
