import { ActionIcon, Alert, Badge, Button, Center, Checkbox, Group, Loader, Modal, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type TagKind, tagRule } from '../../../../../domain/organisation/organisation.rules.ts';
import { DataTable } from '../../../components/data-table.tsx';
import { FormCard, ListHeader } from '../../../components/form-card.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useZodForm } from '../../../lib/use-zod-form.ts';
import { createTag, deleteTag, getTag, listTags, type Tag, updateTag } from '../api/tags.ts';

const TITLES: Record<TagKind, string> = {
  profession: 'pages.admin.tagsProfessions',
  company: 'pages.admin.tagsCompanies',
  unit: 'pages.admin.tagsUnits',
  course: 'pages.admin.tagsCourses',
};

/** /admin/tags/{kind}: the tags of one kind, created, renamed and deleted in place (1062). */
export const TagsPage = ({ kind }: { kind: TagKind }) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<Tag | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Tag | null>(null);
  // A user without 1062 sees the spec's message instead of a list.
  const probe = useQuery({ queryKey: ['tags', kind, 'probe'], queryFn: () => listTags(kind, { pageSize: 1 }), retry: false });
  const remove = useMutation({
    mutationFn: (tag: Tag) => deleteTag(tag.id),
    onSuccess: async () => {
      setDeleting(null);
      await queryClient.invalidateQueries({ queryKey: ['tags'] });
      notifications.show({ color: 'teal', message: t('organisation.tag.deleted') });
    },
    onError: (error) => notifications.show({ color: 'red', message: error.message || t('form.failed') }),
  });
  if (probe.error instanceof ApiError && probe.error.status === 403) {
    return (
      <>
        <ListHeader title={t(TITLES[kind])} />
        <Alert color="red" data-testid="tags-forbidden">
          {probe.error.message}
        </Alert>
      </>
    );
  }
  return (
    <>
      <ListHeader title={t(TITLES[kind])}>
        <Button onClick={() => setEditing('new')}>{t('organisation.tag.new')}</Button>
      </ListHeader>
      <DataTable<Tag>
        label={t(TITLES[kind])}
        queryKey={['tags', kind, 'list']}
        fetch={(query) => listTags(kind, query)}
        defaultSort="name"
        rowHref={kind === 'course' ? (tag) => `/admin/tags/courses/${tag.id}` : undefined}
        columns={[
          { key: 'name', label: t('organisation.tag.name'), sortKey: 'name', render: (tag) => tag.name },
          {
            key: 'internal',
            label: t('organisation.tag.internalUse'),
            sortKey: 'internalUse',
            render: (tag) =>
              tag.internalUse ? (
                <Badge variant="outline" color="gray.7">
                  {t('form.yes')}
                </Badge>
              ) : (
                t('form.no')
              ),
          },
          {
            key: 'actions',
            label: '',
            render: (tag) => (
              <Group gap={4} justify="flex-end">
                <ActionIcon variant="subtle" color="dark" aria-label={`${t('organisation.tag.edit')}: ${tag.name}`} onClick={() => setEditing(tag)}>
                  <IconPencil size={16} aria-hidden />
                </ActionIcon>
                <ActionIcon variant="subtle" color="red.8" aria-label={`${t('organisation.tag.delete')}: ${tag.name}`} onClick={() => setDeleting(tag)}>
                  <IconTrash size={16} aria-hidden />
                </ActionIcon>
              </Group>
            ),
          },
        ]}
      />
      {editing ? <TagDialog kind={kind} tag={editing === 'new' ? null : editing} onClose={() => setEditing(null)} /> : null}
      <Modal opened={deleting !== null} onClose={() => setDeleting(null)} title={t('organisation.tag.delete')} centered>
        <Stack>
          <Text>{t('organisation.tag.confirmDelete', { name: deleting?.name ?? '' })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDeleting(null)}>
              {t('organisation.tag.cancel')}
            </Button>
            <Button color="red.8" loading={remove.isPending} onClick={() => deleting && remove.mutate(deleting)}>
              {t('organisation.tag.delete')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
};

const TagDialog = ({ kind, tag, onClose }: { kind: TagKind; tag: Tag | null; onClose: () => void }) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const form = useZodForm(tagRule, { name: tag?.name ?? '', internalUse: tag?.internalUse ?? false });
  const save = useMutation({
    mutationFn: () =>
      tag ? updateTag(tag.id, form.values as { name: string; internalUse: boolean }) : createTag(kind, form.values as { name: string; internalUse: boolean }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['tags'] });
      notifications.show({ color: 'teal', message: t(tag ? 'form.saved' : 'form.created') });
      onClose();
    },
    onError: form.notifyServerErrors,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (form.validate()) save.mutate();
  };
  return (
    <Modal opened onClose={onClose} title={tag ? t('organisation.tag.edit') : `${t('organisation.tag.new')} (${t(`organisation.tag.kinds.${kind}`)})`} centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label={t('organisation.tag.name')}
            value={form.values.name}
            onChange={(x) => form.set('name', x.currentTarget.value)}
            error={form.errors.name}
            withAsterisk
            data-autofocus
          />
          <Checkbox
            label={t('organisation.tag.internalUse')}
            checked={form.values.internalUse ?? false}
            onChange={(x) => form.set('internalUse', x.currentTarget.checked)}
          />
          <Button type="submit" loading={save.isPending}>
            {t(tag ? 'form.save' : 'form.create')}
          </Button>
        </Stack>
      </form>
    </Modal>
  );
};

/** /admin/tags/courses/{id}: one course tag. */
export const CourseTagPage = ({ id }: { id: number }) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const tag = useQuery({ queryKey: ['tags', id], queryFn: () => getTag(id) });
  const form = useZodForm(tagRule, { name: '', internalUse: false });
  const [filled, setFilled] = useState(false);
  if (tag.data && !filled) {
    form.reset({ name: tag.data.name, internalUse: tag.data.internalUse });
    setFilled(true);
  }
  const save = useMutation({
    mutationFn: () => updateTag(id, form.values as { name: string; internalUse: boolean }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['tags'] });
      notifications.show({ color: 'teal', message: t('form.saved') });
    },
    onError: form.notifyServerErrors,
  });
  if (tag.isPending) {
    return (
      <Center py="xl">
        <Loader role="status" aria-label={t('common.loading')} />
      </Center>
    );
  }
  if (!tag.data) return <Text>{tag.error instanceof ApiError ? tag.error.message : t('form.notFound')}</Text>;
  return (
    <FormCard
      title={tag.data.name}
      backTo="/admin/tags/courses"
      submitting={save.isPending}
      submitLabel={t('form.save')}
      onSubmit={() => form.validate() && save.mutate()}
    >
      <TextInput
        label={t('organisation.tag.name')}
        value={form.values.name}
        onChange={(x) => form.set('name', x.currentTarget.value)}
        error={form.errors.name}
        withAsterisk
      />
      <Checkbox
        label={t('organisation.tag.internalUse')}
        checked={form.values.internalUse ?? false}
        onChange={(x) => form.set('internalUse', x.currentTarget.checked)}
      />
    </FormCard>
  );
};
