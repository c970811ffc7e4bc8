import {
  Button,
  Center,
  FileButton,
  Grid,
  Group,
  Image,
  Loader,
  MultiSelect,
  Paper,
  SegmentedControl,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { ACTION_BUTTON_TEXT_MAX, NEWS_LOCATIONS, type NewsInput, newsRule } from '../../../../../domain/news/news.rules.ts';
import { DateTimeField } from '../../../components/date-fields.tsx';
import { DeleteAction, FormCard } from '../../../components/form-card.tsx';
import { RichTextInput } from '../../../components/rich-text-input.tsx';
import { RxLinkWarning } from '../../../components/rx-link-warning.tsx';
import { audienceOptions } from '../../../lib/audience-options.ts';
import { useZodForm } from '../../../lib/use-zod-form.ts';
import { type AdminNews, createNews, deleteNews, getNews, updateNews, uploadNewsImage } from '../api/news.ts';

const NEWS_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif'];

import { TableRegion } from '../../../components/table-region.tsx';
import { NewsStateBadge, reachText } from './admin-news-page.tsx';

type Recipients = { professionIds: number[]; companyIds: number[]; unitIds: number[]; groupIds: number[] };
const NOBODY: Recipients = { professionIds: [], companyIds: [], unitIds: [], groupIds: [] };
const MAX_IMAGE_BYTES = 25 * 1024 * 1024;

/** A new item starts inactive, shown from now for two weeks in the list and on the home page. */
const fresh = (): NewsInput => {
  const from = new Date();
  from.setSeconds(0, 0);
  return {
    title: '',
    htmlContent: '',
    image: '',
    actionUrl: '',
    actionButtonText: '',
    active: false,
    dateFrom: from.toISOString(),
    dateTo: new Date(from.getTime() + 14 * 86_400_000).toISOString(),
    location: 1,
    recipients: NOBODY,
  };
};

const fromNews = (n: AdminNews): NewsInput => ({
  title: n.title,
  htmlContent: n.htmlContent,
  image: n.image ?? '',
  actionUrl: n.actionUrl ?? '',
  actionButtonText: n.actionButtonText ?? '',
  active: n.active,
  dateFrom: n.dateFrom,
  dateTo: n.dateTo,
  location: n.location,
  recipients: n.recipients,
});

/** /admin/news/{newsId} (spec §2): `new` writes a new item, a number edits that one. */
export const NewsEditorRoute = () => {
  const { t } = useTranslation();
  const { newsId } = useParams();
  if (newsId === 'new') return <NewsFormPage id={null} />;
  const id = Number(newsId);
  if (!/^[1-9]\d{0,9}$/.test(newsId ?? '')) return <NotFound title={t('pages.admin.newsItem')} />;
  return <NewsFormPage key={id} id={id} />;
};

const NotFound = ({ title }: { title: string }) => {
  const { t } = useTranslation();
  return (
    <Stack>
      <Title order={1} size="h2">
        {title}
      </Title>
      <Text>{t('news.admin.notFound')}</Text>
    </Stack>
  );
};

/**
 * The news editor (issue 16, 1065): title, rich content (sanitised by the API), image by https
 * address or upload, the action button's address and text, active, the dates it shows between,
 * where (location 1 list and home, 2 after a course ends) and for whom (units, companies, community
 * groups, professions; none = everyone), validated by the domain's rule with its Slovenian messages.
 * An existing item shows its reach and engagement.
 */
export const NewsFormPage = ({ id }: { id: number | null }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const news = useQuery({ queryKey: ['news', 'admin', 'item', id], queryFn: () => getNews(id as number), enabled: id !== null, retry: false });
  const options = useQuery({ queryKey: ['news', 'recipient-options'], queryFn: audienceOptions, staleTime: 60_000 });
  const form = useZodForm(newsRule, fresh());
  const loaded = news.data;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the form is filled once per loaded item.
  useEffect(() => {
    if (loaded) form.reset(fromNews(loaded));
  }, [loaded]);

  const save = useMutation({
    mutationFn: (input: NewsInput) => (id === null ? createNews(input) : updateNews(id, input)),
    onSuccess: async (result) => {
      await queryClient.invalidateQueries({ queryKey: ['news'] });
      notifications.show({ color: 'teal', message: t(id === null ? 'news.admin.created' : 'form.saved') });
      if (id === null) navigate(`/admin/news/${result.id}`);
    },
    onError: form.notifyServerErrors,
  });
  const upload = useMutation({
    mutationFn: uploadNewsImage,
    onSuccess: (result, file) => {
      form.set('image', `/api/files/${result.id}`);
      notifications.show({ color: 'teal', message: t('news.admin.uploaded', { name: file.name }) });
    },
    onError: (error) => notifications.show({ color: 'red', message: error.message || t('news.admin.uploadFailed') }),
  });

  if (id !== null && news.isPending)
    return (
      <Center py="xl">
        <Loader role="status" aria-label={t('common.loading')} />
      </Center>
    );
  if (id !== null && !news.data) return <NotFound title={t('pages.admin.newsItem')} />;

  const v = form.values;
  const e = form.errors;
  const recipients: Recipients = { ...NOBODY, ...(v.recipients ?? {}) } as Recipients;
  const targets = (key: keyof Recipients, label: string, data: { value: string; label: string }[] | undefined) => (
    <MultiSelect
      label={label}
      searchable
      clearable
      data={data ?? []}
      value={recipients[key].map(String)}
      onChange={(values) => form.set('recipients', { ...recipients, [key]: values.map(Number) })}
      error={e[`recipients.${key}`]}
    />
  );
  const everyone = Object.values(recipients).every((list) => list.length === 0);

  return (
    <Stack gap="md">
      <FormCard
        title={id === null ? t('news.admin.new') : (news.data?.title ?? '')}
        backTo="/admin/news"
        backLabel={t('news.admin.back')}
        submitting={save.isPending}
        submitLabel={t(id === null ? 'form.create' : 'form.save')}
        onSubmit={() => {
          const parsed = form.validate();
          if (parsed) save.mutate(parsed);
        }}
        actions={
          id !== null && news.data ? (
            <DeleteAction
              question={t('news.admin.deleteQuestion', { title: news.data.title })}
              remove={() => deleteNews(id)}
              invalidate={['news']}
              backTo="/admin/news"
            />
          ) : null
        }
      >
        {news.data ? (
          <Group>
            <NewsStateBadge news={news.data} />
          </Group>
        ) : null}
        <TextInput label={t('news.admin.title')} withAsterisk value={v.title} onChange={(x) => form.set('title', x.currentTarget.value)} error={e.title} />
        <RichTextInput
          label={t('news.admin.content')}
          required
          value={v.htmlContent}
          onChange={(html) => form.set('htmlContent', html)}
          error={e.htmlContent}
        />
        <Group align="flex-end" wrap="wrap">
          <Stack gap={6} style={{ flex: 1, minWidth: 260 }}>
            <TextInput
              label={t('news.admin.image')}
              description={t('news.admin.imageHint')}
              value={v.image ?? ''}
              onChange={(x) => form.set('image', x.currentTarget.value)}
              error={e.image}
            />
            <FileButton
              accept={NEWS_IMAGE_TYPES.join(',')}
              onChange={(file) => {
                if (!file) return;
                // A news image is a picture: the upload route takes PDF and ZIP too, so the type is checked here.
                if (!NEWS_IMAGE_TYPES.includes(file.type)) notifications.show({ color: 'red', message: t('news.admin.imageType') });
                else if (file.size > MAX_IMAGE_BYTES) notifications.show({ color: 'red', message: t('news.admin.imageTooBig') });
                else upload.mutate(file);
              }}
            >
              {(button) => (
                <Button {...button} variant="default" loading={upload.isPending} style={{ alignSelf: 'flex-start' }}>
                  {t('news.admin.uploadImage')}
                </Button>
              )}
            </FileButton>
          </Stack>
          {v.image ? <Image src={v.image} h={90} w={160} fit="cover" radius="sm" alt={t('news.admin.imagePreview')} data-testid="news-image-preview" /> : null}
        </Group>
        <RxLinkWarning texts={[v.actionUrl, v.htmlContent]} />
        <Grid>
          <Grid.Col span={{ base: 12, md: 8 }}>
            <TextInput
              label={t('news.admin.actionUrl')}
              placeholder="https://"
              value={v.actionUrl ?? ''}
              onChange={(x) => form.set('actionUrl', x.currentTarget.value)}
              error={e.actionUrl}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 4 }}>
            <TextInput
              label={t('news.admin.actionButtonText')}
              description={t('news.admin.actionButtonHint', { count: ACTION_BUTTON_TEXT_MAX })}
              value={v.actionButtonText ?? ''}
              onChange={(x) => form.set('actionButtonText', x.currentTarget.value)}
              error={e.actionButtonText}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 6 }}>
            <DateTimeField
              label={t('news.admin.dateFrom')}
              withAsterisk
              value={v.dateFrom}
              onChange={(iso) => form.set('dateFrom', iso ?? '')}
              error={e.dateFrom}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 6 }}>
            <DateTimeField label={t('news.admin.dateTo')} withAsterisk value={v.dateTo} onChange={(iso) => form.set('dateTo', iso ?? '')} error={e.dateTo} />
          </Grid.Col>
        </Grid>
        <Stack gap={4}>
          <Text size="sm" fw={500} id="news-location-label">
            {t('news.admin.location')}
          </Text>
          <SegmentedControl
            aria-labelledby="news-location-label"
            value={String(v.location ?? 1)}
            onChange={(value) => form.set('location', Number(value) as 1 | 2)}
            data={NEWS_LOCATIONS.map((location) => ({ value: String(location), label: t(`news.admin.locations.${location}`) }))}
            style={{ alignSelf: 'flex-start' }}
          />
        </Stack>
        <Switch label={t('news.admin.active')} checked={Boolean(v.active)} onChange={(x) => form.set('active', x.currentTarget.checked)} />
        <Paper withBorder radius="sm" p="md">
          <Stack gap="sm">
            <Title order={2} size="h5">
              {t('news.admin.recipients')}
            </Title>
            <Text size="sm" c="dimmed" data-testid="news-recipients-hint">
              {everyone ? t('news.admin.everyone') : t('news.admin.recipientsHint')}
            </Text>
            {targets('professionIds', t('news.admin.professions'), options.data?.professions)}
            {targets('unitIds', t('news.admin.units'), options.data?.units)}
            {targets('companyIds', t('news.admin.companies'), options.data?.companies)}
            {targets('groupIds', t('news.admin.groups'), options.data?.groups)}
          </Stack>
        </Paper>
      </FormCard>
      {news.data ? <NewsReachPanel news={news.data} /> : null}
    </Stack>
  );
};

const NewsReachPanel = ({ news }: { news: AdminNews }) => {
  const { t } = useTranslation();
  const keys = ['shown', 'engaged', 'declined', 'deferred'] as const;
  return (
    <Paper withBorder radius="md" p="lg">
      <Title order={2} size="h4" mb="xs">
        {t('news.admin.reachTitle')}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {t('news.admin.reachHint')}
      </Text>
      <TableRegion label={t('news.admin.reachTitle')}>
        <Table striped aria-label={t('news.admin.reachTitle')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('news.admin.action')}</Table.Th>
              <Table.Th>{t('news.admin.timesHeader')}</Table.Th>
              <Table.Th>{t('news.admin.usersHeader')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {keys.map((key) => (
              <Table.Tr key={key} data-testid={`news-item-reach-${key}`} title={reachText(t, news.reach[key])}>
                <Table.Td>{t(`news.admin.reach.${key}`)}</Table.Td>
                <Table.Td>{news.reach[key].times}</Table.Td>
                <Table.Td>{news.reach[key].users}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </TableRegion>
    </Paper>
  );
};
