import { Avatar, Badge, Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { POST_MAX_LENGTH } from '../../../../../domain/courses/post.rules.ts';
import { formatDateTime } from '../../../lib/i18n.ts';
import type { PostItem } from '../api/posts.ts';
import type { usePostMessage } from '../hooks/use-post-message.ts';

/** What the course team did with a post (issue 15): its answer, a question answered, a post hidden (moderators only get those). */
const PostBadges = ({ post }: { post: PostItem }) => {
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

/** The message box of a post form, bound to usePostMessage. */
export const PostMessageInput = ({ label, post, autoFocus }: { label: string; post: ReturnType<typeof usePostMessage>; autoFocus?: boolean }) => (
  <Textarea
    label={label}
    value={post.message}
    onChange={(e) => post.setMessage(e.currentTarget.value)}
    error={post.error}
    autosize
    minRows={2}
    maxLength={POST_MAX_LENGTH + 1}
    data-autofocus={autoFocus || undefined}
  />
);

/** A post's text, or the note that it was deleted. */
export const PostMessage = ({ post }: { post: PostItem }) => {
  const { t } = useTranslation();
  return (
    <Text
      size="sm"
      style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
      c={post.deleted ? 'dimmed' : undefined}
      fs={post.deleted ? 'italic' : undefined}
    >
      {post.deleted ? t('posts.deleted') : post.message}
    </Text>
  );
};

/** The replies under a thread, indented with a line on the left. */
export const ThreadReplies = ({ children }: { children: ReactNode }) => (
  <Stack gap="sm" pl={{ base: 'md', sm: 'xl' }} mt="xs" style={{ borderLeft: '2px solid var(--mantine-color-gray-3)' }}>
    {children}
  </Stack>
);

/**
 * One post as the learners and the course team both show it: the author's initial, name, badges and
 * date, then `body` (the text and the actions, which differ), the replies, and the delete
 * confirmation. `anonymousBadge` is the label of the "anonymous" badge where the viewer gets one.
 */
export const PostLayout = ({
  post,
  hidden,
  anonymousBadge,
  body,
  children,
  confirming: [confirming, setConfirming],
  deletion,
}: {
  post: PostItem;
  hidden?: boolean;
  anonymousBadge: string | null;
  body: ReactNode;
  children?: ReactNode;
  /** Whether the delete confirmation is open; the caller's actions open it. */
  confirming: [boolean, (open: boolean) => void];
  deletion: { text: string; color: string; loading: boolean; onConfirm: () => void };
}) => {
  const { t } = useTranslation();
  const name = post.deleted ? '' : (post.author?.name ?? t('posts.anonymousAuthor'));
  return (
    <Stack gap={6} data-post={post.id} data-hidden={hidden || undefined}>
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <Avatar radius="xl" size="sm" color="brand" aria-hidden>
          {post.author ? post.author.name.charAt(0) : '?'}
        </Avatar>
        <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
          <Group gap="xs">
            <Text size="sm" fw={600} data-testid="post-author">
              {name}
            </Text>
            {anonymousBadge ? (
              <Badge size="xs" variant="outline" color="gray.7">
                {anonymousBadge}
              </Badge>
            ) : null}
            <PostBadges post={post} />
            <Text size="xs" c="dimmed">
              {formatDateTime(post.createdAt)}
              {post.edited && !post.deleted ? ` · ${t('posts.edited')}` : ''}
            </Text>
          </Group>
          {body}
        </Stack>
      </Group>
      {children}
      <Modal opened={confirming} onClose={() => setConfirming(false)} title={t('posts.deleteTitle')} centered>
        <Stack>
          <Text size="sm">{deletion.text}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              {t('common.cancel')}
            </Button>
            <Button color={deletion.color} loading={deletion.loading} onClick={deletion.onConfirm}>
              {t('posts.delete')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
};
