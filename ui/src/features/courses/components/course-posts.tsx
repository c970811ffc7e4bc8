import { Anchor, Avatar, Badge, Button, Checkbox, Group, Modal, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { POST_MAX_LENGTH, postMessageRule } from '../../../../../domain/courses/post.rules.ts';
import { formatDateTime } from '../../../lib/i18n.ts';
import { createPost, deletePost, editPost, listPosts, type PostItem, type PostThread } from '../api/posts.ts';

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
  const [message, setMessage] = useState(initial);
  const [anonymous, setAnonymous] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const parsed = postMessageRule.safeParse(message);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? null);
      return;
    }
    setBusy(true);
    try {
      await onSubmit({ message: parsed.data, anonymous });
      setMessage('');
      setAnonymous(false);
      setError(null);
    } catch (e) {
      notifications.show({ color: 'red', message: e instanceof Error ? e.message : t('posts.saveFailed') });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap="xs">
      <Textarea
        label={label}
        value={message}
        onChange={(e) => setMessage(e.currentTarget.value)}
        error={error}
        autosize
        minRows={2}
        maxLength={POST_MAX_LENGTH + 1}
      />
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

/** What the course team did with a post (issue 15): its answer, a question answered, a post hidden (moderators only get those). */
export const PostBadges = ({ post }: { post: PostItem }) => {
  const { t } = useTranslation();
  return (
    <>
      {post.team ? (
        <Badge size="xs" variant="outline" color="brand.8">
          {t('posts.teamBadge')}
        </Badge>
      ) : null}
      {post.answered && post.parentId === null ? (
        <Badge size="xs" variant="outline" color="#1b6e2f">
          {t('posts.answeredBadge')}
        </Badge>
      ) : null}
      {post.hidden ? (
        <Badge size="xs" variant="outline" color="red.9">
          {t('posts.hiddenBadge')}
        </Badge>
      ) : null}
    </>
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
  const name = post.deleted ? '' : (post.author?.name ?? t('posts.anonymousAuthor'));
  return (
    <Stack gap={6} data-post={post.id}>
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <Avatar radius="xl" size="sm" color="brand" aria-hidden>
          {post.author ? post.author.name.charAt(0) : '?'}
        </Avatar>
        <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
          <Group gap="xs">
            <Text size="sm" fw={600} data-testid="post-author">
              {name}
            </Text>
            {post.anonymous && post.mine ? (
              <Badge size="xs" variant="outline" color="gray.7">
                {t('posts.anonymousBadge')}
              </Badge>
            ) : null}
            <PostBadges post={post} />

            <Text size="xs" c="dimmed">
              {formatDateTime(post.createdAt)}
              {post.edited && !post.deleted ? ` · ${t('posts.edited')}` : ''}
            </Text>
          </Group>
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
            <Text
              size="sm"
              style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
              c={post.deleted ? 'dimmed' : undefined}
              fs={post.deleted ? 'italic' : undefined}
            >
              {post.deleted ? t('posts.deleted') : post.message}
            </Text>
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
        </Stack>
      </Group>
      {children}
      <Modal opened={confirming} onClose={() => setConfirming(false)} title={t('posts.deleteTitle')} centered>
        <Stack>
          <Text size="sm">{t('posts.deleteConfirm')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              {t('common.cancel')}
            </Button>
            <Button color="red" onClick={() => remove.mutate()} loading={remove.isPending}>
              {t('posts.delete')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
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
          <Stack gap="sm" pl={{ base: 'md', sm: 'xl' }} mt="xs" style={{ borderLeft: '2px solid var(--mantine-color-gray-3)' }}>
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
          </Stack>
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
