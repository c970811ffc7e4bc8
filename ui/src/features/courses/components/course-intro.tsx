import { Alert, Anchor, Box, Button, Center, Grid, Group, Image, List, Loader, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCircleCheck, IconCircleDashed, IconPaperclip } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { isPrescriptionOnly, RX_LABEL } from '../../../../../domain/courses/course-types.rules.ts';
import { formatDate, formatDateTime, formatFileSize } from '../../../lib/i18n.ts';
import { useMinimumDelay } from '../../../lib/use-minimum-delay.ts';
import { getUserCourse, listBlocks, listRecords, type QuizFields, startCourse } from '../api/courses.ts';
import { CourseProgress, pointsCount, StatusBadge } from './course-badges.tsx';
import { CoursePosts } from './course-posts.tsx';
import { LivePanel } from './live-panel.tsx';
import { CourseLoadError } from './page-message.tsx';
import { ContactLine, quizStanding } from './quiz-block.tsx';

/** The first block not done yet, 1-based as in the viewer's URL. */
export const nextBlockIndex = (blocks: { id: number }[], done: Set<number>) => {
  const index = blocks.findIndex((b) => !done.has(b.id));
  return index < 0 ? blocks.length : index + 1;
};

/** /izobrazevanja/{id}: the course's introduction, contents and the participant's progress. */
export const CourseIntroPage = ({ courseId }: { courseId: number }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const course = useQuery({ queryKey: ['user-course', courseId], queryFn: () => getUserCourse(courseId), retry: false });
  const blocks = useQuery({ queryKey: ['user-course', courseId, 'blocks'], queryFn: () => listBlocks(courseId), enabled: course.isSuccess });
  const records = useQuery({ queryKey: ['user-course', courseId, 'records'], queryFn: () => listRecords(courseId), enabled: course.isSuccess });
  const loading = useMinimumDelay(course.isPending || (course.isSuccess && (blocks.isPending || records.isPending)));
  const start = useMutation({
    mutationFn: () => startCourse(courseId),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['user-course', courseId] });
      navigate(`/izobrazevanja/${courseId}/bloki/1`);
    },
    onError: (error) => notifications.show({ color: 'red', message: error.message }),
  });

  if (loading) {
    return (
      <Center py="xl">
        <Loader role="status" aria-label={t('common.loading')} />
      </Center>
    );
  }
  if (course.isError || !course.data) {
    return <CourseLoadError error={course.error} />;
  }
  const c = course.data;
  const done = new Set((records.data?.items ?? []).filter((r) => r.done).map((r) => r.block_id));
  const items = blocks.data?.items ?? [];
  const canStart = c.enrollment === 'none' && c.status === 'active';
  // A quiz whose attempts ran out (decision 0053): Nadaljuj would lead straight back into it, so the page says what follows instead.
  const byBlock = new Map((records.data?.items ?? []).map((r) => [r.block_id, r]));
  const locked = items
    .map((block, index) => ({ block, index, standing: block.kind === 'quiz' ? quizStanding(block.fields as QuizFields, byBlock.get(block.id)) : null }))
    .find((x) => x.standing?.ended || x.standing?.waiting);
  const review = locked ? (
    <Button component={Link} to={`/izobrazevanja/${courseId}/bloki/${locked.index + 1}`} variant="subtle">
      {t('courses.quiz.reviewAttempts')}
    </Button>
  ) : null;
  const end =
    locked?.standing?.ended && locked.block.fields.kind === 'quiz' && locked.block.fields.afterLastFail.kind === 'end'
      ? locked.block.fields.afterLastFail
      : null;
  // Start, continue or review: on a phone it stands under the title, above the description and the
  // comment thread (issue 18: it came after the whole thread); on a wide screen in the contents card.
  const primaryAction = (
    <>
      {canStart ? (
        <Button onClick={() => start.mutate()} loading={start.isPending}>
          {t('courses.start')}
        </Button>
      ) : c.enrollment === 'started' && locked?.standing?.ended ? (
        <>
          <Alert color="red.9" variant="outline" title={t('courses.quiz.notPassedTitle')} data-testid="course-not-passed">
            <Stack gap={4}>
              {end ? <Text style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>{end.message}</Text> : null}
              {end ? <ContactLine contact={end.contact} /> : null}
            </Stack>
          </Alert>
          {review}
        </>
      ) : c.enrollment === 'started' && locked?.standing?.waiting && locked.standing.retryAt ? (
        <>
          <Text size="sm" data-testid="course-quiz-wait">
            {t('courses.quiz.waitOnCourse', { name: locked.block.name, date: formatDateTime(locked.standing.retryAt) })}
          </Text>
          {review}
        </>
      ) : c.enrollment === 'started' ? (
        <Button component={Link} to={`/izobrazevanja/${courseId}/bloki/${nextBlockIndex(items, done)}`}>
          {t('courses.continue')}
        </Button>
      ) : c.enrollment === 'completed' ? (
        <>
          <Button component={Link} to={`/izobrazevanja/${courseId}/konec`} variant="default">
            {t('courses.completedTitle')}
          </Button>
          {/* Issue 18: the certificate's own page (details, number, PDF) had no link. */}
          {c.certificateEnabled && c.certificateId ? (
            <Button component={Link} to={`/izobrazevanja/${courseId}/certifikat`} variant="subtle">
              {t('courses.certificate')}
            </Button>
          ) : null}
          <Button component={Link} to={`/izobrazevanja/${courseId}/bloki/1`} variant="subtle">
            {t('courses.review')}
          </Button>
        </>
      ) : c.status === 'reserved' && c.intervals[0] ? (
        <Text size="sm">{t('courses.opensOn', { date: formatDate(c.intervals[0].startsAt) })}</Text>
      ) : null}
    </>
  );
  return (
    <Grid gap="lg">
      <Grid.Col span={{ base: 12, md: 8 }}>
        <Stack gap="md">
          <Image src={c.cover} h={220} radius="md" alt="" fallbackSrc="/favicon.svg" />
          <Group gap="xs">
            <StatusBadge status={c.status} />
            <Text size="sm" c="dimmed">
              {t(`courses.types.${c.type}`)} · {t('courses.creditPoints', pointsCount(c.creditPoints))}
            </Text>
          </Group>
          {/* Issue 36: material about a prescription-only medicine says whom it is for (decision 0062). */}
          {isPrescriptionOnly(c.type) ? (
            <Text size="sm" fw={700} c="red.9" data-testid="rx-label">
              {RX_LABEL}
            </Text>
          ) : null}
          <Title order={1} size="h2">
            {c.title}
          </Title>
          <Stack gap="xs" hiddenFrom="md" data-testid="course-primary-action">
            {primaryAction}
          </Stack>
          <Text style={{ whiteSpace: 'pre-line' }}>{c.description}</Text>
          {c.intervals.length > 0 ? (
            <Text size="sm">
              {t('courses.interval')}: {c.intervals.map((i) => `${formatDate(i.startsAt)} – ${formatDate(i.stopsAt)}`).join(', ')}
            </Text>
          ) : null}
          {/* Issue 36: the code of the approved content, as on the certificate. */}
          {c.approvalCode ? (
            <Text size="sm" c="dimmed" data-testid="course-approval-code">
              {t('approvals.onCourse')}: {c.approvalCode}
            </Text>
          ) : null}
          {c.live ? <LivePanel courseId={courseId} live={c.live} started={c.enrollment !== 'none'} zoomUrl={c.zoomUrl ?? null} /> : null}
          {c.postsEnabled ? <CoursePosts courseId={courseId} /> : null}
        </Stack>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 4 }}>
        <Paper withBorder radius="md" p="md">
          <Stack gap="sm">
            <Title order={2} size="h4">
              {t('courses.contents')}
            </Title>
            <List spacing="xs" listStyleType="none">
              {items.map((block) => (
                <List.Item
                  key={block.id}
                  icon={
                    <ThemeIcon variant="white" color={done.has(block.id) ? 'green.9' : 'gray.7'} size="sm">
                      {done.has(block.id) ? <IconCircleCheck size={16} aria-label={t('courses.done')} /> : <IconCircleDashed size={16} aria-hidden />}
                    </ThemeIcon>
                  }
                >
                  {block.name}
                </List.Item>
              ))}
            </List>
            {c.enrollment !== 'none' ? <CourseProgress done={c.blocksDone} total={c.blocksTotal} /> : null}
            <Box visibleFrom="md">
              <Stack gap="sm">{primaryAction}</Stack>
            </Box>
          </Stack>
        </Paper>
        {(c.attachments ?? []).length > 0 ? (
          <Paper withBorder radius="md" p="md" mt="md">
            <Stack gap="xs">
              <Title order={2} size="h4">
                {t('courses.attachments')}
              </Title>
              <List spacing="xs" listStyleType="none" aria-label={t('courses.attachments')}>
                {(c.attachments ?? []).map((a) => (
                  <List.Item key={a.fileId} icon={<IconPaperclip size={16} aria-hidden />}>
                    <Anchor href={`/api/files/${a.fileId}`} download={a.name}>
                      {a.name}
                    </Anchor>{' '}
                    <Text span size="xs" c="dimmed">
                      ({formatFileSize(a.size)})
                    </Text>
                  </List.Item>
                ))}
              </List>
            </Stack>
          </Paper>
        ) : null}
      </Grid.Col>
    </Grid>
  );
};
