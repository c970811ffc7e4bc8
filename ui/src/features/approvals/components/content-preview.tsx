import { Badge, Group, Image, List, Paper, Stack, Text, Title } from '@mantine/core';
import { IconPaperclip } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { ContentSnapshot } from '../api/approvals.ts';
import { blockTitle, flatten, orderedBlocks, readableText, snapshotFields } from '../lib/content-diff.ts';

/** Fields shown in the course's facts line rather than as text of their own. */
const FACTS = ['type', 'creditPoints', 'certificateEnabled', 'public', 'lecturer'] as const;
/** Leaves of a block not worth a reviewer's reading: ids, kinds and places. */
const SKIPPED_LEAF = /(^|\.)(id|kind|order|position|fileId|blockId)$/;

const str = (value: unknown) => (typeof value === 'string' ? value : value === null || value === undefined ? '' : String(value));

/**
 * The submitted version as participants will read it (issue 36 item 2), read-only and drawn from
 * the snapshot itself, so the reviewer sees exactly the version they sign: title, cover,
 * description, the facts (type, credit points, certificate, lecturer, audience), then each block in
 * order with its texts, and the attachments. Rich text is shown as its words, never as live HTML.
 */
export const ContentPreview = ({ snapshot }: { snapshot: ContentSnapshot }) => {
  const { t } = useTranslation();
  const fields = snapshotFields(snapshot);
  const cover = str(fields.cover);
  const blocks = orderedBlocks(snapshot);
  const attachments = snapshot.attachments ?? [];
  const audience = fields.audience;
  return (
    <Stack gap="md" data-testid="content-preview">
      <Paper withBorder radius="md" p="lg">
        <Stack gap="sm">
          {cover && /^(\/|https?:|data:image\/)/.test(cover) ? <Image src={cover} alt="" h={160} w="auto" fit="contain" radius="sm" /> : null}
          <Title order={2} size="h3" style={{ overflowWrap: 'anywhere' }}>
            {str(fields.title)}
          </Title>
          <Group gap="xs">
            {fields.type !== undefined ? <Badge variant="outline">{t(`courses.types.${str(fields.type)}`, { defaultValue: str(fields.type) })}</Badge> : null}
            {typeof fields.creditPoints === 'number' && fields.creditPoints > 0 ? (
              <Badge variant="outline">{t('approvals.preview.creditPoints', { count: fields.creditPoints })}</Badge>
            ) : null}
            {fields.certificateEnabled ? <Badge variant="outline">{t('approvals.preview.certificate')}</Badge> : null}
            <Badge variant="outline">{t(fields.public ? 'approvals.preview.public' : 'approvals.preview.notPublic')}</Badge>
          </Group>
          {str(fields.lecturer) ? (
            <Text size="sm">
              {t('approvals.fields.lecturer')}: {str(fields.lecturer)}
            </Text>
          ) : null}
          <Text style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>{readableText(str(fields.description))}</Text>
          {audience !== undefined && audience !== null ? (
            <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {t('approvals.fields.audience')}: {typeof audience === 'string' ? audience : JSON.stringify(audience)}
            </Text>
          ) : null}
          {Object.entries(fields)
            .filter(
              ([key, value]) => !(FACTS as readonly string[]).includes(key) && !['title', 'description', 'cover', 'audience'].includes(key) && value !== null,
            )
            .filter(([, value]) => str(value) !== '' && !(Array.isArray(value) && value.length === 0))
            .map(([key, value]) => (
              <Text key={key} size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {t(`approvals.fields.${key}`, { defaultValue: key })}: {typeof value === 'object' ? JSON.stringify(value) : str(value)}
              </Text>
            ))}
        </Stack>
      </Paper>
      <Title order={2} size="h4">
        {t('approvals.preview.blocks', { count: blocks.length })}
      </Title>
      {blocks.map((block, index) => {
        const leaves = [...flatten(block.fields ?? block)].filter(([path, value]) => value.trim() !== '' && !SKIPPED_LEAF.test(path));
        const kind = block.kind ?? str((block.fields as Record<string, unknown> | undefined)?.kind);
        return (
          <Paper key={block.id} withBorder radius="md" p="md" data-testid="preview-block">
            <Stack gap={6}>
              <Group gap="xs">
                <Text fw={700}>{index + 1}.</Text>
                <Text fw={700} style={{ overflowWrap: 'anywhere' }}>
                  {blockTitle(block) ?? t(`blocks.kinds.${kind}`, { defaultValue: kind })}
                </Text>
                {kind ? (
                  <Text size="xs" c="dimmed">
                    {t(`blocks.kinds.${kind}`, { defaultValue: kind })}
                  </Text>
                ) : null}
              </Group>
              {leaves
                .filter(([path]) => !/(^|\.)(title|name)$/.test(path))
                .map(([path, value]) => (
                  <Text key={path} size="sm" style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
                    <Text span c="dimmed" size="xs">
                      {path.split('.').join(' › ')}:{' '}
                    </Text>
                    {readableText(value)}
                  </Text>
                ))}
            </Stack>
          </Paper>
        );
      })}
      {attachments.length > 0 ? (
        <Paper withBorder radius="md" p="md">
          <Stack gap="xs">
            <Title order={2} size="h5">
              {t('approvals.diff.attachments')}
            </Title>
            <List spacing={4} icon={<IconPaperclip size={16} aria-hidden />}>
              {attachments.map((a) => (
                <List.Item key={a.fileId}>{a.name ?? t('approvals.diff.file', { id: a.fileId })}</List.Item>
              ))}
            </List>
          </Stack>
        </Paper>
      ) : null}
    </Stack>
  );
};
