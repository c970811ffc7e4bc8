import { describe, expect, it } from 'vitest';
import { type CourseAudience, canReadCourse, isCourseFor, type Reader } from './course-audience.ts';

const course = (over: Partial<CourseAudience> = {}): CourseAudience => ({
  published: true,
  deleted: false,
  public: false,
  unitIds: [],
  companyIds: [],
  groupIds: [],
  professionIds: [],
  ownerCompanyId: null,
  prescriptionOnly: false,
  ...over,
});

const reader = (over: Partial<Reader> = {}): Reader => ({
  unitIds: new Set([11]),
  companyIds: new Set([1]),
  groupIds: new Set([5]),
  professionId: 3,
  mayPrescribe: false,
  ...over,
});

describe('who a course is for (decision 0011)', () => {
  it('shows a published public course to everyone, also a reader without units or profession', () => {
    expect(isCourseFor(course({ public: true }), reader({ unitIds: new Set(), companyIds: new Set(), groupIds: new Set(), professionId: null }))).toBe(true);
  });

  it('hides unpublished and deleted courses, public or not', () => {
    expect(isCourseFor(course({ public: true, published: false }), reader())).toBe(false);
    expect(isCourseFor(course({ public: true, deleted: true }), reader())).toBe(false);
  });

  it('hides a course that is neither public nor targeted', () => {
    expect(isCourseFor(course(), reader())).toBe(false);
  });

  it('matches any one of unit, company or community group', () => {
    expect(isCourseFor(course({ unitIds: [11] }), reader())).toBe(true);
    expect(isCourseFor(course({ companyIds: [1] }), reader())).toBe(true);
    expect(isCourseFor(course({ groupIds: [5] }), reader())).toBe(true);
    expect(isCourseFor(course({ unitIds: [12], companyIds: [2], groupIds: [6] }), reader())).toBe(false);
  });

  it('matches the profession, and a reader without profession never matches a profession target', () => {
    expect(isCourseFor(course({ professionIds: [3, 4] }), reader())).toBe(true);
    expect(isCourseFor(course({ professionIds: [4] }), reader())).toBe(false);
    expect(isCourseFor(course({ professionIds: [4] }), reader({ professionId: null }))).toBe(false);
  });

  it('needs both when a course names an organisation and a profession', () => {
    expect(isCourseFor(course({ unitIds: [11], professionIds: [3] }), reader())).toBe(true);
    expect(isCourseFor(course({ unitIds: [11], professionIds: [4] }), reader())).toBe(false);
    expect(isCourseFor(course({ unitIds: [12], professionIds: [3] }), reader())).toBe(false);
  });

  it('keeps a started course readable after its audience changed or it was unpublished, but not once deleted', () => {
    expect(canReadCourse(course({ unitIds: [12] }), reader(), true)).toBe(true);
    expect(canReadCourse(course({ published: false }), reader(), true)).toBe(true);
    expect(canReadCourse(course({ deleted: true, public: true }), reader(), true)).toBe(false);
    expect(canReadCourse(course({ unitIds: [12] }), reader(), false)).toBe(false);
  });

  it('keeps a community course inside its company: a profession-only audience means that company’s professionals (issue 31)', () => {
    const clientCourse = course({ ownerCompanyId: 1, professionIds: [3] });
    expect(isCourseFor(clientCourse, reader())).toBe(true);
    expect(isCourseFor(clientCourse, reader({ companyIds: new Set([2]), unitIds: new Set([21]) }))).toBe(false);
    expect(isCourseFor(clientCourse, reader({ companyIds: new Set(), unitIds: new Set() }))).toBe(false);
    // Public is refused to a community's course anyway; were one stored, it would still not leave the company.
    expect(isCourseFor(course({ ownerCompanyId: 1, public: true }), reader({ companyIds: new Set([2]) }))).toBe(false);
  });

  describe('an RX course (type 1, decision 0062)', () => {
    const rx = (over: Partial<CourseAudience> = {}) => course({ prescriptionOnly: true, professionIds: [3], ...over });
    const prescriber = reader({ mayPrescribe: true });

    it('reaches a reader whose profession it names and who may prescribe or supply', () => {
      expect(isCourseFor(rx(), prescriber)).toBe(true);
      expect(isCourseFor(rx({ unitIds: [11] }), prescriber)).toBe(true);
    });

    it('never reaches a profession without the flag, also when it names it', () => {
      expect(isCourseFor(rx(), reader())).toBe(false);
    });

    it('never reaches a flagged profession it does not name, nor anyone through public or organisation targets alone', () => {
      expect(isCourseFor(rx({ professionIds: [4] }), prescriber)).toBe(false);
      expect(isCourseFor(rx({ professionIds: [], public: true }), prescriber)).toBe(false);
      expect(isCourseFor(rx({ professionIds: [], unitIds: [11] }), prescriber)).toBe(false);
      expect(isCourseFor(rx({ public: true }), reader())).toBe(false);
      expect(isCourseFor(rx(), reader({ professionId: null, mayPrescribe: true }))).toBe(false);
    });

    it('is gone for an enrolled reader whose profession lost the flag or who changed profession', () => {
      expect(canReadCourse(rx(), prescriber, true)).toBe(true);
      expect(canReadCourse(rx({ unitIds: [12] }), prescriber, true)).toBe(true);
      expect(canReadCourse(rx(), reader(), true)).toBe(false);
      expect(canReadCourse(rx(), reader({ professionId: 4, mayPrescribe: true }), true)).toBe(false);
    });
  });
});
