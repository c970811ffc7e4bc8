import { Alert, Badge, Group, Image, List, Paper, Stack, Text, Title } from '@mantine/core';
import { IconPaperclip } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isPrescriptionOnly, RX_LABEL } from '../../../../../domain/courses/course-types.rules.ts';
import { formatDateTime } from '../../../lib/i18n.ts';
import { approvalNamesQuery, type VersionNames } from '../api/approval-names.ts';
import type { ContentSnapshot } from '../api/approvals.ts';
import { blockTitle, flatten, orderedBlocks, readableText, snapshotFields } from '../lib/content-diff.ts';
import { PreviewAudience } from './preview-audience.tsx';
import { PREVIEWED_KINDS, PreviewBlockBody } from './preview-block.tsx';
import { ExternalSource, InteractrPreview, isExternalUrl, OpenLink, TypeformPreview, VimeoPreview } from './preview-media.tsx';

/** Course fields drawn in their own place; any other shows as "label: value". */
const DRAWN = new Set([
  'type',
  'title',
  'description',
  'cover',
  'creditPoints',
  'certificateEnabled',
  'public',
  'lecturer',
  'audience',
  'intervals',
  'live',
  'prerequisites',
  'tagIds',
  'vimeoId',
  'typeformId',
  'interactrHtml',
  'zoomUrl',
]);
/** Leaves of a block of an unknown kind not worth a reviewer's reading: ids, kinds and places. */
const SKIPPED_LEAF = /(^|\.)(id|kind|order|position|blockId)$/;

const str = (value: unknown) => (typeof value === 'string' ? value : value === null || value === undefined ? '' : String(value));
const ids = (value: unknown): number[] => (Array.isArray(value) ? value.filter((v): v is number => typeof v === 'number') : []);
const obj = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** "label: value", for the course's facts. */
const Fact = ({ label, children }: { label: string; children: ReactNode }) => (
  <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
    <Text span c="dimmed" size="sm">
      {label}:{' '}
    </Text>
    {children}
  </Text>
);

/** The dates, the live webinar, the prerequisites and tags by name, and the course-level media. */
const CourseFacts = ({ fields, names }: { fields: Record<string, unknown>; names: VersionNames | undefined }) => {
  const { t } = useTranslation();
  const unknown = (id: number) => t('approvals.preview.unknownName', { id });
  const intervals = (Array.isArray(fields.intervals) ? fields.intervals : []).map(obj);
  const live = fields.live ? obj(fields.live) : null;
  const prerequisites = ids(fields.prerequisites);
  const tags = ids(fields.tagIds);
  const period = (i: Record<string, unknown>) => `${formatDateTime(str(i.startsAt))} – ${formatDateTime(str(i.stopsAt))}`;
  return (
    <Stack gap={6}>
      {str(fields.lecturer) ? <Fact label={t('approvals.fields.lecturer')}>{str(fields.lecturer)}</Fact> : null}
      {intervals.length > 0 ? <Fact label={t('approvals.fields.intervals')}>{intervals.map(period).join(', ')}</Fact> : null}
      {live ? (
        <Fact label={t('approvals.fields.live')}>
          {[period(live), str(live.roomId) ? `${t('approvals.fields.roomId')}: ${str(live.roomId)}` : ''].filter(Boolean).join(' · ')}
        </Fact>
      ) : null}
      {prerequisites.length > 0 ? (
        <Fact label={t('approvals.fields.prerequisites')}>
          {prerequisites.map((id) => names?.courses.find((c) => c.id === id)?.name ?? unknown(id)).join(', ')}
        </Fact>
      ) : null}
      {tags.length > 0 ? (
        <Fact label={t('approvals.fields.tagIds')}>{tags.map((id) => names?.tags.find((tag) => tag.id === id)?.name ?? unknown(id)).join(', ')}</Fact>
      ) : null}
      {str(fields.vimeoId) ? (
        <Stack gap={4}>
          <Text size="sm" fw={600}>
            {t('approvals.fields.vimeoId')}
          </Text>
          <VimeoPreview vimeoId={str(fields.vimeoId)} title={t('approvals.fields.vimeoId')} />
        </Stack>
      ) : null}
      {str(fields.typeformId) ? (
        <Stack gap={4}>
          <Text size="sm" fw={600}>
            {t('approvals.fields.typeformId')}
          </Text>
          <TypeformPreview typeformId={str(fields.typeformId)} title={t('approvals.fields.typeformId')} />
        </Stack>
      ) : null}
      {str(fields.interactrHtml) ? (
        <Stack gap={4}>
          <Text size="sm" fw={600}>
            {t('approvals.fields.interactrHtml')}
          </Text>
          <InteractrPreview html={str(fields.interactrHtml)} />
        </Stack>
      ) : null}
      {str(fields.zoomUrl) ? (
        <Stack gap={4}>
          <Fact label={t('approvals.fields.zoomUrl')}>
            <OpenLink href={str(fields.zoomUrl)} label={str(fields.zoomUrl)} />
          </Fact>
          <ExternalSource what="Zoom" />
        </Stack>
      ) : null}
    </Stack>
  );
};

/**
 * The submitted version as participants will meet it (issue 36 item 2), read-only and drawn from
 * the snapshot itself, so the reviewer sees exactly the version they sign: the cover, the RX label
 * of a prescription-only course, the title, type, points and certificate, the description as the
 * course page shows it, whom it reaches by name, the dates and media, then each block in order as
 * its kind is shown (articles formatted, videos in their player, files and forms as links, quizzes
 * with the right answers marked), and the attachments as links. What comes from outside the
 * platform (Vimeo, Typeform, Interactr, Zoom, https files and images) is flagged: the approval's
 * hash binds the address, not what the other site serves there.
 */
export const ContentPreview = ({ snapshot, courseId, approvalVersion }: { snapshot: ContentSnapshot; courseId?: number; approvalVersion?: number }) => {
  const { t } = useTranslation();
  const names = useQuery({
    ...approvalNamesQuery(courseId ?? 0, approvalVersion ?? 0),
    enabled: courseId !== undefined && approvalVersion !== undefined,
  }).data;
  const fields = snapshotFields(snapshot);
  const cover = str(fields.cover);
  const blocks = orderedBlocks(snapshot);
  const attachments = (snapshot.attachments ?? []).map((a) => (typeof a === 'number' ? { fileId: a, name: null } : a));
  const type = typeof fields.type === 'number' ? fields.type : Number(fields.type);
  const rx = Number.isInteger(type) && isPrescriptionOnly(type);
  return (
    <Stack gap="md" data-testid="content-preview">
      <Paper withBorder radius="md" p="lg">
        <Stack gap="sm">
          {cover && /^(\/|https:|data:image\/)/.test(cover) ? <Image src={cover} alt="" h={160} w="auto" fit="contain" radius="sm" /> : null}
          {isExternalUrl(cover) ? <ExternalSource what={t('approvals.fields.cover')} /> : null}
          {rx ? (
            <Alert color="red" variant="light" p="xs" data-testid="preview-rx">
              <Text size="sm" fw={700} c="red.9">
                {RX_LABEL}
              </Text>
            </Alert>
          ) : null}
          <Title order={2} size="h3" style={{ overflowWrap: 'anywhere' }}>
            {str(fields.title)}
          </Title>
          <Group gap="xs">
            {fields.type !== undefined && fields.type !== null ? (
              <Badge variant={rx ? 'filled' : 'outline'} color={rx ? 'red.9' : undefined} tt="none" data-testid="preview-type">
                {rx ? 'Rx · ' : ''}
                {t(`courses.types.${str(fields.type)}`, { defaultValue: str(fields.type) })}
              </Badge>
            ) : null}
            {typeof fields.creditPoints === 'number' && fields.creditPoints > 0 ? (
              <Badge variant="outline" tt="none">
                {t('approvals.preview.creditPoints', { count: fields.creditPoints })}
              </Badge>
            ) : null}
            {fields.certificateEnabled ? (
              <Badge variant="outline" tt="none">
                {t('approvals.preview.certificate')}
              </Badge>
            ) : null}
            <Badge variant="outline" tt="none">
              {t(fields.public ? 'approvals.preview.public' : 'approvals.preview.notPublic')}
            </Badge>
          </Group>
          {/* As the course page shows it: plain text, its line breaks kept. */}
          <Text style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>{str(fields.description)}</Text>
          <PreviewAudience audience={fields.audience} isPublic={Boolean(fields.public)} rx={rx} names={names} />
          <CourseFacts fields={fields} names={names} />
          {Object.entries(fields)
            .filter(([key, value]) => !DRAWN.has(key) && value !== null && str(value) !== '' && !(Array.isArray(value) && value.length === 0))
            .map(([key, value]) => (
              <Fact key={key} label={t(`approvals.fields.${key}`, { defaultValue: key })}>
                {typeof value === 'object' ? JSON.stringify(value) : str(value)}
              </Fact>
            ))}
        </Stack>
      </Paper>
      <Title order={2} size="h4">
        {t('approvals.preview.blocks', { count: blocks.length })}
      </Title>
      {blocks.map((block, index) => {
        const blockFields = obj(block.fields ?? block);
        const kind = block.kind ?? str(blockFields.kind);
        const title = blockTitle(block) ?? t(`blocks.kinds.${kind}`, { defaultValue: kind });
        const leaves = PREVIEWED_KINDS.has(kind)
          ? []
          : [...flatten(blockFields)].filter(([path, value]) => value.trim() !== '' && !SKIPPED_LEAF.test(path) && !/(^|\.)(title|name)$/.test(path));
        return (
          <Paper key={block.id} withBorder radius="md" p="md" data-testid="preview-block" data-kind={kind}>
            <Stack gap="sm">
              <Group gap="xs">
                <Text fw={700}>{index + 1}.</Text>
                <Text fw={700} style={{ overflowWrap: 'anywhere' }}>
                  {title}
                </Text>
                {kind ? (
                  <Text size="xs" c="dimmed">
                    {t(`blocks.kinds.${kind}`, { defaultValue: kind })}
                  </Text>
                ) : null}
              </Group>
              <PreviewBlockBody block={block} title={title} names={names} />
              {leaves.map(([path, value]) => (
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
            <List spacing={4} icon={<IconPaperclip size={16} aria-hidden />} data-testid="preview-attachments">
              {attachments.map((a) => (
                <List.Item key={a.fileId}>
                  <OpenLink href={`/api/files/${a.fileId}`} label={a.name ?? t('approvals.diff.file', { id: a.fileId })} file />
                </List.Item>
              ))}
            </List>
          </Stack>
        </Paper>
      ) : null}
    </Stack>
  );
};
