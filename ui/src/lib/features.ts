import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api-client.ts';

/** spec §1, as GET /api/features answers them. */
export type FeatureFlags = Record<'vimeoUpload' | 's3Upload' | 'zoom' | 'interactr' | 'liveCourses' | 'newsletters' | 'deleteAccount' | 'externalId', boolean>;

/** The feature flags of spec §1 as the server has them (decision 0016): forms leave out the fields of a feature that is off. */
export const featuresQuery = queryOptions({
  queryKey: ['features'],
  queryFn: () => api<FeatureFlags>('GET', '/features'),
  staleTime: Number.POSITIVE_INFINITY,
});

/** A flag, or undefined while the flags load (callers hide the feature until they know). */
export const useFeature = (name: keyof FeatureFlags): boolean | undefined => useQuery(featuresQuery).data?.[name];
