import type { ReactNode } from 'react';
import { useParams } from 'react-router';
import { BlockViewerPage } from './block-viewer.tsx';
import { CourseCertificatePage, CourseCompletedPage } from './course-completed.tsx';
import { CourseIntroPage } from './course-intro.tsx';
import { CourseListPage } from './course-list.tsx';
import { ProfileCoursesPage } from './profile-courses.tsx';

type Params = { courseId: number; blockIndex: number };

/** The participant's course pages by route path (spec §2); they load as one chunk on first use. */
const PAGES: Record<string, (p: Params) => ReactNode> = {
  '/izobrazevanja': () => <CourseListPage />,
  '/izobrazevanja/:courseId': (p) => <CourseIntroPage key={p.courseId} courseId={p.courseId} />,
  '/izobrazevanja/:courseId/bloki/:blockIndex': (p) => <BlockViewerPage key={p.courseId} courseId={p.courseId} blockIndex={p.blockIndex} />,
  '/izobrazevanja/:courseId/certifikat': (p) => <CourseCertificatePage key={p.courseId} courseId={p.courseId} />,
  '/izobrazevanja/:courseId/konec': (p) => <CourseCompletedPage key={p.courseId} courseId={p.courseId} />,
  '/courses/:courseId/end': (p) => <CourseCompletedPage key={p.courseId} courseId={p.courseId} />,
  '/profil/izobrazevanja': () => <ProfileCoursesPage />,
};

const positive = (value: string | undefined) => {
  const n = Number(value ?? '1');
  return Number.isInteger(n) && n > 0 ? n : null;
};

export const CoursePage = ({ path, notFound }: { path: string; notFound: ReactNode }) => {
  const params = useParams();
  const courseId = positive(params.courseId);
  const blockIndex = positive(params.blockIndex);
  const page = PAGES[path];
  if (!page || courseId === null || blockIndex === null) return <>{notFound}</>;
  return <>{page({ courseId, blockIndex })}</>;
};
