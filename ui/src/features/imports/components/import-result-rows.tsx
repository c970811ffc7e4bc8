import { Anchor, Pagination, SegmentedControl, Stack, Table } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { TableRegion } from '../../../components/table-region.tsx';
import { listImportRows, type RowOutcome } from '../api/imports.ts';

/** The outcomes a row may have, in the order the filter and the counts show them. */
export const OUTCOMES: readonly RowOutcome[] = ['created', 'updated', 'skipped', 'failed'];

/** What became of each row, filtered by outcome, a page at a time. */
export const ResultRows = ({ id }: { id: number }) => {
  const { t } = useTranslation();
  const [outcome, setOutcome] = useState<RowOutcome | 'all'>('all');
  const [page, setPage] = useState(1);
  const rows = useQuery({
    queryKey: ['imports', id, 'rows', outcome, page],
    queryFn: () => listImportRows(id, outcome === 'all' ? null : outcome, page),
    placeholderData: keepPreviousData,
    // Users the job made a moment ago may not be in the users read model yet: ask again until they are.
    refetchInterval: (query) => (query.state.data?.items.some((r) => r.outcome !== 'failed' && r.user === null) ? 1000 : false),
  });
  return (
    <Stack gap="xs">
      <SegmentedControl
        aria-label={t('imports.filter')}
        value={outcome}
        onChange={(value) => {
          setOutcome(value as RowOutcome | 'all');
          setPage(1);
        }}
        data={[{ value: 'all', label: t('imports.outcome.all') }, ...OUTCOMES.map((o) => ({ value: o, label: t(`imports.outcome.${o}`) }))]}
      />
      <TableRegion label={t('imports.rowsTable')}>
        <Table striped aria-label={t('imports.rowsTable')} data-testid="import-rows">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('imports.row')}</Table.Th>
              <Table.Th>{t('imports.user')}</Table.Th>
              <Table.Th>{t('imports.result')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(rows.data?.items ?? []).map((row) => (
              <Table.Tr key={row.row}>
                <Table.Td>{row.row}</Table.Td>
                <Table.Td>
                  {row.user ? (
                    <Anchor component={Link} to={`/admin/users/${row.user.id}`}>
                      {row.user.name} ({row.user.username})
                    </Anchor>
                  ) : (
                    '–'
                  )}
                </Table.Td>
                <Table.Td>
                  {t(`imports.outcome.${row.outcome}`)}
                  {row.message ? `: ${row.message}` : ''}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </TableRegion>
      {(rows.data?.total ?? 0) > 20 ? (
        <Pagination
          total={Math.ceil((rows.data?.total ?? 0) / 20)}
          value={page}
          onChange={setPage}
          getControlProps={(control) => ({ 'aria-label': t(`table.${control}`) })}
          getItemProps={(n) => ({ 'aria-label': t('imports.page', { page: n }) })}
        />
      ) : null}
    </Stack>
  );
};
