import { Alert, Anchor, Button, Center, Group, Loader, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCertificate, IconDownload, IconShieldCheck } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDate } from '../../../lib/i18n.ts';
import { useMinimumDelay } from '../../../lib/use-minimum-delay.ts';
import { certificateCheckPath } from '../api/certificates.ts';
import { downloadCertificate, getUserCourse, type UserCourse } from '../api/courses.ts';
import { pointsCount } from './course-badges.tsx';
import { CourseLoadError, PageMessage } from './page-message.tsx';

const useCourse = (courseId: number) => {
  const course = useQuery({ queryKey: ['user-course', courseId], queryFn: () => getUserCourse(courseId), retry: false });
  const loading = useMinimumDelay(course.isPending);
  return { course, loading };
};

export const CertificateButton = ({ course, variant = 'filled' }: { course: UserCourse; variant?: 'filled' | 'default' }) => {
  const { t } = useTranslation();
  const download = useMutation({
    mutationFn: () => downloadCertificate(course),
    onError: () => notifications.show({ color: 'red', message: t('courses.certificateFailed') }),
  });
  return (
    <Button variant={variant} leftSection={<IconDownload size={16} aria-hidden />} onClick={() => download.mutate()} loading={download.isPending}>
      {t('courses.downloadCertificate')}
    </Button>
  );
};

/** The certificate's short number and the public page where anyone checks it (issue 18 item 3). */
export const CertificateNumber = ({ number, size = 'sm' }: { number: string; size?: 'xs' | 'sm' }) => {
  const { t } = useTranslation();
  return (
    <Stack gap={2} align="inherit">
      <Text size={size} data-testid="certificate-number">
        {t('courses.certificateNumber', { number })}
      </Text>
      <Anchor component={Link} to={certificateCheckPath(number)} size={size}>
        <Group gap={4} component="span" wrap="nowrap" display="inline-flex">
          <IconShieldCheck size={14} aria-hidden />
          {t('courses.verifyCertificate')}
        </Group>
      </Anchor>
    </Stack>
  );
};

const Frame = ({ courseId, loading, error, children }: { courseId: number; loading: boolean; error: unknown; children: React.ReactNode }) => {
  const { t } = useTranslation();
  if (loading) {
    return (
      <Center py="xl">
        <Loader role="status" aria-label={t('common.loading')} />
      </Center>
    );
  }
  if (error) {
    return <CourseLoadError error={error} />;
  }
  return (
    <Stack maw={720} mx="auto" w="100%" gap="md">
      {children}
      <Anchor component={Link} to={`/izobrazevanja/${courseId}`} size="sm">
        {t('courses.backToCourse')}
      </Anchor>
    </Stack>
  );
};

/** /izobrazevanja/{id}/konec and /courses/{id}/end: congratulations, credit points and the certificate. */
export const CourseCompletedPage = ({ courseId }: { courseId: number }) => {
  const { t } = useTranslation();
  const { course, loading } = useCourse(courseId);
  const c = course.data;
  return (
    <Frame courseId={courseId} loading={loading} error={course.error}>
      {c && c.enrollment !== 'completed' ? (
        <PageMessage title={c.title} message={t('courses.notCompletedYet')} />
      ) : c ? (
        <Paper withBorder radius="md" p="xl">
          <Stack align="center" ta="center" gap="md">
            {/* A white icon on a dark green disc: the icon must stand out from its circle (issue 18, a user test saw a plain disc). */}
            <ThemeIcon size={64} radius="xl" color="green.9" variant="filled" data-testid="completed-icon">
              <IconCertificate size={36} color="white" aria-hidden />
            </ThemeIcon>
            <Title order={1} size="h2">
              {t('courses.completedTitle')}
            </Title>
            <Text>{t('courses.completedBody', { title: c.title })}</Text>
            {c.creditPoints > 0 ? <Text fw={600}>{t('courses.creditPointsEarned', pointsCount(c.creditPoints))}</Text> : null}
            {c.certificateEnabled && c.certificateNumber ? <CertificateNumber number={c.certificateNumber} /> : null}
            <Group justify="center">
              {c.certificateEnabled && c.certificateId ? <CertificateButton course={c} /> : null}
              <Button component={Link} to="/izobrazevanja" variant="default">
                {t('courses.moreCourses')}
              </Button>
            </Group>
          </Stack>
        </Paper>
      ) : null}
    </Frame>
  );
};

/** /izobrazevanja/{id}/certifikat: the certificate's details and its PDF. */
export const CourseCertificatePage = ({ courseId }: { courseId: number }) => {
  const { t } = useTranslation();
  const { course, loading } = useCourse(courseId);
  const c = course.data;
  return (
    <Frame courseId={courseId} loading={loading} error={course.error}>
      <Title order={1} size="h2">
        {t('courses.certificate')}
      </Title>
      {c?.certificateEnabled && c.certificateId ? (
        <Paper withBorder radius="md" p="lg">
          <Stack gap="xs">
            <Title order={2} size="h4">
              {c.title}
            </Title>
            <Text size="sm">{t('courses.completedOn', { date: c.completedAt ? formatDate(c.completedAt) : '' })}</Text>
            <Text size="sm">{t('courses.creditPoints', pointsCount(c.creditPoints))}</Text>
            {c.certificateNumber ? <CertificateNumber number={c.certificateNumber} /> : null}
            <div>
              <CertificateButton course={c} />
            </div>
          </Stack>
        </Paper>
      ) : c ? (
        <Alert color="yellow">{c.certificateEnabled ? t('courses.noCertificate') : t('courses.certificateDisabled')}</Alert>
      ) : null}
    </Frame>
  );
};
