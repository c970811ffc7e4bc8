import { Anchor, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Logo } from '../../components/logo.tsx';

/** spec §2: an unknown route shows "page not found" with a link back home (the server answers it with 404). */
export const NotFoundPage = () => {
  const { t } = useTranslation();
  return (
    <Center mih="100vh" p="md" bg="var(--mantine-color-gray-0)" component="main">
      <Paper withBorder radius="md" p="xl" maw={480} w="100%">
        <Stack gap="md">
          <Logo />
          <Text fw={700} size="48px" lh={1} c="brand.8" aria-hidden>
            404
          </Text>
          <Title order={1} size="h2">
            {t('errors.notFoundTitle')}
          </Title>
          <Text>{t('errors.notFoundBody')}</Text>
          <Anchor component={Link} to="/" fw={600}>
            {t('errors.backHome')}
          </Anchor>
        </Stack>
      </Paper>
    </Center>
  );
};
