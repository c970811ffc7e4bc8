import { Grid, NumberInput, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { videoBlockRule } from '../../../../../domain/courses/course.rules.ts';
import { RichTextInput } from '../../../components/rich-text-input.tsx';
import { useFeature } from '../../../lib/features.ts';
import { uploadFile, uploadVideo } from '../api/admin-blocks.ts';
import { type BlockTarget, useBlockForm } from '../hooks/use-block-form.ts';
import { BlockFormFrame, BlockNameField } from './block-form-frame.tsx';
import { UploadButton } from './upload-button.tsx';

type Video = z.input<typeof videoBlockRule>;
export const EMPTY_VIDEO: Video = { kind: 'video', name: '', vimeoId: null, fileUrl: null, durationSeconds: null, alternative: null };

/** Videos go up to the video host's limit; documents (the text-file alternative) to spec §9's 25 MB. */
export const VIDEO_MAX_BYTES = 200 * 1024 * 1024;
export const DOCUMENT_MAX_BYTES = 25 * 1024 * 1024;

/**
 * The video editor (spec §3): name, the source (a Vimeo id, or a video file uploaded through the
 * video host while "Vimeo upload" is on, or an https address), its length, and the alternative for
 * those who cannot watch: an article or a text file (PDF).
 */
export const VideoBlockForm = (props: { title: string; initial: Video; target: BlockTarget; backTo: string; actions?: ReactNode }) => {
  const { t } = useTranslation();
  const { form, submit, submitting } = useBlockForm(videoBlockRule, props.initial, props.target);
  const canUpload = useFeature('vimeoUpload') === true;
  const v = form.values;
  const e = form.errors;
  const [source, setSource] = useState<'vimeo' | 'file'>(v.vimeoId ? 'vimeo' : v.fileUrl ? 'file' : 'vimeo');
  const alternative = v.alternative ?? null;
  const alternativeKind = alternative?.kind ?? 'none';

  return (
    <BlockFormFrame title={props.title} backTo={props.backTo} submit={submit} submitting={submitting} actions={props.actions}>
      <Grid>
        <Grid.Col span={{ base: 12, md: 8 }}>
          <BlockNameField value={v.name} onChange={(name) => form.set('name', name)} error={e.name} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <NumberInput
            label={t('blocks.video.duration')}
            description={t('blocks.video.durationHint')}
            min={1}
            allowDecimal={false}
            clampBehavior="none"
            value={v.durationSeconds ?? ''}
            onChange={(x) => form.set('durationSeconds', typeof x === 'number' ? x : null)}
            error={e.durationSeconds}
          />
        </Grid.Col>
        <Grid.Col span={12}>
          <Stack gap={6}>
            <Text size="sm" fw={500}>
              {t('blocks.video.source')}
            </Text>
            <SegmentedControl
              aria-label={t('blocks.video.source')}
              value={source}
              onChange={(x) => {
                const next = x as 'vimeo' | 'file';
                setSource(next);
                // One source at a time: the other one is cleared.
                if (next === 'vimeo') form.set('fileUrl', null);
                else form.set('vimeoId', null);
              }}
              data={[
                { value: 'vimeo', label: t('blocks.video.vimeo') },
                { value: 'file', label: t('blocks.video.file') },
              ]}
              style={{ alignSelf: 'flex-start' }}
            />
            {source === 'vimeo' ? (
              <TextInput
                label={t('blocks.video.vimeoId')}
                description={t('blocks.video.vimeoIdHint')}
                withAsterisk
                inputMode="numeric"
                value={v.vimeoId ?? ''}
                onChange={(x) => form.set('vimeoId', x.currentTarget.value)}
                error={e.vimeoId}
              />
            ) : (
              <Stack gap={6}>
                {canUpload ? (
                  <UploadButton
                    label={t('blocks.video.upload')}
                    accept="video/mp4,video/quicktime,video/webm"
                    maxBytes={VIDEO_MAX_BYTES}
                    tooBig={t('blocks.video.tooBig')}
                    upload={uploadVideo}
                    onUploaded={(result) => {
                      form.set('vimeoId', result.vimeoId);
                      form.set('fileUrl', result.fileUrl);
                      if (result.vimeoId) setSource('vimeo');
                    }}
                  />
                ) : null}
                <TextInput
                  label={t('blocks.video.fileUrl')}
                  description={t('blocks.video.fileUrlHint')}
                  withAsterisk
                  value={v.fileUrl ?? ''}
                  onChange={(x) => form.set('fileUrl', x.currentTarget.value)}
                  error={e.fileUrl ?? e.vimeoId}
                />
              </Stack>
            )}
          </Stack>
        </Grid.Col>
        <Grid.Col span={12}>
          <Stack gap={6}>
            <Text size="sm" fw={500}>
              {t('blocks.video.alternative')}
            </Text>
            <SegmentedControl
              aria-label={t('blocks.video.alternative')}
              value={alternativeKind}
              onChange={(x) =>
                form.set('alternative', x === 'article' ? { kind: 'article', html: '' } : x === 'textFile' ? { kind: 'textFile', fileUrl: '' } : null)
              }
              data={[
                { value: 'none', label: t('blocks.video.noAlternative') },
                { value: 'article', label: t('blocks.kinds.article') },
                { value: 'textFile', label: t('blocks.kinds.textFile') },
              ]}
              style={{ alignSelf: 'flex-start' }}
            />
            {alternative?.kind === 'article' ? (
              <RichTextInput
                label={t('blocks.video.alternativeArticle')}
                required
                value={alternative.html}
                onChange={(html) => form.set('alternative', { kind: 'article', html })}
                error={e['alternative.html']}
              />
            ) : null}
            {alternative?.kind === 'textFile' ? (
              <DocumentField
                value={alternative.fileUrl}
                onChange={(fileUrl) => form.set('alternative', { kind: 'textFile', fileUrl })}
                error={e['alternative.fileUrl']}
              />
            ) : null}
          </Stack>
        </Grid.Col>
      </Grid>
    </BlockFormFrame>
  );
};

/** A PDF for participants to read: uploaded (checked by content on the server) or given as an https address. */
export const DocumentField = (props: { value: string; onChange: (url: string) => void; error?: string | undefined }) => {
  const { t } = useTranslation();
  return (
    <Stack gap={6}>
      <UploadButton
        label={t('blocks.textFile.upload')}
        accept="application/pdf"
        maxBytes={DOCUMENT_MAX_BYTES}
        tooBig={t('blocks.textFile.tooBig')}
        upload={uploadFile}
        onUploaded={(result) => props.onChange(`/api/files/${result.id}`)}
      />
      <TextInput
        label={t('blocks.textFile.url')}
        description={t('blocks.textFile.urlHint')}
        withAsterisk
        value={props.value}
        onChange={(x) => props.onChange(x.currentTarget.value)}
        error={props.error}
      />
    </Stack>
  );
};
