import { Alert, Badge, Center, Group, Loader, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useFeature } from '../../../lib/features.ts';

export const Pending = () => {
  const { t } = useTranslation();
  return (
    <Center py="xl">
      <Loader role="status" aria-label={t('common.loading')} />
    </Center>
  );
};

/** A page that cannot show its content still has its heading, then says why. */
export const PageMessage = ({ title, message, color = 'yellow' }: { title: string; message: string; color?: string }) => (
  <Stack gap="md">
    <Title order={1} size="h2">
      {title}
    </Title>
    <Alert color={color}>{message}</Alert>
  </Stack>
);

/**
 * The newsletter pages while the newsletters feature of spec §1 is off (GET /api/features): the page
 * says so under its heading instead of calling routes that answer 404.
 */
export const NewslettersFeature = ({ title, children }: { title: string; children: ReactNode }) => {
  const { t } = useTranslation();
  const on = useFeature('newsletters');
  if (on === undefined) return <Pending />;
  if (!on) return <PageMessage title={title} message={t('newsletters.off')} />;
  return <>{children}</>;
};

/** Keywords as neutral badges (dark text on light grey: readable, WCAG AA). */
export const Keywords = ({ keywords }: { keywords: readonly string[] }) => {
  const { t } = useTranslation();
  if (keywords.length === 0) return null;
  return (
    <Group gap={6} aria-label={t('newsletters.keywords')} role="list">
      {keywords.map((keyword) => (
        <Badge key={keyword} variant="default" tt="none" role="listitem" data-testid="newsletter-keyword">
          {keyword}
        </Badge>
      ))}
    </Group>
  );
};
