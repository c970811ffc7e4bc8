import { Badge, Stack, Text } from '@mantine/core';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { ListHeader } from '../../../components/form-card.tsx';
import { formatDateTime } from '../../../lib/i18n.ts';
import { type AdminNews, listNews } from '../api/news.ts';

// Dark outlines stay readable (WCAG AA) on white and on the table's stripes.
const STATE_COLOR = { on: '#1b6e2f', scheduled: '#1c4f8a', ended: '#495057', inactive: '#495057' } as const;
type NewsState = keyof typeof STATE_COLOR;

/** Whether an item shows now: inactive, not yet, on, or over (spec §3 active, dateFrom, dateTo). */
export const newsState = (news: Pick<AdminNews, 'active' | 'dateFrom' | 'dateTo'>, now = Date.now()): NewsState => {
  if (!news.active) return 'inactive';
  if (now < Date.parse(news.dateFrom)) return 'scheduled';
  return now < Date.parse(news.dateTo) ? 'on' : 'ended';
};

export const NewsStateBadge = ({ news }: { news: Pick<AdminNews, 'active' | 'dateFrom' | 'dateTo'> }) => {
  const { t } = useTranslation();
  const state = newsState(news);
  return (
    <Badge variant="outline" color={STATE_COLOR[state]} data-testid="news-state" data-state={state}>
      {t(`news.admin.states.${state}`)}
    </Badge>
  );
};

/** "3× (2 osebi)": how often an action was recorded, and by how many readers. */
export const reachText = (t: TFunction, count: { times: number; users: number }) =>
  t('news.admin.times', { times: count.times, people: t('news.admin.people', { count: count.users }) });

const Table = () => {
  const { t } = useTranslation();
  const reach = (key: keyof AdminNews['reach']): Column<AdminNews> => ({
    key,
    label: t(`news.admin.reach.${key}`),
    render: (n) => <span data-testid={`news-reach-${key}`}>{reachText(t, n.reach[key])}</span>,
  });
  const columns: Column<AdminNews>[] = [
    { key: 'title', label: t('news.admin.title'), render: (n) => n.title },
    { key: 'state', label: t('news.admin.state'), render: (n) => <NewsStateBadge news={n} /> },
    {
      key: 'period',
      label: t('news.admin.period'),
      render: (n) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {formatDateTime(n.dateFrom)} – {formatDateTime(n.dateTo)}
        </Text>
      ),
    },
    { key: 'location', label: t('news.admin.location'), render: (n) => t(`news.admin.locations.${n.location}`) },
    reach('shown'),
    reach('engaged'),
    reach('declined'),
    reach('deferred'),
  ];
  return (
    <DataTable
      queryKey={['news', 'admin']}
      fetch={listNews}
      columns={columns}
      rowHref={(n) => `/admin/news/${n.id}`}
      defaultSort="dateFrom"
      defaultOrder="desc"
      label={t('news.admin.list')}
    />
  );
};

/** /admin/news (issue 16, 1065): every news item, latest start first, with its state, dates, location, reach and engagement. */
export const AdminNewsPage = () => {
  const { t } = useTranslation();
  return (
    <Stack gap={0}>
      <ListHeader title={t('pages.admin.news')} newTo="/admin/news/new" newLabel={t('news.admin.new')} />
      <Text size="sm" c="dimmed" mb="md">
        {t('news.admin.reachHint')}
      </Text>
      <Table />
    </Stack>
  );
};
