import { Alert, Anchor, Button, Card, Group, Image, Paper, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError } from '../../../lib/api-client.ts';
import { formatDate } from '../../../lib/i18n.ts';
import { useMinimumDelay } from '../../../lib/use-minimum-delay.ts';
import { getUserNewsletter, listUserNewsletters, type Newsletter } from '../api/newsletters.ts';
import { Keywords, NewslettersFeature, PageMessage, Pending } from './newsletter-page-parts.tsx';

/** Its number and when it came out, e.g. "Številka 2026/11 · Objavljeno 3. 11. 2026". */
const IssueLine = ({ newsletter }: { newsletter: Newsletter }) => {
  const { t } = useTranslation();
  const parts = [
    newsletter.issue ? t('newsletters.issue', { issue: newsletter.issue }) : null,
    newsletter.publishedAt ? t('newsletters.publishedAt', { date: formatDate(newsletter.publishedAt) }) : null,
  ].filter(Boolean);
  return parts.length === 0 ? null : (
    <Text size="sm" c="dimmed" data-testid="newsletter-issue">
      {parts.join(' · ')}
    </Text>
  );
};

const List = () => {
  const { t } = useTranslation();
  const list = useQuery({ queryKey: ['user-newsletters'], queryFn: listUserNewsletters });
  const loading = useMinimumDelay(list.isPending);
  if (loading) return <Pending />;
  if (list.isError) return <Alert color="red">{t('newsletters.loadFailed')}</Alert>;
  const items = list.data ?? [];
  if (items.length === 0) return <Text c="dimmed">{t('newsletters.empty')}</Text>;
  return (
    <Stack gap="md">
      {items.map((newsletter) => (
        <Card key={newsletter.id} withBorder radius="md" padding="md" data-newsletter={newsletter.id}>
          <Group align="flex-start" wrap="nowrap" gap="md">
            {newsletter.imageUrl ? (
              <Image src={newsletter.imageUrl} w={160} h={120} fit="cover" radius="sm" alt="" visibleFrom="xs" style={{ flex: '0 0 160px' }} />
            ) : null}
            <Stack gap={6} style={{ minWidth: 0, flex: 1 }}>
              <Title order={2} size="h4" lh={1.25}>
                <Anchor component={Link} to={`/novicnik/${newsletter.id}`} c="inherit" inherit>
                  {newsletter.title}
                </Anchor>
              </Title>
              <IssueLine newsletter={newsletter} />
              <Text size="sm" lineClamp={3} data-testid="newsletter-excerpt">
                {newsletter.description}
              </Text>
              <Keywords keywords={newsletter.keywords} />
            </Stack>
          </Group>
        </Card>
      ))}
    </Stack>
  );
};

/** /novicnik (spec §2, issue 16): the published issues for the reader's profession, newest first. */
export const NewslettersPage = () => {
  const { t } = useTranslation();
  return (
    <NewslettersFeature title={t('pages.newsletters')}>
      <Stack gap="md">
        <Title order={1} size="h2">
          {t('pages.newsletters')}
        </Title>
        <List />
      </Stack>
    </NewslettersFeature>
  );
};

const Issue = ({ id }: { id: number }) => {
  const { t } = useTranslation();
  const newsletter = useQuery({
    queryKey: ['user-newsletters', id],
    queryFn: () => getUserNewsletter(id),
    retry: (count, error) => !(error instanceof ApiError) && count < 2,
  });
  const loading = useMinimumDelay(newsletter.isPending);
  if (loading) return <Pending />;
  if (!newsletter.data) {
    const notFound = newsletter.error instanceof ApiError && newsletter.error.status === 404;
    return <PageMessage title={t('pages.newsletter')} color="red" message={t(notFound ? 'newsletters.notFound' : 'newsletters.loadFailed')} />;
  }
  const n = newsletter.data;
  return (
    <Stack gap="md">
      <Anchor component={Link} to="/novicnik" size="sm">
        ← {t('newsletters.back')}
      </Anchor>
      <Title order={1} size="h2">
        {n.title}
      </Title>
      <IssueLine newsletter={n} />
      <Paper withBorder radius="md" p="lg">
        <Stack gap="md">
          {n.imageUrl ? (
            <Image
              src={n.imageUrl}
              w="auto"
              maw="min(100%, 800px)"
              mah={600}
              fit="contain"
              radius="sm"
              alt={t('newsletters.coverAlt', { title: n.title })}
              data-testid="newsletter-cover"
            />
          ) : null}
          <Text style={{ whiteSpace: 'pre-wrap' }} data-testid="newsletter-description">
            {n.description}
          </Text>
          <Keywords keywords={n.keywords} />
          {n.url ? (
            <Group>
              <Button component="a" href={n.url} target="_blank" rel="noopener noreferrer" rightSection={<IconExternalLink size={16} aria-hidden />}>
                {t('newsletters.open')}
                <VisuallyHidden>{` ${t('newsletters.newTab')}`}</VisuallyHidden>
              </Button>
            </Group>
          ) : null}
        </Stack>
      </Paper>
    </Stack>
  );
};

/** /novicnik/{newsletterId}: one issue with its cover, full description, keywords and a link to the issue. */
export const NewsletterPage = ({ id }: { id: number }) => {
  const { t } = useTranslation();
  return (
    <NewslettersFeature title={t('pages.newsletter')}>
      <Issue id={id} />
    </NewslettersFeature>
  );
};
