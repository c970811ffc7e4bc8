import { Card, Group, Image, Progress, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { IconAlertTriangle, IconAward, IconCalendarDue, IconClock, IconUser } from '@tabler/icons-react';
import { type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '../../../lib/i18n.ts';
import type { UserCourse } from '../api/courses.ts';
import { pointsCount, StatusBadge } from './course-badges.tsx';
import { dueDay, durationParts, progressPercent } from './course-card-facts.ts';
import { generatedCoverUrl } from './generated-cover.ts';

/**
 * The course's cover: the uploaded one, or one generated from the title and type where there is
 * none or it does not load. Decorative (alt=""): the card shows the title and type as text.
 */
export const CourseCover = ({ course, h, w, radius }: { course: UserCourse; h: number; w?: number; radius?: string }) => {
  const { t } = useTranslation();
  const generated = generatedCoverUrl(course.title, t(`courses.types.${course.type}`));
  return (
    <Image
      src={course.cover || generated}
      fallbackSrc={generated}
      h={h}
      w={w}
      radius={radius}
      fit="cover"
      alt=""
      data-testid="course-cover"
      data-generated={course.cover ? undefined : 'true'}
    />
  );
};

/** "1 h 30 min", "2 h", "45 min". */
const useDuration = () => {
  const { t } = useTranslation();
  return (minutes: number) => {
    const p = durationParts(minutes);
    return p.hours === 0 ? t('courses.card.minutes', p) : p.minutes === 0 ? t('courses.card.hours', p) : t('courses.card.hoursMinutes', p);
  };
};

/** One fact with its icon; the label is read out, the icon stands for it on screen. */
const Fact = ({ icon, label, children, testId }: { icon: ReactNode; label: string; children: ReactNode; testId: string }) => (
  <Group gap={6} wrap="nowrap" align="flex-start" component="li" data-testid={testId} style={{ minWidth: 0 }}>
    <span aria-hidden style={{ display: 'inline-flex', paddingTop: 2, flexShrink: 0 }}>
      {icon}
    </span>
    <Text size="sm" style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
      <VisuallyHidden>{label}: </VisuallyHidden>
      {children}
    </Text>
  </Group>
);

/** The participant's progress: a bar with its value and the blocks done as text ("3 od 5 vsebin"). */
export const CardProgress = ({ done, total }: { done: number; total: number }) => {
  const { t } = useTranslation();
  if (total === 0) return null;
  const percent = progressPercent(done, total);
  const text = t('courses.card.progress', { done: Math.min(done, total), total, count: total });
  return (
    <Stack gap={4} data-testid="course-progress">
      <Progress.Root size="sm">
        <Progress.Section
          value={percent}
          withAria={false}
          role="progressbar"
          aria-label={t('courses.card.progressLabel')}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          aria-valuetext={`${text} (${percent} %)`}
        />
      </Progress.Root>
      <Text size="xs" c="dimmed">
        {text}
      </Text>
    </Stack>
  );
};

/**
 * A course as a card (issue 33, the way Docebo shows them): cover, type and state, title, and at a
 * glance its duration, credit points, lecturer, due date (end of the interval open now) and the
 * participant's progress. The title is the card's one link (its accessible name is the title, so
 * the name holds all its visible text, WCAG 2.5.3), described by the facts and stretched over the
 * whole card (app.css `.course-card`), so the card is clicked anywhere and focused once.
 */
/** What a card says of a quiz whose attempts ran out (decision 0053): not passed, or when new attempts open; null otherwise. */
const useQuizLockText = (course: UserCourse) => {
  const { t } = useTranslation();
  if (course.enrollment !== 'started' || !course.quizLock) return null;
  if (course.quizLock.next === 'ended') return t('courses.card.notPassed');
  const retryAt = course.quizLock.retryAt;
  return retryAt && Date.parse(retryAt) > Date.now() ? t('courses.card.retryAt', { date: formatDateTime(retryAt) }) : null;
};

export const CourseCard = ({ course }: { course: UserCourse }) => {
  const { t } = useTranslation();
  const duration = useDuration();
  const id = useId();
  const due = course.enrollment === 'completed' ? null : dueDay(course.intervals, Date.now());
  const quizLock = useQuizLockText(course);
  return (
    <Card withBorder radius="md" padding="md" data-course={course.id} className="course-card" style={{ display: 'flex', flexDirection: 'column', minWidth: 0 }}>
      <Card.Section>
        <CourseCover course={course} h={150} />
      </Card.Section>
      <Stack gap="xs" mt="sm" style={{ flex: 1 }}>
        <Group justify="space-between" wrap="wrap" gap="xs" align="flex-start">
          <Text size="xs" c="dimmed">
            {t(`courses.types.${course.type}`)}
          </Text>
          <StatusBadge status={course.status} />
        </Group>
        <Title order={2} size="h4" lh={1.25} style={{ overflowWrap: 'anywhere' }}>
          <Link to={`/izobrazevanja/${course.id}`} className="course-card-link" aria-describedby={`${id}-facts`}>
            {course.title}
          </Link>
        </Title>
        <Stack gap={4} component="ul" id={`${id}-facts`} style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {course.durationMinutes ? (
            <Fact icon={<IconClock size={16} />} label={t('courses.card.duration')} testId="course-duration">
              {duration(course.durationMinutes)}
            </Fact>
          ) : null}
          <Fact icon={<IconAward size={16} />} label={t('courses.card.creditPoints')} testId="course-points">
            {t('courses.creditPoints', pointsCount(course.creditPoints))}
          </Fact>
          {course.lecturer ? (
            <Fact icon={<IconUser size={16} />} label={t('courses.card.lecturer')} testId="course-lecturer">
              {course.lecturer}
            </Fact>
          ) : null}
          {due ? (
            <Group gap={6} wrap="nowrap" component="li" data-testid="course-due">
              <IconCalendarDue size={16} aria-hidden />
              <Text size="sm">{t('courses.card.due', { date: due })}</Text>
            </Group>
          ) : null}
          {quizLock ? (
            <Group gap={6} wrap="nowrap" component="li" data-testid="course-quiz-lock">
              <IconAlertTriangle size={16} aria-hidden color="var(--mantine-color-red-9)" />
              <Text size="sm" c="red.9">
                {quizLock}
              </Text>
            </Group>
          ) : null}
        </Stack>
        <div style={{ marginTop: 'auto' }}>
          <CardProgress done={course.blocksDone} total={course.blocksTotal} />
        </div>
      </Stack>
    </Card>
  );
};

/** The same course as one row of the list view: cover, title (the link, stretched over the row), type, credit points, duration, due date and progress. */
export const CourseRow = ({ course }: { course: UserCourse }) => {
  const { t } = useTranslation();
  const duration = useDuration();
  const id = useId();
  const due = course.enrollment === 'completed' ? null : dueDay(course.intervals, Date.now());
  const quizLock = useQuizLockText(course);
  const facts = [
    t(`courses.types.${course.type}`),
    t('courses.creditPoints', pointsCount(course.creditPoints)),
    course.durationMinutes ? duration(course.durationMinutes) : null,
    due ? t('courses.card.due', { date: due }) : null,
    quizLock,
  ].filter(Boolean);
  return (
    <Card withBorder radius="md" padding="sm" data-course={course.id} className="course-card">
      <Group wrap="wrap" gap="md">
        <CourseCover course={course} w={96} h={56} radius="sm" />
        <Stack gap={2} style={{ flex: 1, minWidth: 160 }}>
          <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
            <Link to={`/izobrazevanja/${course.id}`} className="course-card-link" aria-describedby={`${id}-facts`}>
              {course.title}
            </Link>
          </Text>
          <Text size="xs" c="dimmed" id={`${id}-facts`}>
            {facts.join(' · ')}
          </Text>
        </Stack>
        {course.blocksTotal > 0 ? (
          <div style={{ width: 140 }}>
            <CardProgress done={course.blocksDone} total={course.blocksTotal} />
          </div>
        ) : null}
        <StatusBadge status={course.status} />
      </Group>
    </Card>
  );
};
