import { Anchor, Button, Group, Paper, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { listUserCourses, type UserCourse } from '../../../features/courses/api/courses.ts';
import { CourseCard } from '../../../features/courses/components/course-card.tsx';
import { NewsCard } from '../../../features/news/components/news-card.tsx';
import { formatDate, formatNumber } from '../../../lib/i18n.ts';

/** A course closing within this many days is "due". */
const DUE_DAYS = 14;
const DAY = 86_400_000;

const ljubljanaYear = (at: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Ljubljana', year: 'numeric' }).format(at);

/** The end of the interval open now, or null (a course without intervals never closes). */
const closesAt = (course: UserCourse, now: number) => {
  const open = course.intervals.find((i) => Date.parse(i.startsAt) <= now && now < Date.parse(i.stopsAt));
  return open ? Date.parse(open.stopsAt) : null;
};

/**
 * A participant's home (issue 18): where they stopped (the course started last, at its next block),
 * the courses closing within two weeks that they have not finished, new courses for them, and what
 * they completed this year with its credit points, and the news item of location 1 (also the pop-up's).
 */
export const ParticipantHome = () => {
  const { t } = useTranslation();
  const courses = useQuery({ queryKey: ['user-courses', 'home'], queryFn: () => listUserCourses({}) });
  if (!courses.data) return null;
  const now = Date.now();
  const items = courses.data.items.filter((c) => !c.archived);
  const started = items
    .filter((c) => c.enrollment === 'started' && c.status === 'active')
    .sort((a, b) => Date.parse(b.startedAt ?? '') - Date.parse(a.startedAt ?? ''));
  const current = started[0];
  const due = items
    .filter((c) => c.enrollment !== 'completed' && c.status === 'active')
    .map((c) => ({ course: c, closes: closesAt(c, now) }))
    .filter((x): x is { course: UserCourse; closes: number } => x.closes !== null && x.closes - now <= DUE_DAYS * DAY)
    .sort((a, b) => a.closes - b.closes);
  const fresh = items.filter((c) => c.enrollment === 'none' && c.status === 'active').slice(0, 3);
  const year = ljubljanaYear(new Date(now));
  const completed = items.filter((c) => c.enrollment === 'completed' && c.completedAt && ljubljanaYear(new Date(c.completedAt)) === year);
  const points = completed.reduce((sum, c) => sum + c.creditPoints, 0);
  return (
    <Stack gap="lg">
      {current ? (
        <Paper withBorder radius="md" p="lg" data-testid="home-continue">
          <Stack gap="sm">
            <Text size="sm" c="dimmed" fw={600}>
              {t('home.continue')}
            </Text>
            <Title order={2} size="h3">
              {current.title}
            </Title>
            <Progress
              value={current.blocksTotal ? (current.blocksDone / current.blocksTotal) * 100 : 0}
              aria-label={t('home.progress', { done: current.blocksDone, total: current.blocksTotal })}
            />
            <Text size="sm">{t('home.progress', { done: current.blocksDone, total: current.blocksTotal })}</Text>
            <Group>
              <Button component={Link} to={`/izobrazevanja/${current.id}/bloki/${Math.min(current.blocksDone + 1, Math.max(current.blocksTotal, 1))}`}>
                {t('home.continueButton')}
              </Button>
            </Group>
          </Stack>
        </Paper>
      ) : null}
      {due.length > 0 ? (
        <Paper withBorder radius="md" p="lg" data-testid="home-due">
          <Stack gap="xs">
            <Title order={2} size="h4">
              {t('home.due')}
            </Title>
            {due.map(({ course, closes }) => (
              <Group key={course.id} justify="space-between" wrap="nowrap">
                <Anchor component={Link} to={`/izobrazevanja/${course.id}`}>
                  {course.title}
                </Anchor>
                <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                  {t('home.closes', { date: formatDate(new Date(closes)) })}
                </Text>
              </Group>
            ))}
          </Stack>
        </Paper>
      ) : null}
      {fresh.length > 0 ? (
        <Stack gap="sm" data-testid="home-new">
          <Group justify="space-between">
            <Title order={2} size="h4">
              {t('home.new')}
            </Title>
            <Anchor component={Link} to="/izobrazevanja?filter=new" size="sm">
              {t('home.allNew')}
            </Anchor>
          </Group>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
            {fresh.map((c) => (
              <CourseCard key={c.id} course={c} />
            ))}
          </SimpleGrid>
        </Stack>
      ) : null}
      <Paper withBorder radius="md" p="lg" data-testid="home-year">
        <Group justify="space-between">
          <Stack gap={2}>
            <Title order={2} size="h4">
              {t('home.thisYear', { year })}
            </Title>
            <Text>
              {t('home.completedThisYear', { count: completed.length })} · {t('home.pointsThisYear', { points: formatNumber(points) })}
            </Text>
          </Stack>
          <Anchor component={Link} to="/profil/izobrazevanja">
            {t('home.myCompleted')}
          </Anchor>
        </Group>
      </Paper>
      <NewsCard />
    </Stack>
  );
};
