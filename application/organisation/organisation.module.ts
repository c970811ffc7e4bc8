import type { FeatureFlags } from '../../domain/shared/features.ts';
import type { FileStore } from '../../infrastructure/files/file-store.port.ts';
import type { FeatureModule } from '../../infrastructure/main/feature-module.port.ts';
import { organisationProjection } from '../../projections/organisation/organisation.projection.ts';
import { registerOrganisationReadRoutes } from '../../projections/organisation/organisation.routes.ts';
import type { OrganisationDeps } from './organisation.deps.ts';
import { registerOrganisationRoutes } from './organisation.routes.ts';

type OrganisationNeeds = OrganisationDeps & { readonly files: FileStore; readonly settings: { readonly features: FeatureFlags } };

/** Companies, units, professions, groups and tags: the platform's organisation. */
export const organisationModule: FeatureModule<OrganisationNeeds> = {
  name: 'organisation',
  projections: [organisationProjection],
  wire: (needs) => ({
    routes: (app) => {
      registerOrganisationRoutes(app, { store: needs.store, ids: needs.ids, db: needs.db }, { files: needs.files, features: needs.settings.features });
      registerOrganisationReadRoutes(app, { db: needs.db, features: needs.settings.features });
    },
  }),
};
