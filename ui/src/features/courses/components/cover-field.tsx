import { Button, Group, Image, Input, Stack, TextInput } from '@mantine/core';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isCoverAddress } from '../../../../../domain/courses/cover.rules.ts';
import { uploadFile } from '../api/admin-blocks.ts';
import { UploadButton } from './upload-button.tsx';

/** An address the upload answered, or an inline picture: shown as the picture, not as text (issue 33 item 8). */
const PICTURE_ONLY = /^(\/api\/files\/\d+$|data:image\/)/;

/**
 * The cover of a course or an academy (spec §5: required, jpg or png): a chosen cover shows as a
 * picture with buttons to replace and to remove it; without one, an upload button and a field for
 * the address of a picture elsewhere (the same value as before, validated by the domain's rule).
 * A typed address stays editable; an uploaded file is shown only as its picture.
 */
export const CoverField = ({ value, onChange, error }: { value: string; onChange: (value: string) => void; error?: string | undefined }) => {
  const { t } = useTranslation();
  const labelId = useId();
  // A typed address keeps its field while it is being written, even when it looks like an upload's.
  const [typing, setTyping] = useState(false);
  useEffect(() => {
    if (value === '') setTyping(false);
  }, [value]);
  const uploaded = PICTURE_ONLY.test(value) && !typing;
  const upload = (
    <UploadButton
      label={t(value ? 'adminCourses.form.replaceCover' : 'adminCourses.form.uploadCover')}
      accept="image/jpeg,image/png"
      maxBytes={25 * 1024 * 1024}
      tooBig={t('blocks.textFile.tooBig')}
      upload={uploadFile}
      onUploaded={(result) => {
        setTyping(false);
        onChange(`/api/files/${result.id}`);
      }}
    />
  );
  return (
    <Stack gap={6} role="group" aria-labelledby={labelId} data-testid="cover-field">
      <Input.Label id={labelId} required>
        {t('adminCourses.form.coverTitle')}
      </Input.Label>
      {value && isCoverAddress(value) ? (
        <Image
          src={value}
          h={120}
          w={213}
          fit="cover"
          radius="sm"
          alt={t('adminCourses.form.coverPreview')}
          data-testid="cover-preview"
          style={{ maxWidth: '100%' }}
        />
      ) : null}
      {uploaded ? null : (
        <TextInput
          label={t('adminCourses.form.cover')}
          description={t('adminCourses.form.coverAddressHint')}
          value={value}
          onChange={(x) => {
            setTyping(true);
            onChange(x.currentTarget.value);
          }}
          error={error}
        />
      )}
      <Group gap="sm">
        {upload}
        {value ? (
          <Button variant="default" onClick={() => onChange('')}>
            {t('adminCourses.form.removeCover')}
          </Button>
        ) : null}
      </Group>
      {uploaded && error ? <Input.Error>{error}</Input.Error> : null}
    </Stack>
  );
};
