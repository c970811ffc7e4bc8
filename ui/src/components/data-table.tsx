import { Anchor, Box, Center, Group, Loader, Pagination, Paper, Table, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconChevronDown, IconChevronUp, IconSearch, IconSelector } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useMinimumDelay } from '../lib/use-minimum-delay.ts';
import { TableRegion } from './table-region.tsx';

export type ListQuery = { search: string; sort: string; order: 'asc' | 'desc'; page: number; pageSize: number };
export type Column<T> = { key: string; label: string; sortKey?: string; render: (item: T) => ReactNode };

const PAGE_SIZE = 20;

/** A column header that sorts the list by `sortKey`, showing the direction (aria-sort for screen readers). */
export const SortHeader = (props: { sortKey: string; label: string; sort: string; order: 'asc' | 'desc'; onSort: (key: string) => void }) => {
  const active = props.sort === props.sortKey;
  return (
    <Table.Th aria-sort={active ? (props.order === 'asc' ? 'ascending' : 'descending') : undefined}>
      <UnstyledButton onClick={() => props.onSort(props.sortKey)} fw={600} data-sort={props.sortKey}>
        <Group gap={4} wrap="nowrap">
          {props.label}
          {!active ? (
            <IconSelector size={14} aria-hidden />
          ) : props.order === 'asc' ? (
            <IconChevronUp size={14} aria-hidden />
          ) : (
            <IconChevronDown size={14} aria-hidden />
          )}
        </Group>
      </UnstyledButton>
    </Table.Th>
  );
};

/** A list with search, sortable columns and paging, read from the API page by page. */
export const DataTable = <T extends { id: number }>(props: {
  queryKey: readonly unknown[];
  fetch: (query: ListQuery) => Promise<{ items: T[]; total: number }>;
  columns: Column<T>[];
  rowHref?: (item: T) => string;
  defaultSort: string;
  defaultOrder?: 'asc' | 'desc';
  label: string;
  /** Controls beside the search (filters); their values belong in `queryKey`, so a change reloads from page 1. */
  filters?: ReactNode;
}) => {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const [sort, setSort] = useState(props.defaultSort);
  const [order, setOrder] = useState<'asc' | 'desc'>(props.defaultOrder ?? 'asc');
  const [page, setPage] = useState(1);
  const filterKey = JSON.stringify(props.queryKey);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new filter (the query key) starts again on page 1.
  useEffect(() => setPage(1), [filterKey]);
  const query: ListQuery = { search: debounced, sort, order, page, pageSize: PAGE_SIZE };
  const result = useQuery({ queryKey: [...props.queryKey, query], queryFn: () => props.fetch(query), placeholderData: keepPreviousData });
  const loading = useMinimumDelay(result.isPending);
  const pages = Math.max(1, Math.ceil((result.data?.total ?? 0) / PAGE_SIZE));

  const toggleSort = (key: string) => {
    if (sort === key) setOrder((o) => (o === 'asc' ? 'desc' : 'asc'));
    else {
      setSort(key);
      setOrder('asc');
    }
    setPage(1);
  };

  return (
    <Paper withBorder radius="md" p="md">
      <Group mb="md" align="flex-end" gap="sm">
        <TextInput
          leftSection={<IconSearch size={16} aria-hidden />}
          placeholder={t('table.search')}
          aria-label={t('table.searchIn', { what: props.label })}
          value={search}
          onChange={(e) => {
            const value = e.currentTarget.value;
            setSearch(value);
            setPage(1);
          }}
          w={360}
          maw="100%"
        />
        {props.filters}
      </Group>
      {loading ? (
        <Center py="xl">
          <Loader role="status" aria-label={t('common.loading')} />
        </Center>
      ) : (
        <>
          <TableRegion label={props.label}>
            <Table striped highlightOnHover verticalSpacing="sm" aria-label={props.label}>
              <Table.Thead>
                <Table.Tr>
                  {props.columns.map((column) =>
                    column.sortKey ? (
                      <SortHeader key={column.key} sortKey={column.sortKey} label={column.label} sort={sort} order={order} onSort={toggleSort} />
                    ) : (
                      <Table.Th key={column.key}>{column.label}</Table.Th>
                    ),
                  )}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {(result.data?.items ?? []).map((item) => (
                  <Table.Tr key={item.id} data-row={item.id}>
                    {props.columns.map((column, i) => (
                      <Table.Td key={column.key}>
                        {i === 0 && props.rowHref ? (
                          <Anchor component={Link} to={props.rowHref(item)} fw={500}>
                            {column.render(item)}
                          </Anchor>
                        ) : (
                          column.render(item)
                        )}
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </TableRegion>
          {result.data && result.data.items.length === 0 ? (
            <Text c="dimmed" ta="center" py="lg">
              {t('table.empty')}
            </Text>
          ) : null}
        </>
      )}
      <Group justify="space-between" mt="md">
        <Text size="sm" c="dimmed">
          {t('table.total', { count: result.data?.total ?? 0 })}
        </Text>
        {pages > 1 ? (
          <Pagination total={pages} value={page} onChange={setPage} size="sm" getControlProps={(control) => ({ 'aria-label': t(`table.${control}`) })} />
        ) : (
          <Box />
        )}
      </Group>
    </Paper>
  );
};
