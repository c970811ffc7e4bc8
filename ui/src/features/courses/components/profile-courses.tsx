import { Alert, Anchor, Center, Group, Loader, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { TableRegion } from '../../../components/table-region.tsx';
import { formatDate } from '../../../lib/i18n.ts';
import { useMinimumDelay } from '../../../lib/use-minimum-delay.ts';
import { listUserCourses } from '../api/courses.ts';
import { points, pointsCount } from './course-badges.tsx';
import { CertificateButton, CertificateNumber } from './course-completed.tsx';

/** Phones (below Mantine's `sm`, 48em = 768 px) list the courses as cards (issue 33: the table's certificate button sat off-screen). */
const PHONE = '(max-width: 47.99em)';

/** /profil/izobrazevanja: the participant's completed courses, credit points and certificates. */
export const ProfileCoursesPage = () => {
  const { t } = useTranslation();
  const phone = useMediaQuery(PHONE, window.matchMedia(PHONE).matches, { getInitialValueInEffect: false });
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
  const certificate = (c: (typeof items)[number]) =>
    c.certificateEnabled && c.certificateId ? (
      <Stack gap={6} align="flex-start">
        <CertificateButton course={c} variant="default" />
        {c.certificateNumber ? <CertificateNumber number={c.certificateNumber} size="xs" /> : null}
      </Stack>
    ) : null;
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
          {phone ? (
            <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label={t('courses.myCompleted')}>
              {items.map((c) => (
                <Paper key={c.id} component="li" withBorder radius="md" p="md" data-course-card={c.id}>
                  <Stack gap={6}>
                    <Anchor component={Link} to={`/izobrazevanja/${c.id}`} fw={600}>
                      {c.title}
                    </Anchor>
                    <Group gap="md">
                      <Text size="sm">{t('courses.completedOn', { date: c.completedAt ? formatDate(c.completedAt) : '–' })}</Text>
                      <Text size="sm">{t('courses.creditPoints', pointsCount(c.creditPoints))}</Text>
                    </Group>
                    {certificate(c)}
                  </Stack>
                </Paper>
              ))}
            </Stack>
          ) : (
            <TableRegion label={t('courses.myCompleted')}>
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
                      <Table.Td>{certificate(c) ?? '–'}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </TableRegion>
          )}
        </>
      )}
    </Stack>
  );
};
