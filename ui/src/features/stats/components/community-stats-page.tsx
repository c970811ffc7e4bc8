import { Alert, Anchor, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { numeric } from '../../../components/column-heads.tsx';
import { FiguresTable } from '../../../components/figures-table.tsx';
import { TableRegion } from '../../../components/table-region.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { formatNps, formatNumber } from '../../../lib/i18n.ts';
import { NPS_LEVEL_COLORS } from '../../../lib/nps-level-colors.ts';
import { useLiveReadModels } from '../../../lib/use-live-read-models.ts';
import { communityStatsQuery, STATS_KEY, STATS_READ_MODELS } from '../api/stats.ts';
import { Figure } from './stats-frame.tsx';

/**
 * /statistika (issue 18): the way in to the statistics a manager, director, client or accountant
 * reads for their community (spec §6 1059, 1060): their people's participants, completions and
 * NPS per course, each course leading to its success and NPS pages, and the academies' success.
 */
export const CommunityStatsPage = () => {
  const { t } = useTranslation();
  const query = useQuery(communityStatsQuery);
  useLiveReadModels(STATS_READ_MODELS, STATS_KEY);
  if (query.isPending)
    return (
      <Center py="xl">
        <Loader role="status" aria-label={t('common.loading')} />
      </Center>
    );
  if (query.isError || !query.data) {
    const forbidden = query.error instanceof ApiError && query.error.status === 403;
    return <Alert color={forbidden ? 'gray' : 'red'}>{forbidden ? t('stats.forbidden') : t('stats.loadFailed')}</Alert>;
  }
  const s = query.data;
  return (
    <Stack gap="lg">
      <Title order={1} size="h2">
        {t('stats.community.title')}
      </Title>
      <Text c="dimmed">{t('stats.community.intro')}</Text>
      <Group>
        <Figure label={t('stats.community.courses')} value={formatNumber(s.totals.courses)} />
        <Figure label={t('stats.platform.participants')} value={formatNumber(s.totals.participants)} testId="community-participants" />
        <Figure label={t('stats.platform.completions')} value={formatNumber(s.totals.completions)} />
        <Figure label={t('stats.nps.score')} value={formatNps(s.totals.nps.score)} color={NPS_LEVEL_COLORS[s.totals.nps.level]} />
      </Group>
      {s.courses.length === 0 ? (
        <Text>{t('stats.community.none')}</Text>
      ) : (
        <TableRegion label={t('stats.community.courses')} minWidth={640}>
          <FiguresTable
            data-testid="community-courses"
            columns={[
              t('stats.platform.course'),
              ...numeric([t('stats.platform.participants'), t('stats.platform.completions'), t('stats.nps.score')]),
              t('stats.platform.open'),
            ]}
            rows={s.courses.map((c) => ({
              key: c.id,
              name: c.title,
              figures: [formatNumber(c.participants), formatNumber(c.completions), { text: formatNps(c.nps.score), color: NPS_LEVEL_COLORS[c.nps.level] }],
              last: (
                <Group gap="sm" wrap="nowrap">
                  <Anchor component={Link} to={`/admin/courses/${c.id}/success/0`} size="sm">
                    {t('stats.success.title')}
                  </Anchor>
                  {c.npsBlockId ? (
                    <>
                      <Anchor component={Link} to={`/admin/courses/${c.id}/nps/${c.npsBlockId}/overview/0`} size="sm">
                        {t('stats.nps.score')}
                      </Anchor>
                      <Anchor component={Link} to={`/admin/courses/${c.id}/nps/${c.npsBlockId}/communities/0`} size="sm">
                        {t('stats.community.npsByCommunity')}
                      </Anchor>
                    </>
                  ) : null}
                </Group>
              ),
            }))}
          />
        </TableRegion>
      )}
      {s.academies.length > 0 ? (
        <Stack gap="xs">
          <Title order={2} size="h4">
            {t('stats.community.academies')}
          </Title>
          {s.academies.map((a) => (
            <Anchor key={a.id} component={Link} to={`/admin/academies/${a.id}/success/0`}>
              {t('stats.community.academySuccess', { title: a.title })}
            </Anchor>
          ))}
        </Stack>
      ) : null}
    </Stack>
  );
};
