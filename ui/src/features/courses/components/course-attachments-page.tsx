import { Anchor, Center, Group, Loader, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ConfirmButton } from '../../../components/confirm-button.tsx';
import { TableRegion } from '../../../components/table-region.tsx';
import { formatFileSize } from '../../../lib/i18n.ts';
import { uploadFile } from '../api/admin-blocks.ts';
import { addCourseAttachment, type CourseAttachment, getAuthoredCourse, removeCourseAttachment } from '../api/admin-courses.ts';
import { UploadButton } from './upload-button.tsx';
import { DOCUMENT_MAX_BYTES } from './video-block-form.tsx';

const RemoveAttachment = ({ courseId, attachment }: { courseId: number; attachment: CourseAttachment }) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => removeCourseAttachment(courseId, attachment.fileId),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['admin-courses'] });
      notifications.show({ color: 'teal', message: t('attachments.removed') });
    },
    onError: (error) => notifications.show({ color: 'red', message: error.message || t('form.deleteFailed') }),
  });
  return (
    <ConfirmButton
      label={t('attachments.remove')}
      question={t('attachments.removeQuestion', { name: attachment.name })}
      pending={remove.isPending}
      onConfirm={() => remove.mutateAsync().catch(() => undefined)}
    />
  );
};

/**
 * /admin/courses/{id}/attachments (issue 15 item 7): the files participants download from the
 * course page: jpg, png, gif, pdf or zip up to 25 MB, recognised by their content on the server
 * (a renamed file is refused), uploaded and offered in one step, removed after confirming.
 */
export const CourseAttachmentsPage = ({ id }: { id: number }) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const course = useQuery({ queryKey: ['admin-courses', 'authored', id], queryFn: () => getAuthoredCourse(id) });
  const attach = async (file: File) => {
    const stored = await uploadFile(file);
    await addCourseAttachment(id, stored.id);
    await queryClient.invalidateQueries({ queryKey: ['admin-courses'] });
    return stored;
  };
  if (course.isPending)
    return (
      <Center py="xl">
        <Loader role="status" aria-label={t('common.loading')} />
      </Center>
    );
  if (!course.data) return <Text>{t('form.notFound')}</Text>;
  const attachments = course.data.attachments;
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('attachments.title', { course: course.data.fields.title })}
      </Title>
      <Paper withBorder radius="md" p="lg">
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {t('attachments.hint')}
          </Text>
          <Group>
            <UploadButton
              label={t('attachments.upload')}
              accept="image/jpeg,image/png,image/gif,application/pdf,application/zip,.zip"
              maxBytes={DOCUMENT_MAX_BYTES}
              tooBig={t('attachments.tooBig')}
              upload={attach}
              onUploaded={() => undefined}
            />
          </Group>
          {attachments.length === 0 ? (
            <Text size="sm">{t('attachments.none')}</Text>
          ) : (
            <TableRegion label={t('attachments.list')}>
              <Table aria-label={t('attachments.list')} striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('attachments.name')}</Table.Th>
                    <Table.Th>{t('attachments.kind')}</Table.Th>
                    <Table.Th>{t('attachments.size')}</Table.Th>
                    <Table.Th />
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {attachments.map((a) => (
                    <Table.Tr key={a.fileId}>
                      <Table.Td>
                        <Anchor href={`/api/files/${a.fileId}`} target="_blank" rel="noopener noreferrer">
                          {a.name}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>{a.contentType.split('/')[1]?.toUpperCase()}</Table.Td>
                      <Table.Td>{formatFileSize(a.size)}</Table.Td>
                      <Table.Td>
                        <RemoveAttachment courseId={id} attachment={a} />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </TableRegion>
          )}
        </Stack>
      </Paper>
    </Stack>
  );
};
