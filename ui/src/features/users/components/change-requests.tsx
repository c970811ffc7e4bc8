import { Anchor, Badge, Button, Group, Modal, Paper, Stack, Table, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { TableRegion } from '../../../components/table-region.tsx';
import { formatDateTime } from '../../../lib/i18n.ts';
import { type ChangeRequest, resolveChangeRequest } from '../api/user-admin.ts';

const OUTCOME_COLOUR = { open: 'violet.9', accepted: '#1b6e2f', rejected: 'red.9' } as const;

export const ChangeRequestStatus = ({ request }: { request: ChangeRequest }) => {
  const { t } = useTranslation();
  return (
    <Badge variant="outline" color={OUTCOME_COLOUR[request.status]}>
      {t(`people.requests.status.${request.status}`)}
    </Badge>
  );
};

/** An admin's answer to one request: accept, or reject with a reason (required). */
const ResolveButtons = ({ request }: { request: ChangeRequest }) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const resolve = useMutation({
    mutationFn: (outcome: 'accepted' | 'rejected') => resolveChangeRequest(request.id, { outcome, reason: outcome === 'rejected' ? reason : null }),
    onSuccess: async () => {
      setRejecting(false);
      await queryClient.invalidateQueries({ queryKey: ['users'] });
      notifications.show({ color: 'teal', message: t('people.requests.resolved') });
    },
    onError: (e) => setError(e.message),
  });
  return (
    <Group gap="xs">
      <Button size="xs" onClick={() => resolve.mutate('accepted')} loading={resolve.isPending && resolve.variables === 'accepted'}>
        {t('people.requests.accept')}
      </Button>
      <Button size="xs" variant="outline" color="red.8" onClick={() => setRejecting(true)}>
        {t('people.requests.reject')}
      </Button>
      <Modal opened={rejecting} onClose={() => setRejecting(false)} title={t('people.requests.reject')} centered>
        <Stack>
          <Textarea
            label={t('people.requests.reason')}
            withAsterisk
            autosize
            minRows={2}
            value={reason}
            onChange={(x) => {
              setReason(x.currentTarget.value);
              setError(null);
            }}
            error={error}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setRejecting(false)}>
              {t('common.cancel')}
            </Button>
            <Button
              color="red.8"
              loading={resolve.isPending}
              onClick={() => {
                if (!reason.trim()) setError(t('people.requests.reasonRequired'));
                else resolve.mutate('rejected');
              }}
            >
              {t('people.requests.reject')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Group>
  );
};

/** Managers' change requests as a table: the admins' queue (with answers) or a manager's own (with outcomes). */
export const ChangeRequestsTable = (props: { items: ChangeRequest[]; resolvable: boolean; showUser: boolean; userHref?: (userId: number) => string }) => {
  const { t } = useTranslation();
  if (props.items.length === 0) return <Text c="dimmed">{t('people.requests.empty')}</Text>;
  return (
    <Paper withBorder radius="md">
      <TableRegion label={t('people.requests.title')}>
        <Table striped data-testid="change-requests">
          <Table.Thead>
            <Table.Tr>
              {props.showUser ? <Table.Th>{t('people.requests.user')}</Table.Th> : null}
              <Table.Th>{t('people.requests.kind')}</Table.Th>
              <Table.Th>{t('people.requests.description')}</Table.Th>
              <Table.Th>{t('people.requests.requestedBy')}</Table.Th>
              <Table.Th>{t('people.requests.status.label')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {props.items.map((request) => (
              <Table.Tr key={request.id}>
                {props.showUser ? (
                  <Table.Td>
                    {props.userHref ? (
                      <Anchor component={Link} to={props.userHref(request.userId)}>
                        {request.userName}
                      </Anchor>
                    ) : (
                      request.userName
                    )}
                  </Table.Td>
                ) : null}
                <Table.Td>
                  {t(`people.requests.kinds.${request.kind}`)}
                  {request.unitName ? `: ${request.unitName}` : ''}
                </Table.Td>
                <Table.Td>
                  <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                    {request.description}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{request.requestedByName ?? ''}</Text>
                  <Text size="xs" c="dimmed">
                    {formatDateTime(request.requestedAt)}
                  </Text>
                </Table.Td>
                <Table.Td>
                  {request.status === 'open' && props.resolvable ? (
                    <ResolveButtons request={request} />
                  ) : (
                    <Stack gap={2}>
                      <ChangeRequestStatus request={request} />
                      {request.reason ? <Text size="xs">{request.reason}</Text> : null}
                    </Stack>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </TableRegion>
    </Paper>
  );
};
