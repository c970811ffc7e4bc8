/**
 * Who a course is for (decision 0011), as a pure test: the course list, the course page, blocks,
 * records and every participant command ask this one function.
 */
export type CourseAudience = {
  readonly published: boolean;
  readonly deleted: boolean;
  readonly public: boolean;
  readonly unitIds: readonly number[];
  readonly companyIds: readonly number[];
  readonly groupIds: readonly number[];
  readonly professionIds: readonly number[];
  /**
   * The company whose client made the course (a community's course), else null. Such a course
   * reaches only that company's people, whatever else its audience names: a profession-only
   * audience means those professionals of the company (issue 31 item 2, decision 0047).
   */
  readonly ownerCompanyId: number | null;
};

/** The caller's side: their units (through any role), those units' companies, the groups containing them, their profession. */
export type Reader = {
  readonly unitIds: ReadonlySet<number>;
  readonly companyIds: ReadonlySet<number>;
  readonly groupIds: ReadonlySet<number>;
  readonly professionId: number | null;
};

const meets = (targets: readonly number[], mine: ReadonlySet<number>) => targets.some((t) => mine.has(t));

/** A published, not deleted course that is public or targeted at the reader. */
export const isCourseFor = (course: CourseAudience, reader: Reader) => {
  if (!course.published || course.deleted) return false;
  if (course.ownerCompanyId !== null && !reader.companyIds.has(course.ownerCompanyId)) return false;
  if (course.public) return true;
  const byOrganisation = course.unitIds.length + course.companyIds.length + course.groupIds.length > 0;
  const byProfession = course.professionIds.length > 0;
  if (!byOrganisation && !byProfession) return false;
  const organisationMet =
    !byOrganisation || meets(course.unitIds, reader.unitIds) || meets(course.companyIds, reader.companyIds) || meets(course.groupIds, reader.groupIds);
  const professionMet = !byProfession || (reader.professionId !== null && course.professionIds.includes(reader.professionId));
  return organisationMet && professionMet;
};

/** What the participant can open: a course for them, or one they started and that still exists. */
export const canReadCourse = (course: CourseAudience, reader: Reader, enrolled: boolean) => isCourseFor(course, reader) || (enrolled && !course.deleted);
