import type { CourseFields } from '../../domain/courses/course.rules.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import { FEATURE_OFF_MESSAGE, type FeatureFlags, LIVE_COURSE_TYPE } from '../../domain/shared/features.ts';
import { sanitizeInteractr } from './sanitize-block.ts';

/**
 * A course's fields that belong to a feature of spec §1 are refused while the feature is off (Zoom,
 * Interactr, live courses, external id); Interactr embed code keeps only its iframe.
 */
export const courseFieldsFor = (fields: CourseFields, features: FeatureFlags): CourseFields => {
  const refuse = (feature: keyof typeof FEATURE_OFF_MESSAGE, field: string) => {
    throw new DomainError('400', FEATURE_OFF_MESSAGE[feature], { status: 400, field });
  };
  if (!features.zoom && fields.zoomUrl) refuse('zoom', 'zoomUrl');
  if (!features.interactr && fields.interactrHtml) refuse('interactr', 'interactrHtml');
  if (!features.liveCourses && fields.type === LIVE_COURSE_TYPE) refuse('liveCourses', 'type');
  if (!features.liveCourses && fields.live !== null) refuse('liveCourses', 'live');
  if (!features.externalId && fields.externalId) refuse('externalId', 'externalId');
  if (!features.externalId && fields.syncDestination !== null) refuse('externalId', 'syncDestination');
  if (fields.interactrHtml === null) return fields;
  const embed = sanitizeInteractr(fields.interactrHtml);
  if (embed === '') throw new DomainError('400', 'Vnesite kodo za vdelavo Interactr (iframe z naslova interactr.io).', { status: 400, field: 'interactrHtml' });
  return { ...fields, interactrHtml: embed };
};
