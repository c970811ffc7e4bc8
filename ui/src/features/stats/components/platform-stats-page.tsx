import { Anchor, Group, Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { numeric } from '../../../components/column-heads.tsx';
import { FiguresTable } from '../../../components/figures-table.tsx';
import { TableRegion } from '../../../components/table-region.tsx';
import { formatNps, formatNumber } from '../../../lib/i18n.ts';
import { NPS_LEVEL_COLORS } from '../../../lib/nps-level-colors.ts';
import { useLiveReadModels } from '../../../lib/use-live-read-models.ts';
import { platformStatsQuery, STATS_KEY, STATS_READ_MODELS } from '../api/stats.ts';
import { PlatformTrends } from './platform-trends.tsx';
import { Figure, StatsFrame, useAsOf } from './stats-frame.tsx';

/** /admin/stats: the platform at a glance, its trends per month (issue 17 item 7); live. */
export const PlatformStatsPage = () => {
  const { t } = useTranslation();
  const [asOf] = useAsOf();
  const query = useQuery(platformStatsQuery(asOf));
  useLiveReadModels(STATS_READ_MODELS, STATS_KEY);
  const s = query.data;
  const window = s
    ? { intervalId: 0, from: new Date(0).toISOString(), to: asOf ?? new Date().toISOString(), asOf: asOf ?? new Date().toISOString() }
    : undefined;
  return (
    <StatsFrame title={t('pages.admin.stats')} window={window} query={query}>
      {s ? (
        <Stack gap="lg">
          <Group>
            <Figure label={t('stats.platform.participantsNow')} value={formatNumber(s.participants)} hint={t('stats.platform.participantsNowHint')} />
            <Figure label={t('stats.platform.courses')} value={`${formatNumber(s.publishedCourses)} / ${formatNumber(s.courses)}`} />
            <Figure label={t('stats.platform.enrollments')} value={formatNumber(s.enrollments)} testId="platform-enrollments" />
            <Figure label={t('stats.platform.completions')} value={formatNumber(s.completions)} testId="platform-completions" />
            <Figure label={t('stats.platform.views30')} value={formatNumber(s.views30)} />
            <Figure label={t('stats.nps.score')} value={formatNps(s.nps.score)} color={NPS_LEVEL_COLORS[s.nps.level]} />
          </Group>
          <PlatformTrends asOf={asOf} />
          <Title order={2} size="h4">
            {t('stats.platform.topCourses')}
          </Title>
          <TableRegion label={t('stats.platform.topCourses')}>
            <FiguresTable
              columns={[t('stats.platform.course'), ...numeric([t('stats.costs.views'), t('stats.success.completed')]), t('stats.platform.open')]}
              rows={s.topCourses.map((c) => ({
                key: c.id,
                name: c.title,
                figures: [formatNumber(c.views), formatNumber(c.completions)],
                last: (
                  <Group gap="xs">
                    {c.npsBlockId ? (
                      <Anchor component={Link} to={`/admin/courses/${c.id}/nps/${c.npsBlockId}/overview/0`} size="sm">
                        {t('stats.nps.score')}
                      </Anchor>
                    ) : null}
                    <Anchor component={Link} to={`/admin/courses/${c.id}/success/0`} size="sm">
                      {t('stats.success.title')}
                    </Anchor>
                    <Anchor component={Link} to={`/admin/courses/${c.id}/costs/0`} size="sm">
                      {t('stats.costs.title')}
                    </Anchor>
                  </Group>
                ),
              }))}
            />
          </TableRegion>
        </Stack>
      ) : null}
    </StatsFrame>
  );
};
