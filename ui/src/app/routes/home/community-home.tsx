import { Anchor, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { communityStatsQuery } from '../../../features/stats/api/stats.ts';
import { formatNps, formatNumber } from '../../../lib/i18n.ts';

const Figure = ({ label, value, testId }: { label: string; value: string; testId?: string }) => (
  <Stack gap={0} miw={120}>
    <Text size="sm" c="dimmed">
      {label}
    </Text>
    <Text fw={700} fz={26} data-testid={testId}>
      {value}
    </Text>
  </Stack>
);

/** A manager's, director's, client's or accountant's home (issue 18): their community's headline figures, leading to its statistics. */
export const CommunityHome = () => {
  const { t } = useTranslation();
  const stats = useQuery(communityStatsQuery);
  if (!stats.data) return null;
  const s = stats.data.totals;
  return (
    <Paper withBorder radius="md" p="lg" data-testid="home-community">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('home.community')}
        </Title>
        <Group gap="xl">
          <Figure label={t('stats.community.courses')} value={formatNumber(s.courses)} />
          <Figure label={t('stats.platform.participants')} value={formatNumber(s.participants)} testId="home-community-participants" />
          <Figure label={t('stats.platform.completions')} value={formatNumber(s.completions)} />
          <Figure label={t('stats.nps.score')} value={formatNps(s.nps.score)} />
        </Group>
        <Anchor component={Link} to="/statistika">
          {t('home.openStats')}
        </Anchor>
      </Stack>
    </Paper>
  );
};
