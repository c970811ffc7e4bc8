import { Button, FileButton, Group, Image, MultiSelect, Stack, Switch, TagsInput, Textarea, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { type NewsletterFields, newsletterRule } from '../../../../../domain/newsletters/newsletter.rules.ts';
import { DeleteAction, FormCard } from '../../../components/form-card.tsx';
import { RxLinkWarning } from '../../../components/rx-link-warning.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useZodForm } from '../../../lib/use-zod-form.ts';
import { deleteNewsletter, getNewsletter, listProfessionOptions, type NewsletterInput, saveNewsletter, uploadCover } from '../api/newsletters.ts';
import { PublishedBadge } from './admin-newsletters-page.tsx';
import { NewslettersFeature, PageMessage, Pending } from './newsletter-page-parts.tsx';

const EMPTY: NewsletterInput = { title: '', issue: '', description: '', keywords: [], imageUrl: '', url: '', professionIds: [], published: false };
/** Uploads go up to the file store's limit; covers are small pictures (800 x 600 recommended). */
const MAX_COVER_BYTES = 25 * 1024 * 1024;

/** The first message of a field or of any of its items (keywords.3). */
const firstError = (errors: Record<string, string | undefined>, path: string) =>
  errors[path] ?? Object.entries(errors).find(([key, message]) => key.startsWith(`${path}.`) && message)?.[1];

/** Picks a JPEG or PNG and uploads it at once; the server checks the content. */
const CoverUpload = ({ onUploaded }: { onUploaded: (url: string) => void }) => {
  const { t } = useTranslation();
  const upload = useMutation({
    mutationFn: uploadCover,
    onSuccess: (result, file) => {
      onUploaded(`/api/files/${result.id}`);
      notifications.show({ color: 'teal', message: t('newsletters.admin.uploaded', { name: file.name }) });
    },
    onError: (error) => notifications.show({ color: 'red', message: error.message || t('newsletters.admin.uploadFailed') }),
  });
  return (
    <FileButton
      accept="image/jpeg,image/png"
      onChange={(file) => {
        if (!file) return;
        if (file.size > MAX_COVER_BYTES) notifications.show({ color: 'red', message: t('newsletters.admin.coverTooBig') });
        else upload.mutate(file);
      }}
    >
      {(button) => (
        <Button {...button} variant="default" loading={upload.isPending}>
          {t('newsletters.admin.uploadCover')}
        </Button>
      )}
    </FileButton>
  );
};

const Form = ({ id }: { id: number | null }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const newsletter = useQuery({ queryKey: ['newsletters', 'one', id], queryFn: () => getNewsletter(id as number), enabled: id !== null, retry: false });
  const professions = useQuery({ queryKey: ['professions', 'options'], queryFn: listProfessionOptions, staleTime: 10 * 60_000 });
  const form = useZodForm(newsletterRule, EMPTY);
  const loaded = newsletter.data;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the form is filled once per loaded issue.
  useEffect(() => {
    if (loaded)
      form.reset({
        title: loaded.title,
        issue: loaded.issue ?? '',
        description: loaded.description,
        keywords: loaded.keywords,
        imageUrl: loaded.imageUrl ?? '',
        url: loaded.url ?? '',
        professionIds: loaded.professionIds,
        published: loaded.published,
      });
  }, [loaded]);

  const save = useMutation({
    mutationFn: (input: NewsletterFields) => saveNewsletter(id, input),
    onSuccess: async (result) => {
      await queryClient.invalidateQueries({ queryKey: ['newsletters'] });
      await queryClient.invalidateQueries({ queryKey: ['user-newsletters'] });
      notifications.show({ color: 'teal', message: t(id === null ? 'newsletters.admin.created' : 'form.saved') });
      if (id === null) navigate(`/admin/newsletters/${result.id}/edit`);
    },
    onError: (error) => {
      const message = form.serverErrors(error);
      notifications.show({ color: 'red', message: message ?? t('validation.form') });
    },
  });

  if (id !== null && newsletter.isPending) return <Pending />;
  if (id !== null && !newsletter.data) {
    const notFound = newsletter.error instanceof ApiError && newsletter.error.status === 404;
    return <PageMessage title={t('pages.admin.newsletterEdit')} color="red" message={t(notFound ? 'form.notFound' : 'form.loadFailed')} />;
  }

  const v = form.values;
  const e = form.errors;
  return (
    <FormCard
      title={id === null ? t('pages.admin.newsletterNew') : (newsletter.data?.title ?? '')}
      backTo="/admin/newsletters"
      backLabel={t('newsletters.admin.back')}
      submitting={save.isPending}
      submitLabel={t(id === null ? 'form.create' : 'form.save')}
      onSubmit={() => {
        const parsed = form.validate();
        if (parsed) save.mutate(parsed);
        else notifications.show({ color: 'red', message: t('validation.form') });
      }}
      actions={
        id === null || !newsletter.data ? null : (
          <DeleteAction
            question={t('newsletters.admin.deleteQuestion', { title: newsletter.data.title })}
            remove={() => deleteNewsletter(id)}
            invalidate={['newsletters', 'user-newsletters']}
            backTo="/admin/newsletters"
          />
        )
      }
    >
      {newsletter.data ? (
        <Group>
          <PublishedBadge published={newsletter.data.published} />
        </Group>
      ) : null}
      <TextInput label={t('newsletters.admin.title')} withAsterisk value={v.title} onChange={(x) => form.set('title', x.currentTarget.value)} error={e.title} />
      <TextInput
        label={t('newsletters.admin.issue')}
        description={t('newsletters.admin.issueHint')}
        value={v.issue ?? ''}
        onChange={(x) => form.set('issue', x.currentTarget.value)}
        error={e.issue}
      />
      <Textarea
        label={t('newsletters.admin.description')}
        withAsterisk
        autosize
        minRows={4}
        value={v.description}
        onChange={(x) => form.set('description', x.currentTarget.value)}
        error={e.description}
      />
      <TagsInput
        label={t('newsletters.admin.keywords')}
        description={t('newsletters.admin.keywordsHint')}
        value={v.keywords ?? []}
        onChange={(keywords) => form.set('keywords', keywords)}
        error={firstError(e, 'keywords')}
      />
      <Group align="flex-end" wrap="wrap">
        <Stack gap={6} style={{ flex: 1, minWidth: 260 }}>
          <TextInput
            label={t('newsletters.admin.cover')}
            description={t('newsletters.admin.coverHint')}
            value={v.imageUrl ?? ''}
            onChange={(x) => form.set('imageUrl', x.currentTarget.value)}
            error={e.imageUrl}
          />
          <Group>
            <CoverUpload onUploaded={(url) => form.set('imageUrl', url)} />
          </Group>
        </Stack>
        {v.imageUrl && newsletterRule.shape.imageUrl.safeParse(v.imageUrl).success ? (
          <Image src={v.imageUrl} h={120} w={160} fit="cover" radius="sm" alt={t('newsletters.admin.coverPreview')} data-testid="cover-preview" />
        ) : null}
      </Group>
      <TextInput
        label={t('newsletters.admin.url')}
        description={t('newsletters.admin.urlHint')}
        type="url"
        value={v.url ?? ''}
        onChange={(x) => form.set('url', x.currentTarget.value)}
        error={e.url}
      />
      <RxLinkWarning texts={[v.url, v.description]} />
      <MultiSelect
        label={t('newsletters.admin.professions')}
        description={t('newsletters.admin.professionsHint')}
        searchable
        clearable
        data={professions.data ?? []}
        value={(v.professionIds ?? []).map(String)}
        onChange={(x) => form.set('professionIds', x.map(Number))}
        error={firstError(e, 'professionIds')}
      />
      <Switch
        label={t('newsletters.admin.published')}
        description={t('newsletters.admin.publishedHint')}
        checked={Boolean(v.published)}
        onChange={(x) => form.set('published', x.currentTarget.checked)}
      />
    </FormCard>
  );
};

/** /admin/newsletters/new and /admin/newsletters/{id}/edit (issue 16): every field of spec §3 with the §5 rules' Slovenian messages. */
export const NewsletterFormPage = ({ id }: { id: number | null }) => {
  const { t } = useTranslation();
  return (
    <NewslettersFeature title={t(id === null ? 'pages.admin.newsletterNew' : 'pages.admin.newsletterEdit')}>
      <Form id={id} />
    </NewslettersFeature>
  );
};
