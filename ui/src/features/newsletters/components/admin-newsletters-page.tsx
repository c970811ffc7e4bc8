import { Badge, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { ListHeader } from '../../../components/form-card.tsx';
import { formatDateTime } from '../../../lib/i18n.ts';
import { listNewsletters, listProfessionOptions, type Newsletter } from '../api/newsletters.ts';
import { NewslettersFeature } from './newsletter-page-parts.tsx';

// Dark outlines stay readable (WCAG AA) on white and on the table's stripes.
const PUBLISHED_COLOR = '#1b6e2f';
const DRAFT_COLOR = '#495057';

export const PublishedBadge = ({ published }: { published: boolean }) => {
  const { t } = useTranslation();
  return (
    <Badge variant="outline" color={published ? PUBLISHED_COLOR : DRAFT_COLOR} data-testid="newsletter-published">
      {t(published ? 'newsletters.admin.published' : 'newsletters.admin.unpublished')}
    </Badge>
  );
};

const Table = () => {
  const { t } = useTranslation();
  const professions = useQuery({ queryKey: ['professions', 'options'], queryFn: listProfessionOptions, staleTime: 10 * 60_000 });
  const names = new Map((professions.data ?? []).map((p) => [Number(p.value), p.label]));
  const columns: Column<Newsletter>[] = [
    { key: 'title', label: t('newsletters.admin.title'), render: (n) => n.title },
    { key: 'issue', label: t('newsletters.admin.issue'), render: (n) => n.issue ?? '' },
    {
      key: 'professions',
      label: t('newsletters.admin.professions'),
      render: (n) =>
        n.professionIds.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('newsletters.admin.allProfessions')}
          </Text>
        ) : (
          n.professionIds.map((id) => names.get(id) ?? String(id)).join(', ')
        ),
    },
    { key: 'published', label: t('newsletters.admin.status'), render: (n) => <PublishedBadge published={n.published} /> },
    { key: 'updatedAt', label: t('newsletters.admin.updatedAt'), render: (n) => formatDateTime(n.updatedAt) },
  ];
  return (
    <DataTable
      queryKey={['newsletters', 'admin']}
      fetch={listNewsletters}
      columns={columns}
      rowHref={(n) => `/admin/newsletters/${n.id}/edit`}
      defaultSort="updatedAt"
      defaultOrder="desc"
      label={t('newsletters.admin.list')}
    />
  );
};

/** /admin/newsletters (issue 16): every issue, newest change first, searched, with its state and a way to a new one. */
export const AdminNewslettersPage = () => {
  const { t } = useTranslation();
  return (
    <NewslettersFeature title={t('pages.admin.newsletters')}>
      <Stack gap={0}>
        <ListHeader title={t('pages.admin.newsletters')} newTo="/admin/newsletters/new" newLabel={t('newsletters.admin.new')} />
        <Table />
      </Stack>
    </NewslettersFeature>
  );
};
