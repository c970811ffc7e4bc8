import { Button, FileButton, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';

/**
 * Picks a file and uploads it at once; the server checks the content (not the name) and answers
 * where the file now is. A refusal is shown as the server words it, and nothing changes.
 */
export const UploadButton = <T,>(props: {
  label: string;
  accept: string;
  upload: (file: File) => Promise<T>;
  onUploaded: (result: T, file: File) => void;
  /** The largest file in bytes; a bigger one is refused before it is sent. */
  maxBytes: number;
  tooBig: string;
  current?: string | null;
}) => {
  const { t } = useTranslation();
  const upload = useMutation({
    mutationFn: (file: File) => props.upload(file),
    onSuccess: (result, file) => {
      props.onUploaded(result, file);
      notifications.show({ color: 'teal', message: t('blocks.uploaded', { name: file.name }) });
    },
    onError: (error) => notifications.show({ color: 'red', message: error.message || t('blocks.uploadFailed') }),
  });
  return (
    <Group gap="sm">
      <FileButton
        accept={props.accept}
        onChange={(file) => {
          if (!file) return;
          if (file.size > props.maxBytes) notifications.show({ color: 'red', message: props.tooBig });
          else upload.mutate(file);
        }}
      >
        {(button) => (
          <Button {...button} variant="default" loading={upload.isPending}>
            {props.label}
          </Button>
        )}
      </FileButton>
      {props.current ? (
        <Text size="sm" c="dimmed" data-testid="uploaded-file">
          {props.current}
        </Text>
      ) : null}
    </Group>
  );
};
