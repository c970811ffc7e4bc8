import { Alert, Badge, Center, Loader, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { TableRegion } from '../../../components/table-region.tsx';
import { formatDateTime } from '../../../lib/i18n.ts';
import { fromLjubljanaWall, ljubljanaWall } from '../../../lib/ljubljana-time.ts';
import { listDeletionRequests } from '../api/profile.ts';
import { listChangeRequests } from '../api/user-admin.ts';
import { ChangeRequestsTable } from './change-requests.tsx';

/**
 * Working days after `from` (Monday to Friday in Ljubljana, whatever the browser's zone; public
 * holidays are not counted out), at the same Ljubljana time of day.
 */
const addWorkingDays = (from: Date, days: number) => {
  const wall = ljubljanaWall(from);
  const day = new Date(Date.UTC(wall.year, wall.month - 1, wall.day));
  let left = days;
  while (left > 0) {
    day.setUTCDate(day.getUTCDate() + 1);
    if (day.getUTCDay() !== 0 && day.getUTCDay() !== 6) left--;
  }
  return fromLjubljanaWall({ ...wall, year: day.getUTCFullYear(), month: day.getUTCMonth() + 1, day: day.getUTCDate() });
};

/**
 * /admin/zahteve: users' requests to delete their data (spec §8, processed within 5 working days),
 * oldest first, each with the day it is due; overdue ones stand out.
 */
export const DeletionRequestsPage = () => {
  const { t } = useTranslation();
  const requests = useQuery({ queryKey: ['users', 'deletion-requests'], queryFn: listDeletionRequests });
  const changes = useQuery({ queryKey: ['users', 'change-requests'], queryFn: () => listChangeRequests() });
  const now = new Date();
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('pages.adminRequests')}
      </Title>
      <Text c="dimmed" size="sm">
        {t('identity.requests.intro')}
      </Text>
      {requests.isPending ? (
        <Center py="xl">
          <Loader role="status" aria-label={t('common.loading')} />
        </Center>
      ) : requests.isError ? (
        <Alert color="red">{t('identity.requests.loadFailed')}</Alert>
      ) : requests.data.items.length === 0 ? (
        <Text c="dimmed">{t('identity.requests.empty')}</Text>
      ) : (
        <Paper withBorder radius="md">
          <TableRegion label={t('pages.adminRequests')}>
            <Table striped data-testid="deletion-requests">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('identity.requests.user')}</Table.Th>
                  <Table.Th>{t('identity.requests.requestedAt')}</Table.Th>
                  <Table.Th>{t('identity.requests.due')}</Table.Th>
                  <Table.Th>{t('identity.requests.reason')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {requests.data.items.map((item) => {
                  const due = addWorkingDays(new Date(item.requestedAt), 5);
                  return (
                    <Table.Tr key={item.id}>
                      <Table.Td>
                        <Text fw={500}>{item.fullName}</Text>
                        <Text size="xs" c="dimmed">
                          {item.username} · {item.email}
                        </Text>
                      </Table.Td>
                      <Table.Td>{formatDateTime(item.requestedAt)}</Table.Td>
                      <Table.Td>
                        {formatDateTime(due)}{' '}
                        {due < now ? (
                          <Badge color="red.9" variant="outline">
                            {t('identity.requests.overdue')}
                          </Badge>
                        ) : null}
                      </Table.Td>
                      <Table.Td style={{ whiteSpace: 'pre-wrap' }}>{item.reason ?? '—'}</Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </TableRegion>
        </Paper>
      )}
      <Title order={2} size="h3" mt="lg">
        {t('people.requests.queue')}
      </Title>
      {changes.isError ? (
        <Alert color="red">{changes.error.message}</Alert>
      ) : (
        <ChangeRequestsTable items={changes.data?.items ?? []} resolvable showUser userHref={(id) => `/admin/users/${id}`} />
      )}
    </Stack>
  );
};
