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
  /**
   * A course about a prescription-only medicine (type 1, RX; issue 36, decision 0062): only for a
   * reader whose profession its audience names and who may prescribe or supply medicines, whatever
   * else the course says (public, organisation targets) and whether or not they enrolled.
   */
  readonly prescriptionOnly: boolean;
};

/** The caller's side: their units (through any role), those units' companies, the groups containing them, their profession. */
export type Reader = {
  readonly unitIds: ReadonlySet<number>;
  readonly companyIds: ReadonlySet<number>;
  readonly groupIds: ReadonlySet<number>;
  readonly professionId: number | null;
  /** Whether the reader's profession may prescribe or supply medicines now (the admin's flag, read at every request). */
  readonly mayPrescribe: boolean;
};

const meets = (targets: readonly number[], mine: ReadonlySet<number>) => targets.some((t) => mine.has(t));

/**
 * An RX course's own condition (Directive 2001/83/EC art. 88, 91): the reader's profession is flagged
 * and named by the course. Checked at read time, so a profession that loses the flag, or a person who
 * changes profession, loses the course at once.
 */
const prescriberFor = (course: CourseAudience, reader: Reader) =>
  !course.prescriptionOnly || (reader.mayPrescribe && reader.professionId !== null && course.professionIds.includes(reader.professionId));

/** A published, not deleted course that is public or targeted at the reader. */
export const isCourseFor = (course: CourseAudience, reader: Reader) => {
  if (!course.published || course.deleted) return false;
  if (!prescriberFor(course, reader)) return false;
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

/**
 * What the participant can open: a course for them, or one they started and that still exists. An
 * RX course only while the reader may receive it: enrolling earlier gives no right to keep reading
 * material the law keeps from them (decision 0062).
 */
export const canReadCourse = (course: CourseAudience, reader: Reader, enrolled: boolean) =>
  isCourseFor(course, reader) || (enrolled && !course.deleted && prescriberFor(course, reader));
