import { Button, Pagination, Stack, Table, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BorderedTable } from '../../../components/bordered-table.tsx';
import { ColumnHeads } from '../../../components/column-heads.tsx';
import { formatDateTime, formatNumber } from '../../../lib/i18n.ts';
import { listImports } from '../api/imports.ts';
import { StatusBadge } from './import-status-badge.tsx';

/** Earlier imports, newest first: who, when, which file, how many rows, state and counts. */
export const ImportHistory = ({ selected, onOpen }: { selected: number | null; onOpen: (id: number) => void }) => {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const list = useQuery({
    queryKey: ['imports', 'list', page],
    queryFn: () => listImports(page),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.items.some((i) => i.status === 'running') ? 2000 : false),
  });
  if (!list.data || list.data.total === 0) return null;
  return (
    <Stack gap="xs">
      <Title order={2} size="h4">
        {t('imports.history')}
      </Title>
      <BorderedTable label={t('imports.history')} aria-label={t('imports.history')} data-testid="import-history">
        <ColumnHeads
          columns={[...(['when', 'file', 'who', 'rowsHeader', 'state', 'counts'] as const).map((key) => t(`imports.${key}`)), { unseen: t('imports.actions') }]}
        />
        <Table.Tbody>
          {list.data.items.map((item) => (
            <Table.Tr key={item.id} aria-selected={item.id === selected}>
              <Table.Td>{formatDateTime(item.uploadedAt)}</Table.Td>
              <Table.Td>{item.fileName}</Table.Td>
              <Table.Td>{item.uploadedBy?.name ?? '–'}</Table.Td>
              <Table.Td>{formatNumber(item.rows)}</Table.Td>
              <Table.Td>
                <StatusBadge status={item.status} />
              </Table.Td>
              <Table.Td>
                {item.status === 'blocked'
                  ? t('imports.problems', { count: item.problemCount, n: formatNumber(item.problemCount) })
                  : t('imports.summary', {
                      created: formatNumber(item.created),
                      updated: formatNumber(item.updated),
                      skipped: formatNumber(item.skipped),
                      failed: formatNumber(item.failed),
                    })}
              </Table.Td>
              <Table.Td>
                <Button size="xs" variant="light" onClick={() => onOpen(item.id)} aria-label={t('imports.openFile', { name: item.fileName })}>
                  {t('imports.open')}
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </BorderedTable>
      {list.data.total > 10 ? (
        <Pagination
          total={Math.ceil(list.data.total / 10)}
          value={page}
          onChange={setPage}
          getControlProps={(control) => ({ 'aria-label': t(`table.${control}`) })}
          getItemProps={(n) => ({ 'aria-label': t('imports.page', { page: n }) })}
        />
      ) : null}
    </Stack>
  );
};
