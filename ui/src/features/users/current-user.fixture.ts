import type { CurrentUser } from './api/me.ts';

/** For UI tests: the fields of /users/me that a menu or header test does not care about. */
export const PROFILE_DEFAULTS: Pick<
  CurrentUser,
  | 'secondaryEmail'
  | 'otherJob'
  | 'licenceNumber'
  | 'chamberMembershipNumber'
  | 'onesignalEnabled'
  | 'secondFactorEnabled'
  | 'socialIdentities'
  | 'deletionRequestedAt'
  | 'realUser'
> = {
  secondaryEmail: null,
  otherJob: null,
  licenceNumber: null,
  chamberMembershipNumber: null,
  onesignalEnabled: 0,
  secondFactorEnabled: false,
  socialIdentities: [],
  deletionRequestedAt: null,
  realUser: null,
};
