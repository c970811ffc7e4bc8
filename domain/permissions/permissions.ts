/**
 * The permission catalogue of spec §6. A permission is identified by its scope and its id:
 * spec §6 lists 2004 twice, as "community course read" and as "membership block read", so the id
 * alone is not a key (docs/decisions/0004-permission-2004.md).
 */
export type PermissionScope = 'profile' | 'system' | 'community' | 'membership';

export type Permission = { readonly id: number; readonly scope: PermissionScope; readonly name: string };

const p = (scope: PermissionScope, id: number, name: string): Permission => ({ id, scope, name });

export const PERMISSIONS: readonly Permission[] = [
  // Profile: what every signed-in user may do to their own account.
  p('profile', 1001, 'profile.update'),
  p('profile', 1002, 'profile.delete'),
  p('profile', 1003, 'profile.auth'),
  p('profile', 1021, 'profile.resetPassword'),
  p('profile', 1022, 'profile.changeEmail'),
  p('profile', 1043, 'profile.post.update'),
  p('profile', 1044, 'profile.post.delete'),
  p('profile', 1046, 'profile.community.read'),
  p('profile', 1047, 'profile.community.join'),
  p('profile', 1048, 'profile.community.leave'),
  // System: held through the admin and editor roles, valid everywhere.
  p('system', 1004, 'user.read'),
  p('system', 1005, 'user.create'),
  p('system', 1006, 'user.update'),
  p('system', 1007, 'user.delete'),
  p('system', 1008, 'user.auth'),
  p('system', 1009, 'community.read'),
  p('system', 1010, 'community.create'),
  p('system', 1011, 'community.update'),
  p('system', 1012, 'community.delete'),
  p('system', 1017, 'course.read'),
  p('system', 1018, 'course.create'),
  p('system', 1019, 'course.update'),
  p('system', 1020, 'course.delete'),
  p('system', 1023, 'block.read'),
  p('system', 1024, 'block.create'),
  p('system', 1025, 'block.update'),
  p('system', 1026, 'block.delete'),
  p('system', 1031, 'post.read'),
  p('system', 1041, 'post.create'),
  p('system', 1033, 'post.update'),
  p('system', 1039, 'post.delete'),
  p('system', 1052, 'deal.read'),
  p('system', 1053, 'deal.create'),
  p('system', 1054, 'deal.update'),
  p('system', 1055, 'deal.delete'),
  p('system', 1056, 'blockViews.overview'),
  p('system', 1057, 'blockViews.community'),
  p('system', 1058, 'blockViews.comment'),
  p('system', 1062, 'tags.manage'),
  p('system', 1063, 'groups.manage'),
  p('system', 1064, 'reports.generate'),
  p('system', 1065, 'news.manage'),
  p('system', 1066, 'loginTokens.export'),
  // Not in spec §6 (issue 6, decision 0013): read a user's consent history, verify its chain, export it.
  p('system', 1070, 'consents.audit'),
  // Not in spec §6 (issue 36, decision 0063): sign a course's approval step (granted per person through the
  // approver role), and read a course's approval trail and export it (the auditor and admins).
  p('system', 1071, 'courses.approve'),
  p('system', 1072, 'courses.approvalAudit'),
  // Not in spec §6 (issue 36, decision 0063): change a scope's approval settings; admins only (an editor
  // holding 1011 could otherwise switch approval off, publish and switch it on again).
  p('system', 1073, 'courses.approvalSettings'),
  // Community: held through a community role in one unit (or every unit of a company).
  p('community', 2000, 'community.read'),
  p('community', 2001, 'community.update'),
  p('community', 2002, 'community.delete'),
  p('community', 2010, 'community.isClient'),
  p('community', 2011, 'community.isManager'),
  p('community', 2012, 'community.isDirector'),
  p('community', 2004, 'course.read'),
  p('community', 2005, 'course.create'),
  p('community', 2006, 'course.update'),
  p('community', 2007, 'course.delete'),
  p('community', 1027, 'block.read'),
  p('community', 1028, 'block.create'),
  p('community', 1029, 'block.update'),
  p('community', 1030, 'block.delete'),
  p('community', 1035, 'post.read'),
  p('community', 1042, 'post.create'),
  p('community', 1036, 'post.update'),
  p('community', 1037, 'post.delete'),
  p('community', 1049, 'members.add'),
  p('community', 1050, 'members.delete'),
  p('community', 1051, 'members.read'),
  p('community', 1059, 'blockViews.overview'),
  p('community', 1060, 'blockViews.community'),
  p('community', 1061, 'blockViews.comment'),
  p('community', 2009, 'costs.overview'),
  // Membership: held by participants in the courses of the units they belong to.
  p('membership', 2003, 'course.read'),
  p('membership', 2004, 'block.read'),
  p('membership', 2008, 'post.read'),
  p('membership', 1040, 'post.create'),
  p('membership', 1045, 'record.create'),
];

export const SYSTEM_PERMISSION_IDS: readonly number[] = PERMISSIONS.filter((x) => x.scope === 'system').map((x) => x.id);
export const PROFILE_PERMISSION_IDS: readonly number[] = PERMISSIONS.filter((x) => x.scope === 'profile').map((x) => x.id);
