import type { CurrentUser } from './api/me.ts';

/**
 * spec §5: a profession may need a licence number, or a chamber membership number. Which one the
 * signed-in user lacks, if any; the guard sends such a user to the profile with the spec's toast.
 */
export const missingProfessionNumber = (user: Pick<CurrentUser, 'profession' | 'licenceNumber' | 'chamberMembershipNumber'>): 'licence' | 'chamber' | null => {
  if (user.profession?.needsLicenceNumber && !user.licenceNumber) return 'licence';
  if (user.profession?.needsChamberNumber && !user.chamberMembershipNumber) return 'chamber';
  return null;
};
