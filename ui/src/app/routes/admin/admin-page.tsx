import { Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useParams } from 'react-router';
import { ApprovalSettingsPage } from '../../../features/approvals/components/approval-settings-page.tsx';
import { CourseApprovalPanel } from '../../../features/approvals/components/course-approval-panel.tsx';
import { CourseChamberCredits, UserChamberCredits } from '../../../features/chambers/components/chamber-credits-table.tsx';
import { AcademyGeneralPage } from '../../../features/courses/components/academy-general-page.tsx';
import { AdminCoursesPage } from '../../../features/courses/components/admin-courses-page.tsx';
import { BlockEditorPage } from '../../../features/courses/components/block-editor-page.tsx';
import { CourseAttachmentsPage } from '../../../features/courses/components/course-attachments-page.tsx';
import { CourseGeneralPage } from '../../../features/courses/components/course-general-page.tsx';
import { CourseNotificationsPage } from '../../../features/courses/components/course-notifications-page.tsx';
import { CourseParticipantsPage } from '../../../features/courses/components/course-participants-page.tsx';
import { CoursePostsAdminPage } from '../../../features/courses/components/course-posts-admin-page.tsx';
import { CourseTabs } from '../../../features/courses/components/course-tabs.tsx';
import { ExportsPage } from '../../../features/exports/components/exports-page.tsx';
import { ImportsPage } from '../../../features/imports/components/imports-page.tsx';
import { OutboxPage } from '../../../features/mail/components/outbox-page.tsx';
import { AdminNewsPage } from '../../../features/news/components/admin-news-page.tsx';
import { NewsEditorRoute } from '../../../features/news/components/news-form-page.tsx';
import { AdminNewslettersPage } from '../../../features/newsletters/components/admin-newsletters-page.tsx';
import { NewsletterFormPage } from '../../../features/newsletters/components/newsletter-form-page.tsx';
import { CompaniesListPage, CompanyFormPage } from '../../../features/organisation/components/companies.tsx';
import {
  CommunityGroupFormPage,
  CommunityGroupsListPage,
  ProfessionFormPage,
  ProfessionGroupFormPage,
  ProfessionGroupsListPage,
  ProfessionsListPage,
} from '../../../features/organisation/components/groups.tsx';
import { CourseTagPage, TagsPage } from '../../../features/organisation/components/tags.tsx';
import { type UnitAccess, UnitFormPage, UnitsListPage } from '../../../features/organisation/components/units.tsx';
import { type CurrentUser, meQuery } from '../../../features/users/api/me.ts';
import { AdminUsersPage } from '../../../features/users/components/admin-users-page.tsx';
import { DeletionRequestsPage } from '../../../features/users/components/deletion-requests-page.tsx';
import { UserFormPage } from '../../../features/users/components/user-form-page.tsx';
import { hasRole, hasSystemPermission, ROLE_ID } from '../../../features/users/roles.ts';
import { XapiOutPage } from '../../../features/xapi-out/components/xapi-out-page.tsx';
import type { RouteEntry } from '../../route-paths.ts';
import { PlaceholderPage } from '../placeholder-page.tsx';
import { PageBreadcrumbs } from './page-breadcrumbs.tsx';

/**
 * Admin pages load as their own chunk, so a participant's first load carries no admin code. Each
 * built page is listed here by its path; the rest stay titled placeholders (docs/ui-status.md).
 */
type Holds = (systemPermission: number) => boolean;

/**
 * Issue 18: what the signed-in user may do with a unit, as the API decides: create 1010; update 1011,
 * or 2001 for the unit's manager, director or client (a unit_id 0 role reaches every unit of its
 * company); delete 1012.
 */
const unitAccess = (holds: Holds, me: CurrentUser | undefined): UnitAccess => ({
  canChange: (unit) =>
    unit === null
      ? holds(1010)
      : holds(1011) ||
        (me?.roles ?? []).some(
          (role) =>
            ([ROLE_ID.manager, ROLE_ID.director, ROLE_ID.client] as number[]).includes(role.id) &&
            (role.unit_id === unit.id || (role.unit_id === 0 && role.company_id === unit.company_id)),
        ),
  canDelete: holds(1012),
});

const PAGES: Record<string, (id: number | null, holds: Holds, me: CurrentUser | undefined) => ReactNode> = {
  // spec §6 community create 1010 and update 1011 are system permissions: an accountant or a client reads their company only (issue 18).
  '/admin/companies': (_id, holds) => <CompaniesListPage canCreate={holds(1010)} />,
  '/admin/companies/new': (_id, holds) => <CompanyFormPage id={null} readOnly={!holds(1010)} />,
  '/admin/companies/:id': (id, holds) => <CompanyFormPage key={id} id={id} readOnly={!holds(1011)} canDelete={holds(1012)} />,
  '/admin/units': (_id, holds) => <UnitsListPage base="/admin/units" canCreate={holds(1010)} />,
  '/admin/units/new': (_id, holds, me) => <UnitFormPage id={null} base="/admin/units" access={unitAccess(holds, me)} />,
  '/admin/units/:id': (id, holds, me) => <UnitFormPage key={id} id={id} base="/admin/units" access={unitAccess(holds, me)} />,
  '/admin/communities/general': () => <UnitsListPage base="/admin/communities/general" />,
  '/admin/communities/general/new': (_id, holds, me) => <UnitFormPage id={null} base="/admin/communities/general" access={unitAccess(holds, me)} />,
  '/admin/communities/general/:id': (id, holds, me) => <UnitFormPage key={id} id={id} base="/admin/communities/general" access={unitAccess(holds, me)} />,
  '/admin/communities/groups': () => <CommunityGroupsListPage />,
  '/admin/communities/groups/new': () => <CommunityGroupFormPage id={null} />,
  '/admin/communities/groups/:id': (id) => <CommunityGroupFormPage key={id} id={id} />,
  '/admin/professions': () => <ProfessionsListPage />,
  '/admin/professions/new': () => <ProfessionFormPage id={null} />,
  '/admin/professions/:id': (id) => <ProfessionFormPage key={id} id={id} />,
  '/admin/professions/groups': () => <ProfessionGroupsListPage />,
  '/admin/professions/groups/new': () => <ProfessionGroupFormPage id={null} />,
  '/admin/professions/groups/:id': (id) => <ProfessionGroupFormPage key={id} id={id} />,
  '/admin/tags/professions': () => <TagsPage kind="profession" />,
  '/admin/tags/companies': () => <TagsPage kind="company" />,
  '/admin/tags/units': () => <TagsPage kind="unit" />,
  '/admin/tags/courses': () => <TagsPage kind="course" />,
  '/admin/tags/courses/:id': (id) => <CourseTagPage key={id} id={id as number} />,
  // Academies are read with the system course permission (1017, decision 0012), tags with 1062, 1009 or 1017 (spec §6).
  '/admin/courses': (_id, holds) => <AdminCoursesPage readsAcademies={holds(1017)} readsTags={holds(1062) || holds(1009) || holds(1017)} />,
  '/admin/courses/new': (_id, holds) => <CourseGeneralPage id={null} platformAuthor={holds(1017)} />,
  // Issue 36: the approval of the course's content before publishing stands above its fields.
  '/admin/courses/:courseId/general': (id, holds) => (
    <Stack key={id} gap="md">
      {typeof id === 'number' ? <CourseApprovalPanel courseId={id} /> : null}
      <CourseGeneralPage id={id} platformAuthor={holds(1017)} />
    </Stack>
  ),
  '/admin/courses/:courseId/participants': (id, holds) => (
    <Stack key={id} gap="md">
      <CourseParticipantsPage id={id as number} />
      {/* Chamber credit reports are read with 1017 or 1064: a company's own author gets none. */}
      {holds(1017) || holds(1064) ? <CourseChamberCredits courseId={id as number} /> : null}
    </Stack>
  ),
  '/admin/courses/:courseId/posts': (id) => <CoursePostsAdminPage key={id} courseId={id as number} />,
  '/admin/courses/:courseId/blocks/quiz/new': (id) => <BlockEditorPage courseId={id as number} kind="quiz" blockId={null} />,
  '/admin/courses/:courseId/blocks/video/new': (id) => <BlockEditorPage courseId={id as number} kind="video" blockId={null} />,
  '/admin/courses/:courseId/blocks/typeform/new': (id) => <BlockEditorPage courseId={id as number} kind="typeform" blockId={null} />,
  '/admin/courses/:courseId/blocks/nps/new': (id) => <BlockEditorPage courseId={id as number} kind="nps" blockId={null} />,
  '/admin/courses/:courseId/blocks/points/new': (id) => <BlockEditorPage courseId={id as number} kind="points" blockId={null} />,
  '/admin/courses/:courseId/blocks/article/new': (id) => <BlockEditorPage courseId={id as number} kind="article" blockId={null} />,
  '/admin/courses/:courseId/blocks/text-file/new': (id) => <BlockEditorPage courseId={id as number} kind="textFile" blockId={null} />,
  '/admin/courses/:courseId/blocks/interactr/new': (id) => <BlockEditorPage courseId={id as number} kind="interactr" blockId={null} />,
  '/admin/courses/:courseId/blocks/package/new': (id) => <BlockEditorPage courseId={id as number} kind="package" blockId={null} />,
  '/admin/courses/:courseId/blocks/:blockId': (id) => <BlockRoute courseId={id as number} />,
  '/admin/courses/:courseId/attachments': (id) => <CourseAttachmentsPage key={id} id={id as number} />,
  '/admin/courses/:courseId/notifications': (id) => <CourseNotificationsPage key={id} id={id as number} />,
  '/admin/academies/new': () => <AcademyGeneralPage id={null} />,
  '/admin/academies/:id/general': (id) => <AcademyGeneralPage key={id} id={id} />,
  '/admin/users': (_id, holds) => <AdminUsersPage canCreate={holds(1005)} />,
  '/admin/users/new': () => <UserFormPage id={null} />,
  '/admin/users/:id': (id) => (
    <Stack key={id} gap="md">
      <UserFormPage id={id} />
      {typeof id === 'number' ? <UserChamberCredits userId={id} /> : null}
    </Stack>
  ),
  '/admin/imports': () => <ImportsPage />,
  '/admin/posta': () => <OutboxPage />,
  '/admin/exports': () => <ExportsPage />,
  '/admin/zapisi-xapi': () => <XapiOutPage />,
  '/admin/odobritve': () => <ApprovalSettingsPage />,
  '/admin/zahteve': () => <DeletionRequestsPage />,
  '/admin/news': () => <AdminNewsPage />,
  // `new` writes a new item; a number edits that one (the page reads its own `:newsId`).
  '/admin/news/:newsId': () => <NewsEditorRoute />,
  '/admin/newsletters': () => <AdminNewslettersPage />,
  '/admin/newsletters/new': () => <NewsletterFormPage id={null} />,
  '/admin/newsletters/:id/edit': (id) => <NewsletterFormPage key={id} id={id} />,
};

/** /admin/courses/{id}/blocks/{blockId}: the second id of the path is the block's. */
const BlockRoute = ({ courseId }: { courseId: number }) => {
  const { blockId } = useParams();
  const id = Number(blockId);
  return Number.isInteger(id) && id > 0 ? <BlockEditorPage key={id} courseId={courseId} kind={null} blockId={id} /> : null;
};

export const AdminPage = ({ entry }: { entry: RouteEntry }) => {
  const params = useParams();
  const page = PAGES[entry.path];
  const me = useQuery(meQuery);
  // A course's pages carry its tabs, for those who author courses: all of them for the platform's (1017), a
  // community's client (spec §6 course 2004-2006) those of its own course's content and people.
  const platformAuthor = me.data ? hasSystemPermission(me.data, 1017) : false;
  const communityAuthor = !platformAuthor && (me.data ? hasRole(me.data, ROLE_ID.client) : false);
  const holds = (permission: number) => (me.data ? hasSystemPermission(me.data, permission) : false);
  const courseTabs =
    entry.path.startsWith('/admin/courses/:courseId') && params.courseId !== undefined && /^\d+$/.test(params.courseId) && (platformAuthor || communityAuthor);
  if (!page)
    return courseTabs ? (
      <>
        <CourseTabs courseId={Number(params.courseId)} community={communityAuthor} holds={holds} />
        <PlaceholderPage entry={entry} />
      </>
    ) : (
      <PlaceholderPage entry={entry} />
    );
  // Most admin pages name their record `:id`; the course tabs of spec §2 name it `:courseId`.
  const raw = params.id ?? params.courseId;
  const id = raw === undefined ? null : Number(raw);
  if (id !== null && !Number.isInteger(id)) return <PlaceholderPage entry={entry} />;
  return (
    <>
      <PageBreadcrumbs path={entry.path} />
      {courseTabs && id !== null ? <CourseTabs courseId={id} community={communityAuthor} holds={holds} /> : null}
      {page(id, holds, me.data)}
    </>
  );
};
