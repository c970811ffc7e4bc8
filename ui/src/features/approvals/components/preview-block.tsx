import { Alert, Badge, Group, List, Paper, Stack, Text } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { VersionNames } from '../api/approval-names.ts';
import type { SnapshotBlock } from '../api/approvals.ts';
import { articleHasExternalMedia } from '../lib/safe-html.ts';
import { ArticleHtml, ExternalSource, FileVideoPreview, InteractrPreview, isExternalUrl, OpenLink, TypeformPreview, VimeoPreview } from './preview-media.tsx';

type Fields = Record<string, unknown>;

const str = (value: unknown) => (typeof value === 'string' ? value : '');
const num = (value: unknown) => (typeof value === 'number' ? value : null);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const obj = (value: unknown): Fields => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : {});

/** A line "label: value" of a block's setting. */
const Setting = ({ label, value }: { label: string; value: string }) => (
  <Text size="sm">
    <Text span c="dimmed" size="sm">
      {label}:{' '}
    </Text>
    {value}
  </Text>
);

const TextFile = ({ url }: { url: string }) => {
  const { t } = useTranslation();
  return (
    <Stack gap={6}>
      <OpenLink href={url} label={t('approvals.preview.openFile')} file />
      {isExternalUrl(url) ? <ExternalSource /> : null}
    </Stack>
  );
};

const Article = ({ html }: { html: string }) => (
  <Stack gap={6}>
    <ArticleHtml html={html} />
    {articleHasExternalMedia(html) ? <ExternalSource /> : null}
  </Stack>
);

const Video = ({ fields, title }: { fields: Fields; title: string }) => {
  const { t } = useTranslation();
  const vimeoId = str(fields.vimeoId);
  const fileUrl = str(fields.fileUrl);
  const seconds = num(fields.durationSeconds);
  const alternative = obj(fields.alternative);
  return (
    <Stack gap="sm">
      {vimeoId ? <VimeoPreview vimeoId={vimeoId} title={title} /> : fileUrl ? <FileVideoPreview url={fileUrl} title={title} /> : null}
      {seconds ? <Setting label={t('approvals.preview.duration')} value={`${Math.floor(seconds / 60)} min ${seconds % 60} s`} /> : null}
      {alternative.kind === 'article' ? (
        <Paper withBorder radius="sm" p="sm">
          <Stack gap={6}>
            <Text size="sm" fw={600}>
              {t('blocks.video.alternative')}
            </Text>
            <Article html={str(alternative.html)} />
          </Stack>
        </Paper>
      ) : alternative.kind === 'textFile' ? (
        <Stack gap={4}>
          <Text size="sm" fw={600}>
            {t('blocks.video.alternative')}
          </Text>
          <TextFile url={str(alternative.fileUrl)} />
        </Stack>
      ) : null}
    </Stack>
  );
};

/** Every question with its answers, the right one marked, and the author's explanation; then the quiz's rules. */
const Quiz = ({ fields }: { fields: Fields }) => {
  const { t } = useTranslation();
  const questions = list(fields.questions).map(obj);
  const after = obj(fields.afterLastFail);
  const reveal = str(fields.revealAnswers);
  return (
    <Stack gap="sm">
      <List type="ordered" spacing="xs">
        {questions.map((question, index) => (
          <List.Item key={str(question.id) || index} data-testid="preview-question">
            <Stack gap={2}>
              <Text size="sm" fw={600} style={{ whiteSpace: 'pre-line' }}>
                {str(question.text)}
              </Text>
              <List size="sm" spacing={2} listStyleType="disc">
                {list(question.answers)
                  .map(obj)
                  .map((answer, a) => (
                    <List.Item key={str(answer.id) || a}>
                      <Group gap={6} component="span" wrap="nowrap">
                        <span>{str(answer.text)}</span>
                        {answer.correct === true ? (
                          <Badge size="sm" color="teal" variant="light" leftSection={<IconCheck size={12} aria-hidden />} tt="none">
                            {t('approvals.preview.correct')}
                          </Badge>
                        ) : null}
                      </Group>
                    </List.Item>
                  ))}
              </List>
              {str(question.explanation) ? (
                <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-line' }}>
                  {t('approvals.preview.explanation')}: {str(question.explanation)}
                </Text>
              ) : null}
            </Stack>
          </List.Item>
        ))}
      </List>
      {num(fields.batchSize) !== null ? <Setting label={t('blocks.quiz.batchSize')} value={String(fields.batchSize)} /> : null}
      {num(fields.successThreshold) !== null ? <Setting label={t('blocks.quiz.threshold')} value={`${fields.successThreshold} %`} /> : null}
      {num(fields.retries) !== null ? <Setting label={t('blocks.quiz.retries')} value={String(fields.retries)} /> : null}
      {reveal ? <Setting label={t('blocks.quiz.revealAnswers')} value={t(`blocks.quiz.reveal.${reveal}`, { defaultValue: reveal })} /> : null}
      {after.kind === 'end' ? (
        <Setting
          label={t('blocks.quiz.afterLastFail')}
          value={[t('blocks.quiz.afterLastFailEnd'), str(after.message), str(after.contact)].filter(Boolean).join(' · ')}
        />
      ) : after.kind === 'wait' ? (
        <Setting label={t('blocks.quiz.afterLastFail')} value={`${t('blocks.quiz.afterLastFailWait')} (${num(after.hours) ?? ''} h)`} />
      ) : null}
    </Stack>
  );
};

const Nps = ({ fields, names }: { fields: Fields; names: VersionNames | undefined }) => {
  const { t } = useTranslation();
  const reasons = obj(fields.reasons);
  return (
    <Stack gap={6}>
      <Text size="sm" fw={600} style={{ whiteSpace: 'pre-line' }}>
        {str(fields.question)}
      </Text>
      {num(fields.set) !== null ? <Setting label={t('blocks.nps.set')} value={String(fields.set)} /> : null}
      {(['detractor', 'neutral', 'promoter'] as const).map((kind) =>
        list(reasons[kind]).length > 0 ? <Setting key={kind} label={t(`blocks.nps.reasons.${kind}`)} value={list(reasons[kind]).map(str).join(', ')} /> : null,
      )}
      {fields.commentEnabled === true ? <Text size="sm">{t('blocks.nps.comment')}</Text> : null}
      {list(fields.followUps)
        .map(obj)
        .map((followUp, index) => {
          const groupId = num(followUp.professionGroupId);
          const group =
            groupId === null
              ? t('blocks.nps.everyone')
              : (names?.professionGroups.find((g) => g.id === groupId)?.name ?? t('approvals.preview.unknownName', { id: groupId }));
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: follow-up questions have no id and keep their order within one version.
            <Stack key={index} gap={2}>
              <Text size="sm" fw={600}>
                {t('blocks.nps.followUpQuestion', { index: index + 1 })} ({group}): {str(followUp.question)}
              </Text>
              <Text size="sm">{list(followUp.answers).map(str).join(' · ')}</Text>
            </Stack>
          );
        })}
    </Stack>
  );
};

/** A package's parts and the author's rule for done; the package itself plays only inside the course (its launch records progress). */
const Package = ({ fields }: { fields: Fields }) => {
  const { t } = useTranslation();
  const items = list(fields.items).map(obj);
  const completion = str(fields.completion);
  return (
    <Stack gap={6}>
      {str(fields.standard) ? (
        <Setting label={t('approvals.fields.standard')} value={t(`blocks.package.standards.${str(fields.standard)}`, { defaultValue: str(fields.standard) })} />
      ) : null}
      {completion ? (
        <Setting
          label={t('blocks.package.completion')}
          value={`${t(`blocks.package.completions.${completion}`, { defaultValue: completion })}${completion === 'score' ? ` (${num(fields.threshold) ?? ''} %)` : ''}`}
        />
      ) : null}
      {items.length > 0 ? (
        <List size="sm" spacing={2} aria-label={t('blocks.package.items')}>
          {items.map((item) => (
            <List.Item key={str(item.id)}>{str(item.title) || str(item.id)}</List.Item>
          ))}
        </List>
      ) : null}
      <Alert color="gray" variant="light" p="xs">
        <Text size="sm">{t('approvals.preview.packageNote')}</Text>
      </Alert>
    </Stack>
  );
};

/** One block of the version as participants meet it, by its kind. */
export const PreviewBlockBody = ({ block, title, names }: { block: SnapshotBlock; title: string; names: VersionNames | undefined }) => {
  const { t } = useTranslation();
  const fields = obj(block.fields ?? block);
  switch (str(fields.kind) || block.kind) {
    case 'article':
      return <Article html={str(fields.html)} />;
    case 'video':
      return <Video fields={fields} title={title} />;
    case 'textFile':
      return <TextFile url={str(fields.fileUrl)} />;
    case 'typeform':
      return <TypeformPreview typeformId={str(fields.typeformId)} title={title} />;
    case 'interactr':
      return <InteractrPreview html={str(fields.html)} />;
    case 'points':
      return <Text size="sm">{t('approvals.preview.creditPoints', { count: num(fields.points) ?? 0 })}</Text>;
    case 'quiz':
      return <Quiz fields={fields} />;
    case 'nps':
      return <Nps fields={fields} names={names} />;
    case 'package':
      return <Package fields={fields} />;
    default:
      return null;
  }
};

/** The block kinds drawn above; any other shows its fields as text. */
export const PREVIEWED_KINDS = new Set(['article', 'video', 'textFile', 'typeform', 'interactr', 'points', 'quiz', 'nps', 'package']);
