import { createReferenceResolvers, type ReferenceDeps } from './references.ts';

/**
 * What the HTTP layer asks of the features on every request, beside each feature's own routes: how
 * each kind of id a body names (company, unit, course, file, ...) is resolved for the caller
 * (decision 0047). Shared by every feature, so it is no feature's module.
 */
export const requestsModule = {
  references: (needs: ReferenceDeps) => createReferenceResolvers(needs),
};
