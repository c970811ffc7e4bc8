import { Alert, Card, Center, Group, Image, Loader, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useMinimumDelay } from '../../../lib/use-minimum-delay.ts';
import { getUserAcademy, listUserAcademies, type UserAcademy } from '../api/academies.ts';
import { points, pointsCount } from './course-badges.tsx';
import { CourseCard } from './course-card.tsx';
import { LoadError } from './page-message.tsx';

const Pending = () => {
  const { t } = useTranslation();
  return (
    <Center py="xl">
      <Loader role="status" aria-label={t('common.loading')} />
    </Center>
  );
};

/** Series progress: completed courses of the series and credit points earned of those on offer. */
const SeriesProgress = ({ academy }: { academy: UserAcademy }) => {
  const { t } = useTranslation();
  const label = t('academies.progress', { done: academy.coursesCompleted, total: academy.coursesTotal, count: academy.coursesTotal });
  return (
    <Stack gap={4}>
      <Progress value={(academy.coursesCompleted / Math.max(1, academy.coursesTotal)) * 100} size="sm" aria-label={label} />
      <Group justify="space-between" gap="xs">
        <Text size="xs" c="dimmed">
          {label}
        </Text>
        <Text size="xs" c="dimmed" data-testid="academy-points">
          {t('academies.points', {
            earned: points(academy.creditPointsEarned),
            total: points(academy.creditPoints),
            count: pointsCount(academy.creditPoints).count,
          })}
        </Text>
      </Group>
    </Stack>
  );
};

/** /powerclass: the academies open to the participant. */
export const AcademyListPage = () => {
  const { t } = useTranslation();
  const academies = useQuery({ queryKey: ['user-academies'], queryFn: listUserAcademies });
  const loading = useMinimumDelay(academies.isPending);
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('pages.academies')}
      </Title>
      {loading ? (
        <Pending />
      ) : academies.isError ? (
        <Alert color="red">{t('academies.listLoadFailed')}</Alert>
      ) : (academies.data?.items.length ?? 0) === 0 ? (
        <Text c="dimmed">{t('academies.empty')}</Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {academies.data?.items.map((academy) => (
            <Card key={academy.id} withBorder radius="md" padding="md" component={Link} to={`/powerclass/${academy.id}`} data-academy={academy.id}>
              <Card.Section>
                <Image src={academy.cover} h={140} alt="" fallbackSrc="/favicon.svg" />
              </Card.Section>
              <Stack gap="xs" mt="sm">
                <Title order={2} size="h4" lh={1.25}>
                  {academy.title}
                </Title>
                <Text size="sm" c="dimmed">
                  {t('home.coursesCount', { count: academy.coursesTotal })}
                </Text>
                <SeriesProgress academy={academy} />
              </Stack>
            </Card>
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
};

/** /powerclass/{academyId}: the series with the participant's progress and its courses in order. */
export const AcademyPage = ({ academyId }: { academyId: number }) => {
  const { t } = useTranslation();
  const academy = useQuery({ queryKey: ['user-academies', academyId], queryFn: () => getUserAcademy(academyId), retry: false });
  const loading = useMinimumDelay(academy.isPending);
  if (loading) return <Pending />;
  if (academy.isError || !academy.data) {
    return <LoadError error={academy.error} title={t('pages.academy')} notFound={t('academies.notFound')} failed={t('academies.loadFailed')} />;
  }
  const a = academy.data;
  return (
    <Stack gap="lg">
      <Image src={a.cover} h={200} radius="md" alt="" fallbackSrc="/favicon.svg" />
      <Stack gap="xs">
        <Title order={1} size="h2">
          {a.title}
        </Title>
        <Text style={{ whiteSpace: 'pre-line' }}>{a.description}</Text>
        <div style={{ maxWidth: 480 }}>
          <SeriesProgress academy={a} />
        </div>
      </Stack>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        {a.courses.map((course) => (
          <CourseCard key={course.id} course={course} />
        ))}
      </SimpleGrid>
    </Stack>
  );
};
