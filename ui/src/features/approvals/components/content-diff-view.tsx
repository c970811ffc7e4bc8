import { Alert, Badge, Box, Group, Paper, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { type ChangeKind, type ContentDiff, diffText, type FieldChange, isEmptyDiff, readableText } from '../lib/content-diff.ts';

// Marked changes readable on white (WCAG AA): dark text on light green and red, struck through for removed words.
const ADDED = { background: '#d3f9d8', color: '#0b4a1a', textDecoration: 'none' } as const;
const REMOVED = { background: '#ffe3e3', color: '#7d1414', textDecoration: 'line-through' } as const;
const KIND_COLOUR: Readonly<Record<ChangeKind | 'moved', string>> = { added: '#1b6e2f', removed: '#c92a2a', changed: '#1864ab', moved: '#495057' };

/** A text change with the words added and removed marked (ins/del, so screen readers name them too). */
export const TextChange = ({ before, after }: { before: string; after: string }) => {
  const { t } = useTranslation();
  const parts = diffText(readableText(before), readableText(after));
  return (
    <Box style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="text-change">
      {parts.map((part, index) =>
        part.kind === 'same' ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one diff never reorder.
          <span key={index}>{part.text}</span>
        ) : part.kind === 'added' ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one diff never reorder.
          <ins key={index} style={ADDED}>
            <VisuallyHidden>{t('approvals.diff.added')}: </VisuallyHidden>
            {part.text}
          </ins>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one diff never reorder.
          <del key={index} style={REMOVED}>
            <VisuallyHidden>{t('approvals.diff.removed')}: </VisuallyHidden>
            {part.text}
          </del>
        ),
      )}
    </Box>
  );
};

const KindBadge = ({ kind }: { kind: ChangeKind | 'moved' }) => {
  const { t } = useTranslation();
  return (
    <Badge variant="outline" color={KIND_COLOUR[kind]} size="sm" data-kind={kind}>
      {t(`approvals.diff.kind.${kind}`)}
    </Badge>
  );
};

/**
 * A field's name for the reviewer: each step of its path by its label where there is one (a place
 * in a list as "2."), otherwise as it is: "Kviz › Vprašanja › 2. › Odgovori › 1. › Besedilo".
 */
const useFieldName = () => {
  const { t } = useTranslation();
  return (path: string) =>
    path
      .split('.')
      .map((part) => (/^\d+$/.test(part) ? `${Number(part) + 1}.` : t(`approvals.fields.${part}`, { defaultValue: part })))
      .join(' › ');
};

const FieldChanges = ({ changes }: { changes: readonly FieldChange[] }) => {
  const { t } = useTranslation();
  const name = useFieldName();
  return (
    <Table.ScrollContainer minWidth={320}>
      <Table withTableBorder verticalSpacing="xs" layout="fixed">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w="30%">{t('approvals.diff.field')}</Table.Th>
            <Table.Th>{t('approvals.diff.change')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {changes.map((change) => (
            <Table.Tr key={change.path} data-testid="field-change" data-path={change.path}>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>
                <Stack gap={2} align="flex-start">
                  <Text size="sm" fw={600}>
                    {name(change.path)}
                  </Text>
                  <KindBadge kind={change.kind} />
                </Stack>
              </Table.Td>
              <Table.Td>
                <TextChange before={change.before ?? ''} after={change.after ?? ''} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
};

/**
 * The difference of the version under review from the last approved one (issue 36 item 2): the
 * course's fields, its blocks (added, removed, moved, changed) and attachments, with the words of a
 * text change marked, so a typo fix is reviewed at a glance.
 */
export const ContentDiffView = ({ diff, firstVersion }: { diff: ContentDiff; firstVersion: boolean }) => {
  const { t } = useTranslation();
  if (firstVersion)
    return (
      <Alert color="blue" variant="light" data-testid="diff-first">
        {t('approvals.diff.first')}
      </Alert>
    );
  if (isEmptyDiff(diff))
    return (
      <Alert color="gray" variant="light" data-testid="diff-none">
        {t('approvals.diff.none')}
      </Alert>
    );
  return (
    <Stack gap="md" data-testid="content-diff">
      {diff.fields.length > 0 ? (
        <Stack gap="xs">
          <Title order={3} size="h5">
            {t('approvals.diff.courseFields')}
          </Title>
          <FieldChanges changes={diff.fields} />
        </Stack>
      ) : null}
      {diff.blocks.length > 0 ? (
        <Stack gap="xs">
          <Title order={3} size="h5">
            {t('approvals.diff.blocks')}
          </Title>
          {diff.blocks.map((block) => (
            <Paper key={block.id} withBorder radius="sm" p="sm" data-testid="block-change" data-kind={block.kind}>
              <Stack gap="xs">
                <Group gap="xs">
                  <KindBadge kind={block.kind} />
                  <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {block.title ?? t('approvals.diff.block', { id: block.id })}
                  </Text>
                  {block.blockKind ? (
                    <Text size="xs" c="dimmed">
                      {t(`blocks.kinds.${block.blockKind}`, { defaultValue: block.blockKind })}
                    </Text>
                  ) : null}
                  <Text size="xs" c="dimmed">
                    {block.from !== null && block.to !== null && block.from !== block.to
                      ? t('approvals.diff.placeMoved', { from: block.from, to: block.to })
                      : t('approvals.diff.place', { place: block.to ?? block.from })}
                  </Text>
                </Group>
                {block.fields.length > 0 && block.kind === 'changed' ? <FieldChanges changes={block.fields} /> : null}
              </Stack>
            </Paper>
          ))}
        </Stack>
      ) : null}
      {diff.attachments.length > 0 ? (
        <Stack gap="xs">
          <Title order={3} size="h5">
            {t('approvals.diff.attachments')}
          </Title>
          {diff.attachments.map((a) => (
            <Group key={`${a.kind}-${a.fileId}`} gap="xs" data-testid="attachment-change">
              <KindBadge kind={a.kind} />
              <Text size="sm">{a.name ?? t('approvals.diff.file', { id: a.fileId })}</Text>
            </Group>
          ))}
        </Stack>
      ) : null}
    </Stack>
  );
};
