import { Button, Group, Image, Paper, Stack, Text, Title, Typography } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { NEWS_ACTION, NEWS_LOCATION } from '../../../../../domain/news/news.rules.ts';
import { newsForReader, recordNewsAction } from '../api/news.ts';
import { linkTarget } from '../news-popup-rules.ts';

/**
 * The news item of location 1 (the course list) on a participant's home (issue 18): the pop-up shows
 * it at most once a day and is gone when closed, so home keeps it readable. Appearing here is not
 * counted as "shown" (the pop-up counts that); following its button counts as engaged (3).
 */
export const NewsCard = () => {
  const { t } = useTranslation();
  const news = useQuery({ queryKey: ['news', 'reader', NEWS_LOCATION.list], queryFn: () => newsForReader([NEWS_LOCATION.list]), staleTime: 60_000 });
  const item = news.data;
  if (!item) return null;
  return (
    <Paper withBorder radius="md" p="lg" data-testid="home-news">
      <Stack gap="sm">
        <Text size="sm" c="dimmed" fw={600}>
          {t('home.news')}
        </Text>
        <Title order={2} size="h3">
          {item.title}
        </Title>
        {item.image ? <Image src={item.image} alt="" radius="sm" mah={200} fit="contain" /> : null}
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: the content was sanitised by the API when it was saved */}
        <Typography dangerouslySetInnerHTML={{ __html: item.htmlContent }} />
        {item.actionUrl ? (
          <Group>
            <Button
              component="a"
              href={item.actionUrl}
              {...linkTarget(item.actionUrl)}
              onClick={() => recordNewsAction(item.id, NEWS_ACTION.engaged).catch(() => undefined)}
            >
              {item.actionButtonText ?? t('news.popup.open')}
            </Button>
          </Group>
        ) : null}
      </Stack>
    </Paper>
  );
};
