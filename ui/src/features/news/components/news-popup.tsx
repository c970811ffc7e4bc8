import { Button, Group, Image, Modal, Stack, Text, Typography } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { NEWS_ACTION, type NewsAction } from '../../../../../domain/news/news.rules.ts';
import { session } from '../../../lib/session.ts';
import { newsForReader, type ReaderNews, recordNewsAction } from '../api/news.ts';
import { cutLocationText, linkTarget, NEWS_SHOWN_KEY, newsLocationsFor, shownRecently } from '../news-popup-rules.ts';

const readShown = () => {
  try {
    return sessionStorage.getItem(NEWS_SHOWN_KEY);
  } catch {
    return null;
  }
};
const writeShown = (at: Date) => {
  try {
    sessionStorage.setItem(NEWS_SHOWN_KEY, at.toISOString());
  } catch {
    // A browser without session storage shows the pop-up on each visit; nothing else breaks.
  }
};

/**
 * The news pop-up of the header (spec §2, §4, §7, §9): only with a jwt, only on /, /izobrazevanja
 * and /powerclass (location 1) and on the course-completed pages (locations 1 and 2), at most once
 * every 24 hours in a browser session (`news_shown_date` in session storage). It asks the API for
 * the one item to show, records "shown" (1) when it appears, and the reader's answer: the action
 * button (3 engaged, opens the item's address), "Ne zanima me" (2 declined), "Kasneje" (4 deferred;
 * closing the window counts as that too).
 */
export const NewsPopup = ({ enabled }: { enabled: boolean }) => {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const [news, setNews] = useState<ReaderNews | null>(null);

  useEffect(() => {
    const locations = newsLocationsFor(pathname);
    if (!enabled || !locations || !session.token() || shownRecently(readShown(), Date.now())) return;
    let cancelled = false;
    newsForReader(locations).then(
      (item) => {
        if (cancelled || !item || shownRecently(readShown(), Date.now())) return;
        writeShown(new Date());
        setNews(item);
        recordNewsAction(item.id, NEWS_ACTION.shown).catch(() => undefined);
      },
      // No news is shown when it cannot be asked for; the page itself is unaffected.
      () => undefined,
    );
    return () => {
      cancelled = true;
    };
  }, [enabled, pathname]);

  const queryClient = useQueryClient();
  const answer = (action: NewsAction) => {
    if (!news) return;
    // Declined (2) or followed (3), the item is not the reader's any more: the home card goes too.
    recordNewsAction(news.id, action)
      .then(() =>
        action === NEWS_ACTION.declined || action === NEWS_ACTION.engaged ? queryClient.invalidateQueries({ queryKey: ['news', 'reader'] }) : undefined,
      )
      .catch(() => undefined);
    setNews(null);
  };

  const header = news ? cutLocationText(news.title) : '';
  return (
    <span data-slot="news-popup" data-testid="news-popup-slot">
      <Modal
        opened={news !== null}
        onClose={() => answer(NEWS_ACTION.deferred)}
        title={header}
        size="lg"
        centered
        closeButtonProps={{ 'aria-label': t('news.popup.close') }}
        data-testid="news-popup"
      >
        {news ? (
          <Stack gap="md">
            {header !== news.title ? (
              <Text fw={600} size="lg">
                {news.title}
              </Text>
            ) : null}
            {news.image ? <Image src={news.image} alt={news.title} radius="sm" mah={280} fit="contain" /> : null}
            {/* biome-ignore lint/security/noDangerouslySetInnerHtml: the content was sanitised by the API when it was saved */}
            <Typography dangerouslySetInnerHTML={{ __html: news.htmlContent }} data-testid="news-popup-content" />
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={() => answer(NEWS_ACTION.deferred)}>
                {t('news.popup.later')}
              </Button>
              <Button variant="default" onClick={() => answer(NEWS_ACTION.declined)}>
                {t('news.popup.notInterested')}
              </Button>
              {news.actionUrl ? (
                <Button component="a" href={news.actionUrl} {...linkTarget(news.actionUrl)} onClick={() => answer(NEWS_ACTION.engaged)}>
                  {news.actionButtonText ?? t('news.popup.open')}
                </Button>
              ) : null}
            </Group>
          </Stack>
        ) : null}
      </Modal>
    </span>
  );
};
