import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { Breadcrumbs } from '../../../components/breadcrumbs.tsx';
import { getAdminAcademy } from '../../../features/courses/api/admin-academies.ts';
import { getAuthoredCourse } from '../../../features/courses/api/admin-courses.ts';
import { breadcrumbTrail } from '../../breadcrumb-trail.ts';

const recordId = (value: string | undefined) => (value !== undefined && /^\d+$/.test(value) ? Number(value) : null);

/**
 * The breadcrumbs of a nested admin page (issue 33), named by the route's pattern; a course's or an
 * academy's pages name it by its title (the same cached query as its tabs and form).
 */
export const PageBreadcrumbs = ({ path }: { path: string }) => {
  const { t } = useTranslation();
  const params = useParams();
  const courseId = path.startsWith('/admin/courses/:courseId/') ? recordId(params.courseId) : null;
  const academyId = path.startsWith('/admin/academies/:id/') ? recordId(params.id) : null;
  const course = useQuery({
    queryKey: ['admin-courses', 'authored', courseId],
    queryFn: () => getAuthoredCourse(courseId as number),
    enabled: courseId !== null,
    retry: false,
  });
  const academy = useQuery({
    queryKey: ['academies', 'authored', academyId],
    queryFn: () => getAdminAcademy(academyId as number),
    enabled: academyId !== null,
    retry: false,
  });
  const trail = breadcrumbTrail(path, params, { course: course.data?.fields.title, academy: academy.data?.title });
  return <Breadcrumbs items={trail.map((step) => ({ label: step.name ?? t(step.key ?? ''), to: step.to }))} />;
};
