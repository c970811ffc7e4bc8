/**
 * The feature flags of spec §1 (Vimeo upload on, S3 upload off, Zoom off, Interactr on, live
 * courses on, newsletters on, delete account off, external id on). Each switches its feature for
 * real: routes of a feature that is off answer 404, fields of one refuse input and are left out of
 * answers (decision 0016).
 */
export type FeatureFlags = {
  readonly vimeoUpload: boolean;
  readonly s3Upload: boolean;
  readonly zoom: boolean;
  readonly interactr: boolean;
  readonly liveCourses: boolean;
  readonly newsletters: boolean;
  readonly deleteAccount: boolean;
  readonly externalId: boolean;
};

export const SPEC_FEATURES: FeatureFlags = {
  vimeoUpload: true,
  s3Upload: false,
  zoom: false,
  interactr: true,
  liveCourses: true,
  newsletters: true,
  deleteAccount: false,
  externalId: true,
};

/** spec §3 course type 8: live webinars, only while live courses are on. */
export const LIVE_COURSE_TYPE = 8;

export const FEATURE_OFF_MESSAGE = {
  zoom: 'Povezave Zoom na tej platformi niso vključene.',
  interactr: 'Vsebine Interactr na tej platformi niso vključene.',
  liveCourses: 'Izobraževanja v živo na tej platformi niso vključena.',
  externalId: 'Zunanji ID in sinhronizacija z zbornico na tej platformi nista vključena.',
} as const;

/** spec §3 course type 7, "powerclass certificate (hidden)": reached through its academy, never listed among a participant's courses. */
export const HIDDEN_COURSE_TYPE = 7;

/** spec §3 course type 9, "survey": answered at /anketa/{surveyId}, also without logging in (issue 17). */
export const SURVEY_COURSE_TYPE = 9;
