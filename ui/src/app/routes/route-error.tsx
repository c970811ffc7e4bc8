import { Anchor, Button, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { isChunkLoadError, reloadOnceForChunkError } from '../../lib/chunk-reload.ts';
import { NotFoundPage } from './not-found.tsx';

/** Route errors: 404 is the not-found page; a chunk that failed to load reloads once; anything else shows its message and status (default 500). */
export const RouteErrorPage = () => {
  const { t } = useTranslation();
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  if (isChunkLoadError(error) && reloadOnceForChunkError()) return null;
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const message = isRouteErrorResponse(error)
    ? error.statusText || t('errors.unknown')
    : error instanceof Error && error.message
      ? error.message
      : t('errors.unknown');
  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder radius="md" p="xl" maw={520} w="100%">
        <Stack gap="sm">
          <Title order={1} size="h2">
            {t('errors.routeTitle')}
          </Title>
          <Text data-testid="error-message">{message}</Text>
          <Text c="dimmed" data-testid="error-status">
            {t('errors.status', { status })}
          </Text>
          <Button onClick={() => window.location.reload()} variant="default" w="fit-content">
            {t('errors.reload')}
          </Button>
          <Anchor component={Link} to="/">
            {t('errors.backHome')}
          </Anchor>
        </Stack>
      </Paper>
    </Center>
  );
};
