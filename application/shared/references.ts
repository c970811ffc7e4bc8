import { mayUsePackage } from '../../domain/packages/package-launch.ts';
import { can, communityReach, companiesWith, type Subject, systemAbilities } from '../../domain/permissions/can.ts';
import type { ReferenceKind } from '../../domain/shared/id.rules.ts';
import type { FileStore } from '../../infrastructure/files/file-store.port.ts';
import type { ReferenceCaller, ReferenceResolver, ReferenceResolvers } from '../../infrastructure/http/http.port.ts';
import type { PackageStore } from '../../infrastructure/packages/package-store.port.ts';
import { courseReferences, npsBlocksOf, postReferences } from '../../projections/courses/courses.queries.ts';
import { isCourseVisible } from '../../projections/courses/user-courses.queries.ts';
import { type OrganisationReferenceKind, organisationReferences, type ReadDb } from '../../projections/organisation/organisation.queries.ts';
import { userReferences } from '../../projections/users/user-admin.queries.ts';
import { mayReadFile } from './file-access.ts';

/**
 * Who may name which record in a request body (issue 31 items 1 and 2, decision 0047). The
 * platform's staff (admin, editor, auditor: any system ability) reach every company, as the spec
 * gives them; a community role reaches the companies it holds a role in; a participant names only
 * what they may read as a participant. Professions, their groups and tags are one catalogue for
 * every company: they only have to exist.
 */
export type ReferenceDeps = { readonly db: ReadDb; readonly files: FileStore; readonly packages: Pick<PackageStore, 'owners'> };

/** The approver's 1071 alone (decision 0063) signs the steps that name them: it reaches no company. */
const isStaff = (subject: Subject) => systemAbilities(subject).some((id) => id !== 1071);

/** The ids of the rows `keep` lets through. */
const visible = async <R extends { readonly id: number }>(rows: readonly R[], keep: (row: R) => boolean | Promise<boolean>) => {
  const ids = new Set<number>();
  for (const row of rows) if (await keep(row)) ids.add(row.id);
  return ids;
};

const organisation =
  (deps: ReferenceDeps, kind: OrganisationReferenceKind): ReferenceResolver =>
  async (ids, { subject }) => {
    const rows = await organisationReferences(deps.db, kind, ids);
    if (!['company', 'unit', 'communityGroup'].includes(kind)) return new Set(rows.map((r) => r.id));
    if (!subject) return new Set();
    if (isStaff(subject)) return new Set(rows.map((r) => r.id));
    const reach = new Set(companiesWith(subject, 2000));
    // A group lies in every company of its units: naming it reaches all of them, so all must be the caller's.
    return visible(rows, (row) => row.companyIds.length > 0 && row.companyIds.every((id) => reach.has(id)));
  };

/** A course the caller may read: staff any; a community role its company's own courses (2004); anyone the courses they may take. */
const courseVisible = (deps: ReferenceDeps, subject: Subject) => async (course: { id: number; ownerCompanyId: number | null }) =>
  isStaff(subject) ||
  (course.ownerCompanyId !== null && can(subject, 2004, { kind: 'community', companyId: course.ownerCompanyId })) ||
  (await isCourseVisible(deps.db, subject.userId, course.id));

export const createReferenceResolvers = (deps: ReferenceDeps): ReferenceResolvers => {
  const resolvers: Record<ReferenceKind, ReferenceResolver> = {
    company: organisation(deps, 'company'),
    unit: organisation(deps, 'unit'),
    communityGroup: organisation(deps, 'communityGroup'),
    profession: organisation(deps, 'profession'),
    professionGroup: organisation(deps, 'professionGroup'),
    companyTag: organisation(deps, 'companyTag'),
    unitTag: organisation(deps, 'unitTag'),
    courseTag: organisation(deps, 'courseTag'),
    course: async (ids, { subject }) => (subject ? visible(await courseReferences(deps.db, ids), courseVisible(deps, subject)) : new Set()),
    post: async (ids, { subject }) => {
      if (!subject) return new Set();
      const posts = await postReferences(deps.db, ids);
      const courses = new Map((await courseReferences(deps.db, [...new Set(posts.map((p) => p.courseId))])).map((c) => [c.id, c]));
      const readable = courseVisible(deps, subject);
      return visible(posts, async (post) => {
        const course = courses.get(post.courseId);
        return course !== undefined && (await readable(course));
      });
    },
    file: async (ids, { subject }) => {
      if (!subject) return new Set();
      const found = new Set<number>();
      for (const id of ids) {
        const info = await deps.files.describe(id);
        if (info && (await mayReadFile(deps, subject, info))) found.add(id);
      }
      return found;
    },
    // A package is its uploader's to name, and anyone's who edits blocks platform-wide (1025), like an uploaded file.
    contentPackage: async (ids, { subject }) => {
      if (!subject) return new Set();
      const anyPackage = can(subject, 1025, { kind: 'system' });
      return new Set((await deps.packages.owners(ids)).filter((p) => mayUsePackage(anyPackage, subject.userId, p.createdBy)).map((p) => p.id));
    },
    user: async (ids, { subject }) => {
      if (!subject) return new Set();
      const rows = await userReferences(deps.db, ids);
      if (can(subject, 1004, { kind: 'system' })) return new Set(rows.map((r) => r.id));
      // Members read (1051) where the user sits; a user of no company may be taken in by whoever adds members (1049).
      const adds = communityReach(subject, 1049);
      const addsSomewhere = adds.unitIds.length + adds.companyIds.length > 0;
      return visible(
        rows,
        (row) => row.places.some((place) => can(subject, 1051, { kind: 'community', ...place })) || (row.places.length === 0 && !row.staff && addsSomewhere),
      );
    },
    surveyQuestion: async (ids, caller: ReferenceCaller) => {
      const surveyId = caller.params.id;
      return new Set(typeof surveyId === 'number' ? await npsBlocksOf(deps.db, surveyId, ids) : []);
    },
  };
  return resolvers;
};
