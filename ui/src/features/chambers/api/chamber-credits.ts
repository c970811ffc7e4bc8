import { api } from '../../../lib/api-client.ts';

/** A credit point record owed to a chamber (decision 0030), as the API lists it. */
export type ChamberCredit = {
  courseId: number;
  courseTitle: string;
  userId: number;
  fullName: string;
  chamberMembershipNumber: string | null;
  licenceNumber: string | null;
  /** Null until the person's profession names a chamber (issue 32 item 4). */
  chamber: 1 | 2 | 3 | null;
  points: number;
  courseExternalId: string | null;
  status: 'pending' | 'held' | 'reported';
  heldReason: string | null;
  attempts: number;
  lastError: string | null;
  lastAttemptAt: string | null;
  earnedAt: string;
  reportedAt: string | null;
  receipt: string | null;
};

type List = { items: ChamberCredit[] };

export const CHAMBER_CREDITS_KEY = ['chamber-credits'] as const;

export const courseChamberCredits = (courseId: number) => api<List>('GET', `/courses/${courseId}/chamber-credits`);
export const userChamberCredits = (userId: number) => api<List>('GET', `/users/${userId}/chamber-credits`);
export const ownChamberCredits = () => api<List>('GET', '/users/me/chamber-credits');
