import { Alert, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';

/** A page that could not show its content still has its heading, then says why (and what next). */
export const PageMessage = ({ title, color = 'yellow', message, children }: { title: string; color?: string; message: string; children?: ReactNode }) => (
  <Stack gap="md">
    <Title order={1} size="h2">
      {title}
    </Title>
    <Alert color={color}>{message}</Alert>
    {children}
  </Stack>
);

/** A failed load: "does not exist or is not for you" for 404, "could not load" otherwise. */
export const LoadError = ({ error, title, notFound, failed }: { error: unknown; title: string; notFound: string; failed: string }) => (
  <PageMessage title={title} color="red" message={error instanceof ApiError && error.status === 404 ? notFound : failed} />
);

export const CourseLoadError = ({ error }: { error: unknown }) => {
  const { t } = useTranslation();
  return <LoadError error={error} title={t('pages.course')} notFound={t('courses.notFound')} failed={t('courses.loadFailed')} />;
};
