import { Alert, Avatar, Badge, Button, Center, Checkbox, Group, Loader, Modal, Paper, SegmentedControl, Stack, Text, Textarea, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { POST_MAX_LENGTH, postMessageRule } from '../../../../../domain/courses/post.rules.ts';
import { formatDateTime } from '../../../lib/i18n.ts';
import { getAuthoredCourse } from '../api/admin-courses.ts';
import { deletePost, listPosts, type PostItem, type PostThread, replyAsTeam, setPostAnswered, setPostHidden } from '../api/posts.ts';
import { PostBadges } from './course-posts.tsx';

type Filter = 'all' | 'unanswered' | 'hidden';
const FILTERS: Filter[] = ['all', 'unanswered', 'hidden'];

const matches = (thread: PostThread, filter: Filter) => {
  if (filter === 'unanswered') return !thread.deleted && !thread.answered;
  if (filter === 'hidden') return thread.hidden || thread.replies.some((r) => r.hidden);
  return true;
};

/** A moderation action: every change refreshes the course's posts (the API client waits for the write to be read). */
const usePostAction = <Input,>(courseId: number, action: (input: Input) => Promise<unknown>, done: string) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: action,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['posts', courseId] });
      notifications.show({ color: 'teal', message: t(done) });
    },
    onError: (error) => notifications.show({ color: 'red', message: error.message }),
  });
};

/** The team's reply to a post: the spec's message rule, and by default the question marked answered. */
const TeamReplyForm = ({ thread, courseId, onClose }: { thread: PostThread; courseId: number; onClose: () => void }) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [message, setMessage] = useState('');
  const [markAnswered, setMarkAnswered] = useState(!thread.answered);
  const [error, setError] = useState<string | null>(null);
  const send = useMutation({
    mutationFn: async (text: string) => {
      await replyAsTeam(thread.id, text);
      if (markAnswered) await setPostAnswered(thread.id, true);
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['posts', courseId] });
      notifications.show({ color: 'teal', message: t('adminCourses.posts.replied') });
      onClose();
    },
    onError: (e) => notifications.show({ color: 'red', message: e.message }),
  });
  const submit = () => {
    const parsed = postMessageRule.safeParse(message);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? null);
      return;
    }
    setError(null);
    send.mutate(parsed.data);
  };
  return (
    <Stack gap="xs">
      <Textarea
        label={t('adminCourses.posts.teamReply')}
        value={message}
        onChange={(e) => setMessage(e.currentTarget.value)}
        error={error}
        autosize
        minRows={2}
        maxLength={POST_MAX_LENGTH + 1}
        data-autofocus
      />
      <Group justify="space-between">
        {thread.answered ? (
          <span />
        ) : (
          <Checkbox label={t('adminCourses.posts.markAnsweredToo')} checked={markAnswered} onChange={(e) => setMarkAnswered(e.currentTarget.checked)} />
        )}
        <Group gap="xs">
          <Button variant="default" size="xs" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button size="xs" onClick={submit} loading={send.isPending}>
            {t('posts.sendReply')}
          </Button>
        </Group>
      </Group>
    </Stack>
  );
};

/** One post as the team sees it: who wrote it (an anonymous author too, for system readers), what was done with it, and the actions. */
const ModeratedPost = ({ post, courseId, extra, children }: { post: PostItem; courseId: number; extra?: ReactNode; children?: ReactNode }) => {
  const { t } = useTranslation();
  const hide = usePostAction(
    courseId,
    (hidden: boolean) => setPostHidden(post.id, hidden),
    post.hidden ? 'adminCourses.posts.shownDone' : 'adminCourses.posts.hiddenDone',
  );
  const remove = usePostAction(courseId, () => deletePost(post.id), 'adminCourses.posts.deletedDone');
  const [confirming, setConfirming] = useState(false);
  const name = post.deleted ? '' : (post.author?.name ?? t('posts.anonymousAuthor'));
  return (
    <Stack gap={6} data-post={post.id} data-hidden={post.hidden || undefined}>
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <Avatar radius="xl" size="sm" color="brand" aria-hidden>
          {post.author ? post.author.name.charAt(0) : '?'}
        </Avatar>
        <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
          <Group gap="xs">
            <Text size="sm" fw={600} data-testid="post-author">
              {name}
            </Text>
            {post.anonymous && !post.deleted ? (
              <Badge size="xs" variant="outline" color="gray.7">
                {t('adminCourses.posts.anonymous')}
              </Badge>
            ) : null}
            <PostBadges post={post} />
            <Text size="xs" c="dimmed">
              {formatDateTime(post.createdAt)}
              {post.edited && !post.deleted ? ` · ${t('posts.edited')}` : ''}
            </Text>
          </Group>
          <Text
            size="sm"
            style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
            c={post.deleted ? 'dimmed' : undefined}
            fs={post.deleted ? 'italic' : undefined}
          >
            {post.deleted ? t('posts.deleted') : post.message}
          </Text>
          {post.deleted ? null : (
            <Group gap="xs" mt={4}>
              {extra}
              <Button
                size="compact-xs"
                variant={post.hidden ? 'light' : 'outline'}
                color={post.hidden ? 'brand' : 'gray.8'}
                loading={hide.isPending}
                onClick={() => hide.mutate(!post.hidden)}
              >
                {post.hidden ? t('adminCourses.posts.show') : t('adminCourses.posts.hide')}
              </Button>
              <Button size="compact-xs" variant="outline" color="red.9" onClick={() => setConfirming(true)}>
                {t('posts.delete')}
              </Button>
            </Group>
          )}
        </Stack>
      </Group>
      {children}
      <Modal opened={confirming} onClose={() => setConfirming(false)} title={t('posts.deleteTitle')} centered>
        <Stack>
          <Text size="sm">{t('adminCourses.posts.deleteConfirm')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              {t('common.cancel')}
            </Button>
            <Button color="red.8" loading={remove.isPending} onClick={() => remove.mutate(undefined, { onSettled: () => setConfirming(false) })}>
              {t('posts.delete')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
};

const ModeratedThread = ({ thread, courseId }: { thread: PostThread; courseId: number }) => {
  const { t } = useTranslation();
  const answer = usePostAction(
    courseId,
    (answered: boolean) => setPostAnswered(thread.id, answered),
    thread.answered ? 'adminCourses.posts.unansweredDone' : 'adminCourses.posts.answeredDone',
  );
  const [replying, setReplying] = useState(false);
  const actions = (
    <>
      <Button size="compact-xs" variant="light" onClick={() => setReplying(true)} disabled={replying}>
        {t('adminCourses.posts.replyAsTeam')}
      </Button>
      <Button size="compact-xs" variant="outline" color="gray.8" loading={answer.isPending} onClick={() => answer.mutate(!thread.answered)}>
        {thread.answered ? t('adminCourses.posts.markUnanswered') : t('adminCourses.posts.markAnswered')}
      </Button>
    </>
  );
  return (
    <Paper withBorder radius="md" p="md" style={thread.hidden ? { borderStyle: 'dashed' } : undefined}>
      <ModeratedPost post={thread} courseId={courseId} extra={actions}>
        {thread.replies.length > 0 || replying ? (
          <Stack gap="sm" pl={{ base: 'md', sm: 'xl' }} mt="xs" style={{ borderLeft: '2px solid var(--mantine-color-gray-3)' }}>
            {thread.replies.map((reply) => (
              <ModeratedPost key={reply.id} post={reply} courseId={courseId} />
            ))}
            {replying ? <TeamReplyForm thread={thread} courseId={courseId} onClose={() => setReplying(false)} /> : null}
          </Stack>
        ) : null}
      </ModeratedPost>
    </Paper>
  );
};

/**
 * /admin/courses/{id}/posts (issue 15): the course's comments and questions with their replies for
 * the course team: hide and show again (hidden posts stay here, marked), delete after confirming,
 * reply as the team, mark a question answered. The routes decide who may (1031/1033/1039/1041, or
 * the community ids in the course's company).
 */
export const CoursePostsAdminPage = ({ courseId }: { courseId: number }) => {
  const { t } = useTranslation();
  // The course's title and its comments switch; community moderators, who do not author courses, go without.
  const course = useQuery({ queryKey: ['admin-courses', 'authored', courseId], queryFn: () => getAuthoredCourse(courseId), retry: false });
  const posts = useQuery({ queryKey: ['posts', courseId], queryFn: () => listPosts(courseId) });
  const [filter, setFilter] = useState<Filter>('all');
  const title = course.data ? t('adminCourses.posts.title', { course: course.data.fields.title }) : t('posts.title');
  const threads = (posts.data?.items ?? []).filter((thread) => matches(thread, filter));
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {title}
      </Title>
      <Text size="sm" c="dimmed">
        {t('adminCourses.posts.intro')}
      </Text>
      {course.data && course.data.fields.postsEnabled === false ? (
        <Alert color="yellow" variant="light">
          {t('adminCourses.posts.off')}
        </Alert>
      ) : null}
      <Group justify="space-between">
        <SegmentedControl
          aria-label={t('adminCourses.posts.filter')}
          value={filter}
          onChange={(value) => setFilter(value as Filter)}
          data={FILTERS.map((value) => ({ value, label: t(`adminCourses.posts.filters.${value}`) }))}
        />
        {posts.data ? (
          <Text size="sm" c="dimmed" aria-live="polite">
            {t('adminCourses.posts.count', { count: threads.length })}
          </Text>
        ) : null}
      </Group>
      {posts.isPending ? (
        <Center py="xl">
          <Loader role="status" aria-label={t('common.loading')} />
        </Center>
      ) : null}
      {posts.isError ? <Text c="red.8">{posts.error.message || t('posts.loadFailed')}</Text> : null}
      {posts.data && threads.length === 0 ? (
        <Text c="dimmed">{posts.data.items.length === 0 ? t('adminCourses.posts.empty') : t('adminCourses.posts.emptyFilter')}</Text>
      ) : null}
      {threads.map((thread) => (
        <ModeratedThread key={thread.id} thread={thread} courseId={courseId} />
      ))}
    </Stack>
  );
};
