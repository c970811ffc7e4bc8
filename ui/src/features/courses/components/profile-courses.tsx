import { Alert, Anchor, Center, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDate } from '../../../lib/i18n.ts';
import { useMinimumDelay } from '../../../lib/use-minimum-delay.ts';
import { listUserCourses } from '../api/courses.ts';
import { points } from './course-badges.tsx';
import { CertificateButton, CertificateNumber } from './course-completed.tsx';

/** /profil/izobrazevanja: the participant's completed courses, credit points and certificates. */
export const ProfileCoursesPage = () => {
  const { t } = useTranslation();
  const courses = useQuery({ queryKey: ['user-courses', 'completed', ''], queryFn: () => listUserCourses({ filter: 'completed' }) });
  const loading = useMinimumDelay(courses.isPending);
  if (loading) {
    return (
      <Center py="xl">
        <Loader role="status" aria-label={t('common.loading')} />
      </Center>
    );
  }
  if (courses.isError) return <Alert color="red">{t('courses.loadFailed')}</Alert>;
  const items = courses.data?.items ?? [];
  const total = items.reduce((sum, c) => sum + c.creditPoints, 0);
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('courses.myCompleted')}
      </Title>
      {items.length === 0 ? (
        <Text c="dimmed">{t('courses.noneCompleted')}</Text>
      ) : (
        <>
          <Text data-testid="total-points">{t('courses.totalPoints', { points: points(total) })}</Text>
          <Table.ScrollContainer minWidth={560}>
            <Table striped verticalSpacing="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('courses.course')}</Table.Th>
                  <Table.Th>{t('courses.completedAt')}</Table.Th>
                  <Table.Th>{t('courses.points.label')}</Table.Th>
                  <Table.Th>{t('courses.certificate')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((c) => (
                  <Table.Tr key={c.id}>
                    <Table.Td>
                      <Anchor component={Link} to={`/izobrazevanja/${c.id}`}>
                        {c.title}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{c.completedAt ? formatDate(c.completedAt) : ''}</Table.Td>
                    <Table.Td>{points(c.creditPoints)}</Table.Td>
                    <Table.Td>
                      {c.certificateEnabled && c.certificateId ? (
                        <Stack gap={6} align="flex-start">
                          <CertificateButton course={c} variant="default" />
                          {c.certificateNumber ? <CertificateNumber number={c.certificateNumber} size="xs" /> : null}
                        </Stack>
                      ) : (
                        '–'
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </>
      )}
    </Stack>
  );
};
