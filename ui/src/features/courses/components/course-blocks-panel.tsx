import { Anchor, Badge, Button, Group, Menu, Paper, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { moved, SortableList } from '../../../components/sortable-list.tsx';
import { useFeature } from '../../../lib/features.ts';
import { type AuthoredBlock, BLOCK_KINDS, listAuthoredBlocks, moveBlock } from '../api/admin-blocks.ts';
import { NEW_BLOCK_SEGMENT } from './block-editor-page.tsx';

/**
 * The course's content on its general page (issue 15): its blocks in the order participants take
 * them, reordered by dragging or with the arrows (each move is one event on the course), each
 * opening its editor; new blocks of every kind are added at the end.
 */
export const CourseBlocksPanel = ({ courseId }: { courseId: number }) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const blocks = useQuery({ queryKey: ['admin-blocks', courseId], queryFn: () => listAuthoredBlocks(courseId) });
  // Shown at once in the new order while the move is saved; the server's order wins afterwards.
  const [order, setOrder] = useState<AuthoredBlock[] | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new answer from the server replaces the order shown.
  useEffect(() => setOrder(null), [blocks.data]);
  const move = useMutation({
    mutationFn: (input: { blockId: number; position: number }) => moveBlock(courseId, input.blockId, input.position),
    onSuccess: () => notifications.show({ color: 'teal', message: t('blocks.moved') }),
    onError: (error) => {
      setOrder(null);
      notifications.show({ color: 'red', message: error.message || t('form.failed') });
    },
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: ['admin-blocks', courseId] });
      await queryClient.invalidateQueries({ queryKey: ['admin-courses'] });
    },
  });
  const items = order ?? blocks.data ?? [];
  // An Interactr block only while that feature of spec §1 is on.
  const interactr = useFeature('interactr') === true;
  const kinds = BLOCK_KINDS.filter((kind) => kind !== 'interactr' || interactr);

  return (
    <Paper withBorder radius="md" p="lg" id="vsebina">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h3">
            {t('blocks.title')}
          </Title>
          <Menu position="bottom-end">
            <Menu.Target>
              <Button>{t('blocks.add')}</Button>
            </Menu.Target>
            <Menu.Dropdown>
              {kinds.map((kind) => (
                <Menu.Item key={kind} component={Link} to={`/admin/courses/${courseId}/blocks/${NEW_BLOCK_SEGMENT[kind]}/new`}>
                  {t(`blocks.kinds.${kind}`)}
                </Menu.Item>
              ))}
            </Menu.Dropdown>
          </Menu>
        </Group>
        <Text size="sm" c="dimmed">
          {t('blocks.versionsHint')}
        </Text>
        {blocks.isError ? <Text c="red.8">{t('form.loadFailed')}</Text> : null}
        {blocks.data && items.length === 0 ? (
          <Text c="dimmed" size="sm">
            {t('blocks.none')}
          </Text>
        ) : null}
        <SortableList
          items={items}
          itemKey={(b) => b.id}
          itemLabel={(b) => b.name}
          disabled={move.isPending}
          testId="course-blocks"
          onMove={(from, to) => {
            const block = items[from];
            if (!block) return;
            setOrder(moved(items, from, to));
            move.mutate({ blockId: block.id, position: to });
          }}
        >
          {(block, index) => (
            <Group justify="space-between" wrap="nowrap">
              <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
                <Text size="sm" c="dimmed" w={24}>
                  {index + 1}.
                </Text>
                <Badge variant="default" style={{ flexShrink: 0 }}>
                  {t(`blocks.kinds.${block.kind}`)}
                </Badge>
                <Anchor component={Link} to={`/admin/courses/${courseId}/blocks/${block.id}`} truncate>
                  {block.name}
                </Anchor>
              </Group>
            </Group>
          )}
        </SortableList>
      </Stack>
    </Paper>
  );
};
