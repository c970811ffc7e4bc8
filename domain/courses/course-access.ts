/**
 * Who may reach the participant's side of courses at all, before a route reads its body (spec §6;
 * which course is theirs to see is then the audience rule, course-audience.ts, answering 404):
 * - read courses, academies, records and certificates: membership 2003 (course read), community 2004
 *   (course read in some unit), or system 1017 (course read);
 * - read blocks: membership 2004 (block read), community 1027, or system 1023;
 * - take a course (every step writes records): membership 1045 (record create).
 * An auditor holds none of these and is refused (403).
 */
export const COURSE_READERS = [{ membershipAnywhere: 2003 }, { communityAnywhere: 2004 }, { system: 1017 }] as const;
export const BLOCK_READERS = [{ membershipAnywhere: 2004 }, { communityAnywhere: 1027 }, { system: 1023 }] as const;
export const COURSE_TAKERS = [{ membershipAnywhere: 1045 }] as const;

/** Posts (decision 0012): read with 2008 / 1035 / 1031, write with 1040 / 1042 / 1041; one's own edit and delete 1043 / 1044, moderators 1033 / 1036 and 1039 / 1037. */
export const POST_READERS = [{ membershipAnywhere: 2008 }, { communityAnywhere: 1035 }, { system: 1031 }] as const;
export const POST_WRITERS = [{ membershipAnywhere: 1040 }, { communityAnywhere: 1042 }, { system: 1041 }] as const;
export const POST_EDITORS = [{ profile: 1043 }, { system: 1033 }, { communityAnywhere: 1036 }] as const;
export const POST_DELETERS = [{ profile: 1044 }, { system: 1039 }, { communityAnywhere: 1037 }] as const;
