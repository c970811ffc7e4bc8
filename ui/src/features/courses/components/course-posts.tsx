import { Anchor, Button, Checkbox, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { createPost, deletePost, editPost, listPosts, type PostItem, type PostThread } from '../api/posts.ts';
import { usePostMessage } from '../hooks/use-post-message.ts';
import { PostLayout, PostMessage, PostMessageInput, ThreadReplies } from './post-layout.tsx';

const usePostsRefresh = (courseId: number) => {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ['posts', courseId] });
};

/** A message form: the spec's rule (required, at most 5000 characters) checked before sending. */
const MessageForm = ({
  label,
  initial = '',
  withAnonymous,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  label: string;
  initial?: string;
  withAnonymous: boolean;
  submitLabel: string;
  onSubmit: (input: { message: string; anonymous: boolean }) => Promise<unknown>;
  onCancel?: () => void;
}) => {
  const { t } = useTranslation();
  const post = usePostMessage(initial);
  const [anonymous, setAnonymous] = useState(false);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const message = post.validate();
    if (message === null) return;
    setBusy(true);
    try {
      await onSubmit({ message, anonymous });
      post.setMessage('');
      setAnonymous(false);
      post.setError(null);
    } catch (e) {
      notifications.show({ color: 'red', message: e instanceof Error ? e.message : t('posts.saveFailed') });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap="xs">
      <PostMessageInput label={label} post={post} />
      <Group justify="space-between">
        {withAnonymous ? <Checkbox label={t('posts.anonymous')} checked={anonymous} onChange={(e) => setAnonymous(e.currentTarget.checked)} /> : <span />}
        <Group gap="xs">
          {onCancel ? (
            <Button variant="default" onClick={onCancel}>
              {t('common.cancel')}
            </Button>
          ) : null}
          <Button onClick={submit} loading={busy}>
            {submitLabel}
          </Button>
        </Group>
      </Group>
    </Stack>
  );
};

const Post = ({ post, courseId, children, onReply }: { post: PostItem; courseId: number; children?: React.ReactNode; onReply?: () => void }) => {
  const { t } = useTranslation();
  const refresh = usePostsRefresh(courseId);
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation({
    mutationFn: () => deletePost(post.id),
    onSuccess: async () => {
      setConfirming(false);
      await refresh();
    },
    onError: (e) => notifications.show({ color: 'red', message: e.message }),
  });
  return (
    <PostLayout
      post={post}
      anonymousBadge={post.anonymous && post.mine ? t('posts.anonymousBadge') : null}
      confirming={[confirming, setConfirming]}
      deletion={{ text: t('posts.deleteConfirm'), color: 'red', loading: remove.isPending, onConfirm: () => remove.mutate() }}
      body={
        <>
          {editing ? (
            <MessageForm
              label={t('posts.edit')}
              initial={post.message}
              withAnonymous={false}
              submitLabel={t('common.save')}
              onCancel={() => setEditing(false)}
              onSubmit={async ({ message }) => {
                await editPost(post.id, message);
                setEditing(false);
                await refresh();
              }}
            />
          ) : (
            <PostMessage post={post} />
          )}
          {!editing && !post.deleted ? (
            <Group gap="md">
              {onReply ? (
                <Anchor component="button" size="xs" onClick={onReply}>
                  {t('posts.reply')}
                </Anchor>
              ) : null}
              {post.mine ? (
                <>
                  <Anchor component="button" size="xs" onClick={() => setEditing(true)}>
                    {t('posts.edit')}
                  </Anchor>
                  <Anchor component="button" size="xs" c="red.8" onClick={() => setConfirming(true)}>
                    {t('posts.delete')}
                  </Anchor>
                </>
              ) : null}
            </Group>
          ) : null}
        </>
      }
    >
      {children}
    </PostLayout>
  );
};

const Thread = ({ thread, courseId }: { thread: PostThread; courseId: number }) => {
  const { t } = useTranslation();
  const refresh = usePostsRefresh(courseId);
  const [replying, setReplying] = useState(false);
  return (
    <Paper withBorder radius="md" p="md">
      <Post post={thread} courseId={courseId} onReply={() => setReplying(true)}>
        {thread.replies.length > 0 || replying ? (
          <ThreadReplies>
            {thread.replies.map((reply) => (
              <Post key={reply.id} post={reply} courseId={courseId} />
            ))}
            {replying ? (
              <MessageForm
                label={t('posts.yourReply')}
                withAnonymous
                submitLabel={t('posts.sendReply')}
                onCancel={() => setReplying(false)}
                onSubmit={async ({ message, anonymous }) => {
                  await createPost({ courseId, message, anonymous, parentId: thread.id });
                  setReplying(false);
                  await refresh();
                }}
              />
            ) : null}
          </ThreadReplies>
        ) : null}
      </Post>
    </Paper>
  );
};

/** Comments and questions on a course (when postsEnabled): anonymous posts show no author to others. */
export const CoursePosts = ({ courseId }: { courseId: number }) => {
  const { t } = useTranslation();
  const refresh = usePostsRefresh(courseId);
  const posts = useQuery({ queryKey: ['posts', courseId], queryFn: () => listPosts(courseId) });
  return (
    <Stack gap="md" component="section" aria-labelledby="course-posts">
      <Title order={2} size="h4" id="course-posts">
        {t('posts.title')}
      </Title>
      <MessageForm
        label={t('posts.new')}
        withAnonymous
        submitLabel={t('posts.send')}
        onSubmit={async ({ message, anonymous }) => {
          await createPost({ courseId, message, anonymous, parentId: null });
          await refresh();
        }}
      />
      {posts.isError ? <Text c="red.8">{t('posts.loadFailed')}</Text> : null}
      {posts.data?.items.length === 0 ? <Text c="dimmed">{t('posts.empty')}</Text> : null}
      {posts.data?.items.map((thread) => (
        <Thread key={thread.id} thread={thread} courseId={courseId} />
      ))}
    </Stack>
  );
};
