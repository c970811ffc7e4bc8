import type { FeatureFlags } from '../shared/features.ts';

/** What a reader is shown of a course's feature fields (spec §1): nothing of a feature that is off. */
export const visibleFeatureFields = <T extends Record<string, unknown>>(fields: T, features: FeatureFlags) => ({
  ...fields,
  zoomUrl: features.zoom ? ((fields.zoomUrl as string | undefined) ?? null) : null,
  interactrHtml: features.interactr ? ((fields.interactrHtml as string | undefined) ?? null) : null,
  externalId: features.externalId ? ((fields.externalId as string | undefined) ?? null) : null,
  syncDestination: features.externalId ? ((fields.syncDestination as number | undefined) ?? null) : null,
  live: features.liveCourses ? (fields.live ?? null) : null,
});
