import { Alert, Anchor, Center, Loader, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '../../../lib/i18n.ts';
import { approvalInboxQuery, type InboxItem } from '../api/approvals.ts';

const submitter = (item: InboxItem) => (typeof item.submittedBy === 'string' ? item.submittedBy : (item.submittedBy?.name ?? ''));

/**
 * /odobritve "Čaka na mojo odobritev" (issue 36 item 2): the course versions waiting for the
 * signed-in approver's signature, oldest first, each leading to its review.
 */
export const ApprovalInboxPage = () => {
  const { t } = useTranslation();
  const inbox = useQuery(approvalInboxQuery);
  const items = [...(inbox.data ?? [])].sort((a, b) => a.submittedAt.localeCompare(b.submittedAt));
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('pages.approvalInbox')}
      </Title>
      {inbox.isPending ? (
        <Center py="xl">
          <Loader role="status" aria-label={t('common.loading')} />
        </Center>
      ) : inbox.isError ? (
        <Alert color="red">{inbox.error.message || t('approvals.inbox.loadFailed')}</Alert>
      ) : items.length === 0 ? (
        <Text c="dimmed" data-testid="inbox-empty">
          {t('approvals.inbox.empty')}
        </Text>
      ) : (
        <Paper withBorder radius="md">
          <Table.ScrollContainer minWidth={360}>
            <Table verticalSpacing="sm" highlightOnHover data-testid="approval-inbox">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('approvals.inbox.course')}</Table.Th>
                  <Table.Th>{t('approvals.inbox.step')}</Table.Th>
                  <Table.Th>{t('approvals.inbox.submitted')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((item) => (
                  <Table.Tr key={`${item.courseId}-${item.approvalVersion}-${item.step}`} data-testid="inbox-row">
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>
                      <Anchor component={Link} to={`/odobritve/${item.courseId}/${item.approvalVersion}`}>
                        {item.title}
                      </Anchor>
                      <Text size="xs" c="dimmed">
                        {t('approvals.review.version', { version: item.approvalVersion })}
                      </Text>
                    </Table.Td>
                    <Table.Td>{item.stepLabel}</Table.Td>
                    <Table.Td>
                      <Text size="sm">{formatDateTime(item.submittedAt)}</Text>
                      <Text size="xs" c="dimmed">
                        {submitter(item)}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Paper>
      )}
    </Stack>
  );
};
