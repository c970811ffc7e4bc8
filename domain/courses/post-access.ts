import { can, canSomewhere, communityReach, type Subject } from '../permissions/can.ts';

/**
 * Who may do what with posts (spec §6; decision 0012):
 * - read: system 1031, or on a course the caller may take with membership 2008 or community 1035;
 * - write: system 1041, or on a course the caller may take with membership 1040 or community 1042;
 * - edit or delete one's own post: profile 1043 / 1044;
 * - moderate someone else's post: system 1033 / 1039, or community 1036 / 1037 where the author is a
 *   member (a unit, or the company of a company-wide role) and on a course of a company the role is in.
 *   Both: members can be added to a unit, so the author's membership alone would let a client edit
 *   what a member wrote on another company's course.
 */
export const canWritePosts = (subject: Subject) =>
  can(subject, 1040, { kind: 'membership' }) || canSomewhere(subject, 1042) || can(subject, 1041, { kind: 'system' });

export type AuthorMembership = { readonly unitIds: readonly number[]; readonly companyIds: readonly number[] };

export const mayChangePost = (
  subject: Subject,
  action: 'edit' | 'delete',
  authorId: number,
  author: AuthorMembership,
  /** The companies of the post's course; null for a course for no company (public): system moderators only. */
  courseCompanyIds: readonly number[] | null,
) => {
  const [own, system, community] = action === 'edit' ? [1043, 1033, 1036] : [1044, 1039, 1037];
  if (authorId === subject.userId) return { allowed: can(subject, own, { kind: 'profile', userId: subject.userId }), moderator: false };
  if (can(subject, system, { kind: 'system' })) return { allowed: true, moderator: true };
  const reach = communityReach(subject, community);
  const authorInReach = author.unitIds.some((u) => reach.unitIds.includes(u)) || author.companyIds.some((c) => reach.companyIds.includes(c));
  const courseInReach = (courseCompanyIds ?? []).some((companyId) => can(subject, community, { kind: 'community', companyId }));
  const inReach = authorInReach && courseInReach;
  return { allowed: inReach, moderator: inReach };
};
