import { Anchor, Badge, Center, Checkbox, Group, Loader, Pagination, Paper, Table, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { SortHeader } from '../../../components/data-table.tsx';
import { TableRegion } from '../../../components/table-region.tsx';
import { formatDateTime } from '../../../lib/i18n.ts';
import { useMinimumDelay } from '../../../lib/use-minimum-delay.ts';
import { listUsers, type UserFilters, type UserListItem, type UserStatus } from '../api/user-admin.ts';
import { UserFiltersBar } from './user-filters.tsx';

const PAGE_SIZE = 20;
const EMPTY_FILTERS: UserFilters = { search: '', roleId: null, companyId: null, unitId: null, groupId: null, professionId: null, status: null };
// Outline in dark shades: readable on white (WCAG AA), like the consent badges.
const STATUS_COLOUR: Record<UserStatus, string> = { active: '#1b6e2f', inactive: 'orange.9', deleted: 'red.9' };

export const UserStatusBadge = ({ status }: { status: UserStatus }) => {
  const { t } = useTranslation();
  return (
    <Badge variant="outline" color={STATUS_COLOUR[status]}>
      {t(`people.status.${status}`)}
    </Badge>
  );
};

/**
 * The users list of an admin (/admin/users) or a manager (/manager/users): the server pages,
 * sorts, searches and filters (tens of thousands of users). The admin selects rows for bulk
 * actions; `rowAction` adds a per-row control (the manager's change request).
 */
export const UsersTable = (props: {
  scope: 'admin' | 'manager';
  rowHref?: (user: UserListItem) => string;
  rowAction?: (user: UserListItem) => ReactNode;
  selection?: { selected: ReadonlySet<number>; onChange: (next: Set<number>) => void };
}) => {
  const { t } = useTranslation();
  const [filters, setFilters] = useState<UserFilters>(EMPTY_FILTERS);
  const [search] = useDebouncedValue(filters.search, 250);
  const [sort, setSort] = useState('name');
  const [order, setOrder] = useState<'asc' | 'desc'>('asc');
  const [page, setPage] = useState(1);
  const query = { ...filters, search, sort, order, page, pageSize: PAGE_SIZE };
  const result = useQuery({ queryKey: ['users', props.scope, 'list', query], queryFn: () => listUsers(props.scope, query), placeholderData: keepPreviousData });
  const loading = useMinimumDelay(result.isPending);
  const items = result.data?.items ?? [];
  const pages = Math.max(1, Math.ceil((result.data?.total ?? 0) / PAGE_SIZE));
  const selection = props.selection;

  const sortBy = (key: string) => {
    if (sort === key) setOrder((o) => (o === 'asc' ? 'desc' : 'asc'));
    else {
      setSort(key);
      setOrder('asc');
    }
    setPage(1);
  };
  const header = (key: string, label: string) => <SortHeader sortKey={key} label={label} sort={sort} order={order} onSort={sortBy} />;
  const allOnPage = items.length > 0 && items.every((u) => selection?.selected.has(u.id));

  return (
    <Paper withBorder radius="md" p="md">
      <UserFiltersBar
        scope={props.scope}
        value={filters}
        onChange={(next) => {
          setFilters(next);
          setPage(1);
        }}
      />
      {loading ? (
        <Center py="xl">
          <Loader role="status" aria-label={t('common.loading')} />
        </Center>
      ) : result.isError ? (
        <Text c="red.8">{result.error.message}</Text>
      ) : (
        <TableRegion label={t('people.list')}>
          <Table striped highlightOnHover verticalSpacing="sm" aria-label={t('people.list')}>
            <Table.Thead>
              <Table.Tr>
                {selection ? (
                  <Table.Th w={40}>
                    <Checkbox
                      aria-label={t('people.selectPage')}
                      checked={allOnPage}
                      onChange={() => {
                        const next = new Set(selection.selected);
                        for (const u of items) {
                          if (allOnPage) next.delete(u.id);
                          else next.add(u.id);
                        }
                        selection.onChange(next);
                      }}
                    />
                  </Table.Th>
                ) : null}
                {header('name', t('people.fields.name'))}
                {header('username', t('people.fields.username'))}
                {header('email', t('people.fields.email'))}
                <Table.Th>{t('people.fields.roles')}</Table.Th>
                <Table.Th>{t('people.fields.status')}</Table.Th>
                {header('lastLoginAt', t('people.fields.lastLogin'))}
                {props.rowAction ? <Table.Th>{t('people.actions')}</Table.Th> : null}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((user) => (
                <Table.Tr key={user.id} data-row={user.id}>
                  {selection ? (
                    <Table.Td>
                      <Checkbox
                        aria-label={t('people.selectUser', { name: user.fullName })}
                        checked={selection.selected.has(user.id)}
                        onChange={() => {
                          const next = new Set(selection.selected);
                          if (next.has(user.id)) next.delete(user.id);
                          else next.add(user.id);
                          selection.onChange(next);
                        }}
                      />
                    </Table.Td>
                  ) : null}
                  <Table.Td>
                    {props.rowHref ? (
                      <Anchor component={Link} to={props.rowHref(user)} fw={500}>
                        {user.fullName}
                      </Anchor>
                    ) : (
                      <Text fw={500}>{user.fullName}</Text>
                    )}
                    <Text size="xs" c="dimmed">
                      {[user.professionName, user.licenceNumber ? `${t('people.fields.licenceShort')} ${user.licenceNumber}` : null]
                        .filter(Boolean)
                        .join(' · ')}
                    </Text>
                  </Table.Td>
                  <Table.Td>{user.username}</Table.Td>
                  <Table.Td>{user.email}</Table.Td>
                  <Table.Td>
                    {user.roles.map((r) => (
                      <Text key={`${r.roleId}-${r.unitId}-${r.companyId}`} size="sm">
                        {t(`roles.${r.roleId}`)}
                        {r.companyName ? ` · ${r.unitId === 0 ? `${r.companyName} (${t('people.allUnits')})` : (r.unitName ?? '')}` : ''}
                      </Text>
                    ))}
                  </Table.Td>
                  <Table.Td miw={120}>
                    <Group gap={4}>
                      <UserStatusBadge status={user.status} />
                      {user.openChangeRequests > 0 ? (
                        <Badge variant="outline" color="violet.9">
                          {t('people.openRequests', { count: user.openChangeRequests })}
                        </Badge>
                      ) : null}
                    </Group>
                  </Table.Td>
                  <Table.Td>{user.lastLoginAt ? formatDateTime(user.lastLoginAt) : '–'}</Table.Td>
                  {props.rowAction ? <Table.Td>{props.rowAction(user)}</Table.Td> : null}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {items.length === 0 ? (
            <Text c="dimmed" ta="center" py="lg">
              {t('table.empty')}
            </Text>
          ) : null}
        </TableRegion>
      )}
      <Group justify="space-between" mt="md">
        <Text size="sm" c="dimmed" data-testid="users-total">
          {t('table.total', { count: result.data?.total ?? 0 })}
        </Text>
        {pages > 1 ? (
          <Pagination total={pages} value={page} onChange={setPage} size="sm" getControlProps={(control) => ({ 'aria-label': t(`table.${control}`) })} />
        ) : null}
      </Group>
    </Paper>
  );
};
