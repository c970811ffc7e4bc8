import { Anchor, Button, Center, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconArrowRight } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useMinimumDelay } from '../../../lib/use-minimum-delay.ts';
import { type Block, type BlockRecord, getUserCourse, listBlocks, listRecords, openBlock, type QuizFields } from '../api/courses.ts';
import { useCourseStep } from '../hooks/use-course-step.ts';
import { ContentBlock } from './content-block.tsx';
import { CourseProgress } from './course-badges.tsx';
import { nextBlockIndex } from './course-intro.tsx';
import { NpsBlock } from './nps-block.tsx';
import { PackageBlock } from './package-block.tsx';
import { CourseLoadError, PageMessage } from './page-message.tsx';
import { QuizBlock, quizStanding } from './quiz-block.tsx';
import { VideoBlock } from './video-block.tsx';
import { ViewerUnit } from './viewer-unit.tsx';

/**
 * Records an opening once per block visit; article, points, text file and typeform are done by it. A
 * quiz whose attempts ran out before decision 0053 has no next step recorded: opening it records one.
 * A package block (issue 35), like a video, quiz or NPS survey, is not done by opening; it is opened
 * by launching an item (the launch records the opening), so "opened" says the participant began it.
 */
const useOpenOnce = (courseId: number, block: Block | undefined, record: BlockRecord | undefined, active: boolean) => {
  const open = useCourseStep(courseId, (blockId: number) => openBlock(courseId, blockId), { silent: true });
  const sent = useRef<number | null>(null);
  useEffect(() => {
    if (!active || !block || block.kind === 'package' || record?.done || sent.current === block.id) return;
    const outcomeMissing =
      block.kind === 'quiz' && record !== undefined && !record.done && record.quizNext === null && quizStanding(block.fields as QuizFields, record).left === 0;
    if (record?.opened && ['video', 'quiz', 'nps'].includes(block.kind) && !outcomeMissing) return;
    sent.current = block.id;
    open.mutate(block.id);
  }, [active, block, record, open]);
};

const BlockBody = ({ courseId, block, record }: { courseId: number; block: Block; record: BlockRecord | undefined }) => {
  switch (block.kind) {
    case 'video':
      return <VideoBlock courseId={courseId} block={block} record={record} />;
    case 'quiz':
      return <QuizBlock key={block.id} courseId={courseId} block={block} record={record} />;
    case 'nps':
      return <NpsBlock key={block.id} courseId={courseId} block={block} record={record} />;
    case 'package':
      return <PackageBlock key={block.id} courseId={courseId} block={block} record={record} />;
    default:
      return <ContentBlock block={block} />;
  }
};

/** /izobrazevanja/{id}/bloki/{blockIndex}: one block at a time (1-based index), previous and next. */
export const BlockViewerPage = ({ courseId, blockIndex, unitId }: { courseId: number; blockIndex: number; unitId: number | null }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const course = useQuery({ queryKey: ['user-course', courseId], queryFn: () => getUserCourse(courseId), retry: false });
  const blocks = useQuery({ queryKey: ['user-course', courseId, 'blocks'], queryFn: () => listBlocks(courseId), enabled: course.isSuccess });
  const records = useQuery({ queryKey: ['user-course', courseId, 'records'], queryFn: () => listRecords(courseId), enabled: course.isSuccess });
  const items = blocks.data?.items ?? [];
  const block = items[blockIndex - 1];
  const byBlock = new Map((records.data?.items ?? []).map((r) => [r.block_id, r]));
  const record = block ? byBlock.get(block.id) : undefined;
  const done = new Set([...byBlock.values()].filter((r) => r.done).map((r) => r.block_id));
  const started = course.data?.enrollment === 'started';
  const reachable = course.data?.enrollment === 'completed' || (started && items.slice(0, blockIndex - 1).every((b) => done.has(b.id)));
  useOpenOnce(courseId, block, record, started && reachable && records.isSuccess);
  const loading = useMinimumDelay(course.isPending || (course.isSuccess && (blocks.isPending || records.isPending)));

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
  if (blocks.isError || records.isError) return <CourseLoadError error={blocks.error ?? records.error} />;
  const c = course.data;
  const back = (
    <Anchor component={Link} to={`/izobrazevanja/${courseId}`} size="sm">
      {t('courses.backToCourse')}
    </Anchor>
  );
  if (c.enrollment === 'none') {
    return (
      <PageMessage title={c.title} message={t('courses.notStarted')}>
        {back}
      </PageMessage>
    );
  }
  if (!block) {
    return (
      <PageMessage title={c.title} message={t('courses.noSuchBlock')}>
        {back}
      </PageMessage>
    );
  }
  if (!reachable) {
    return (
      <PageMessage title={c.title} message={t('courses.finishPrevious')}>
        <Button component={Link} to={`/izobrazevanja/${courseId}/bloki/${nextBlockIndex(items, done)}`} style={{ alignSelf: 'flex-start' }}>
          {t('courses.continue')}
        </Button>
      </PageMessage>
    );
  }
  const isDone = done.has(block.id);
  const last = blockIndex === items.length;
  return (
    <Stack gap="md" maw={900} mx="auto" w="100%">
      <Group justify="space-between" align="flex-end">
        <Stack gap={2}>
          {back}
          <Title order={1} size="h3">
            {c.title}
          </Title>
          <ViewerUnit unitId={unitId} />
        </Stack>
        <div style={{ minWidth: 200 }}>
          <CourseProgress done={c.blocksDone} total={c.blocksTotal} />
        </div>
      </Group>
      <Paper withBorder radius="md" p={{ base: 'sm', sm: 'lg' }}>
        <Stack gap="md">
          <Text size="sm" c="dimmed" data-testid="block-position">
            {t('courses.block', { index: blockIndex, total: items.length })}
          </Text>
          <Title order={2} size="h4">
            {block.name}
          </Title>
          <BlockBody courseId={courseId} block={block} record={record} />
        </Stack>
      </Paper>
      <Group justify="space-between">
        <Button
          variant="default"
          leftSection={<IconArrowLeft size={16} aria-hidden />}
          disabled={blockIndex <= 1}
          onClick={() => navigate(`/izobrazevanja/${courseId}/bloki/${blockIndex - 1}`)}
        >
          {t('courses.previous')}
        </Button>
        {last ? (
          <Button disabled={c.enrollment !== 'completed'} onClick={() => navigate(`/izobrazevanja/${courseId}/konec`)}>
            {t('courses.finish')}
          </Button>
        ) : (
          <Button
            rightSection={<IconArrowRight size={16} aria-hidden />}
            disabled={!isDone}
            onClick={() => navigate(`/izobrazevanja/${courseId}/bloki/${blockIndex + 1}`)}
          >
            {t('courses.next')}
          </Button>
        )}
      </Group>
    </Stack>
  );
};
