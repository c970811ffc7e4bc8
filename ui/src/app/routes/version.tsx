import { Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { APP_VERSION } from '../../lib/version.ts';

export const VersionPage = () => {
  const { t } = useTranslation();
  return (
    <Paper withBorder radius="md" p="xl">
      <Stack gap="xs">
        <Title order={1} size="h2">
          {t('version.title')}
        </Title>
        <Text data-testid="app-version">{t('version.body', { version: APP_VERSION })}</Text>
      </Stack>
    </Paper>
  );
};
