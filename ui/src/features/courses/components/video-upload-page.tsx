import { Alert, AspectRatio, Button, CopyButton, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TableRegion } from '../../../components/table-region.tsx';
import { useFeature } from '../../../lib/features.ts';
import { formatFileSize } from '../../../lib/i18n.ts';
import { uploadVideo } from '../api/admin-blocks.ts';
import { UploadButton } from './upload-button.tsx';
import { VIDEO_MAX_BYTES } from './video-block-form.tsx';

type Uploaded = { name: string; size: number; vimeoId: string | null; fileUrl: string | null };

/**
 * /vimeo (spec §2, issue 15 item 7): an author uploads a course video through the video host (the
 * "Vimeo upload" feature of spec §1). The answer is a Vimeo id, or, with the platform's own host
 * that works offline, the address of the stored file; either goes into a video block. The video
 * plays here at once, as participants will see it.
 */
export const VideoUploadPage = () => {
  const { t } = useTranslation();
  const enabled = useFeature('vimeoUpload');
  const [uploaded, setUploaded] = useState<Uploaded[]>([]);
  return (
    <Stack gap="md" maw={900}>
      <Title order={1} size="h2">
        {t('pages.vimeo')}
      </Title>
      {enabled === false ? (
        <Alert color="gray" role="status">
          {t('videoUpload.off')}
        </Alert>
      ) : (
        <Paper withBorder radius="md" p="lg">
          <Stack gap="sm">
            <Text size="sm">{t('videoUpload.intro')}</Text>
            <Group>
              <UploadButton
                label={t('blocks.video.upload')}
                accept="video/mp4,video/quicktime,video/webm"
                maxBytes={VIDEO_MAX_BYTES}
                tooBig={t('blocks.video.tooBig')}
                upload={uploadVideo}
                onUploaded={(result) =>
                  setUploaded((list) => [{ name: result.name, size: result.size, vimeoId: result.vimeoId, fileUrl: result.fileUrl }, ...list])
                }
              />
            </Group>
          </Stack>
        </Paper>
      )}
      {uploaded.length > 0 ? (
        <Paper withBorder radius="md" p="lg">
          <Stack gap="md">
            <Title order={2} size="h4">
              {t('videoUpload.uploaded')}
            </Title>
            <TableRegion label={t('videoUpload.uploaded')}>
              <Table aria-label={t('videoUpload.uploaded')}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('attachments.name')}</Table.Th>
                    <Table.Th>{t('attachments.size')}</Table.Th>
                    <Table.Th>{t('videoUpload.use')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {uploaded.map((video) => {
                    const value = video.vimeoId ?? video.fileUrl ?? '';
                    return (
                      <Table.Tr key={value}>
                        <Table.Td>{video.name}</Table.Td>
                        <Table.Td>{formatFileSize(video.size)}</Table.Td>
                        <Table.Td>
                          <Group gap="xs">
                            <Text size="sm" ff="monospace" data-testid="uploaded-video">
                              {video.vimeoId ? t('videoUpload.vimeoId', { id: video.vimeoId }) : value}
                            </Text>
                            <CopyButton value={value}>
                              {({ copied, copy }) => (
                                <Button size="xs" variant="default" onClick={copy}>
                                  {copied ? t('videoUpload.copied') : t('videoUpload.copy')}
                                </Button>
                              )}
                            </CopyButton>
                          </Group>
                        </Table.Td>
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
            </TableRegion>
            {uploaded[0]?.fileUrl ? (
              <AspectRatio ratio={16 / 9}>
                <video
                  controls
                  preload="metadata"
                  src={uploaded[0].fileUrl}
                  aria-label={t('videoUpload.preview')}
                  style={{ background: '#000', borderRadius: 8 }}
                >
                  <track kind="captions" />
                </video>
              </AspectRatio>
            ) : null}
          </Stack>
        </Paper>
      ) : null}
    </Stack>
  );
};
