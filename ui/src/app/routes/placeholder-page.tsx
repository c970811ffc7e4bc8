import { Anchor, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { RouteEntry } from '../route-paths.ts';

/** A route that a later issue fills: its title, and a plain word that it is not there yet (docs/ui-status.md). */
export const PlaceholderPage = ({ entry }: { entry: RouteEntry }) => {
  const { t } = useTranslation();
  return (
    <Paper withBorder radius="md" p="xl" data-placeholder={entry.path}>
      <Stack gap="sm">
        <Title order={1} size="h2">
          {t(entry.title)}
        </Title>
        <Text>{t('placeholder.body')}</Text>
        <Anchor component={Link} to="/">
          {t('placeholder.back')}
        </Anchor>
      </Stack>
    </Paper>
  );
};
