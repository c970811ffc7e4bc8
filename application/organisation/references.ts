import type { TagKind } from '../../domain/organisation/organisation.rules.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import { organisationExists } from '../../projections/organisation/organisation.queries.ts';
import type { OrganisationDeps } from './organisation.deps.ts';

/** A form that names another record (a company, a tag of a kind, a profession group) must name one that exists. */
export const requireReference = async (
  deps: OrganisationDeps,
  what: 'company' | 'unit' | 'professionGroup' | { tagKind: TagKind },
  id: number | null,
  field: string,
) => {
  if (id === null) return;
  if (await organisationExists(deps.db, what, id)) return;
  // A miss may only be a read model a moment behind the write that made the record: look again once it caught up.
  await deps.catchUp?.();
  if (!(await organisationExists(deps.db, what, id))) throw new DomainError('400', 'Izbrani zapis ne obstaja.', { status: 400, field });
};
