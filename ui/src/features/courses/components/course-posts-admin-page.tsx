import { Alert, Button, Center, Checkbox, Group, Loader, Paper, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getAuthoredCourse } from '../api/admin-courses.ts';
import { deletePost, listPosts, type PostItem, type PostThread, replyAsTeam, setPostAnswered, setPostHidden } from '../api/posts.ts';
import { usePostMessage } from '../hooks/use-post-message.ts';
import { PostLayout, PostMessage, PostMessageInput, ThreadReplies } from './post-layout.tsx';

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
  const post = usePostMessage();
  const [markAnswered, setMarkAnswered] = useState(!thread.answered);
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
    const message = post.validate();
    if (message === null) return;
    post.setError(null);
    send.mutate(message);
  };
  return (
    <Stack gap="xs">
      <PostMessageInput label={t('adminCourses.posts.teamReply')} post={post} autoFocus />
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
  return (
    <PostLayout
      post={post}
      hidden={post.hidden}
      anonymousBadge={post.anonymous && !post.deleted ? t('adminCourses.posts.anonymous') : null}
      confirming={[confirming, setConfirming]}
      deletion={{
        text: t('adminCourses.posts.deleteConfirm'),
        color: 'red.8',
        loading: remove.isPending,
        onConfirm: () => remove.mutate(undefined, { onSettled: () => setConfirming(false) }),
      }}
      body={
        <>
          <PostMessage post={post} />
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
        </>
      }
    >
      {children}
    </PostLayout>
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
          <ThreadReplies>
            {thread.replies.map((reply) => (
              <ModeratedPost key={reply.id} post={reply} courseId={courseId} />
            ))}
            {replying ? <TeamReplyForm thread={thread} courseId={courseId} onClose={() => setReplying(false)} /> : null}
          </ThreadReplies>
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
