import { Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useParams } from 'react-router';
import { ProfileTabs } from '../../components/profile-tabs.tsx';
import { OwnChamberCredits } from '../../features/chambers/components/chamber-credits-table.tsx';
import { AcademyListPage, AcademyPage } from '../../features/courses/components/academies.tsx';
import { BlockViewerPage } from '../../features/courses/components/block-viewer.tsx';
import { CourseCertificatePage, CourseCompletedPage } from '../../features/courses/components/course-completed.tsx';
import { CourseIntroPage } from '../../features/courses/components/course-intro.tsx';
import { CourseListPage } from '../../features/courses/components/course-list.tsx';
import { ProfileCoursesPage } from '../../features/courses/components/profile-courses.tsx';
import { VideoUploadPage } from '../../features/courses/components/video-upload-page.tsx';
import { meQuery } from '../../features/users/api/me.ts';
import { hasRole, hasSystemPermission, ROLE_ID } from '../../features/users/roles.ts';

type Params = { courseId: number; blockIndex: number; academyId: number; unitId: number | null };

/** The participant's course pages by route path (spec §2), composed here; they load as one chunk on first use. */
const PAGES: Record<string, (p: Params, authoring: boolean) => ReactNode> = {
  '/powerclass': () => <AcademyListPage />,
  '/powerclass/:academyId': (p) => <AcademyPage key={p.academyId} academyId={p.academyId} />,
  '/izobrazevanja': (_p, authoring) => <CourseListPage authoring={authoring} />,
  '/izobrazevanja/:courseId': (p) => <CourseIntroPage key={p.courseId} courseId={p.courseId} />,
  '/izobrazevanja/:courseId/bloki/:blockIndex': (p) => <BlockViewerPage key={p.courseId} courseId={p.courseId} blockIndex={p.blockIndex} unitId={p.unitId} />,
  '/izobrazevanja/:courseId/certifikat': (p) => <CourseCertificatePage key={p.courseId} courseId={p.courseId} />,
  '/izobrazevanja/:courseId/konec': (p) => <CourseCompletedPage key={p.courseId} courseId={p.courseId} />,
  '/courses/:courseId/end': (p) => <CourseCompletedPage key={p.courseId} courseId={p.courseId} />,
  '/vimeo': () => <VideoUploadPage />,
  '/profil/izobrazevanja': () => (
    <>
      <ProfileTabs />
      <Stack gap="md">
        <ProfileCoursesPage />
        <OwnChamberCredits />
      </Stack>
    </>
  ),
};

const positive = (value: string | undefined) => {
  const n = Number(value ?? '1');
  return Number.isInteger(n) && n > 0 ? n : null;
};

/** The viewer shows the participant's unit (and the list an author's way to editing); a failed profile load is logged (spec §8) and the line left out. */
const useOwnProfile = () => {
  const me = useQuery({
    ...meQuery,
    queryFn: async (context) => {
      try {
        return await meQuery.queryFn!(context);
      } catch (error) {
        console.error('Unable to fetch user profile', error);
        throw error;
      }
    },
  });
  return {
    unitId: me.data?.userRoles.find((r) => r.unit_id > 0)?.unit_id ?? null,
    // Course authors: the platform's (1017) and a community's client (spec §6 course 2005, in its own unit).
    authoring: me.data ? hasSystemPermission(me.data, 1017) || hasRole(me.data, ROLE_ID.client) : false,
  };
};

export const CoursePage = ({ path, notFound }: { path: string; notFound: ReactNode }) => {
  const params = useParams();
  const { unitId, authoring } = useOwnProfile();
  const courseId = positive(params.courseId);
  const blockIndex = positive(params.blockIndex);
  const academyId = positive(params.academyId);
  const page = PAGES[path];
  if (!page || courseId === null || blockIndex === null || academyId === null) return <>{notFound}</>;
  return <>{page({ courseId, blockIndex, academyId, unitId }, authoring)}</>;
};
