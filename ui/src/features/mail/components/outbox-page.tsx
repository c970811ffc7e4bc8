import { Alert, Anchor, Badge, Button, Center, Loader, Modal, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BorderedTable } from '../../../components/bordered-table.tsx';
import { ColumnHeads } from '../../../components/column-heads.tsx';
import { TableRegion } from '../../../components/table-region.tsx';
import { formatDateTime } from '../../../lib/i18n.ts';
import { type OutboxMessage, readMail } from '../api/mail.ts';

const URL_PATTERN = /(https?:\/\/[^\s<>"]+)/g;

/** The plain-text part with its links clickable: the demo completes registration and resets from here. */
const MailText = ({ text }: { text: string }) => {
  // Each piece is keyed by where it starts in the text: stable, and unique within the message.
  let offset = 0;
  const pieces = text.split(URL_PATTERN).map((part, index) => {
    const piece = { part, link: index % 2 === 1, at: offset };
    offset += part.length;
    return piece;
  });
  return (
    <Text component="pre" size="sm" style={{ whiteSpace: 'pre-wrap', fontFamily: 'inherit' }}>
      {pieces.map((piece) =>
        piece.link ? (
          <Anchor key={piece.at} href={piece.part}>
            {piece.part}
          </Anchor>
        ) : (
          <Fragment key={piece.at}>{piece.part}</Fragment>
        ),
      )}
    </Text>
  );
};

// Outline in dark shades: readable on white (WCAG AA), like the consent badges.
const STATUS_COLOUR = { sent: '#1b6e2f', failed: 'red.9', skipped: 'gray.7' } as const;

/**
 * The admin's mail page (decision 0017): without SMTP_URL the platform keeps its mail in a local
 * outbox, readable here with working links, so the two-command demo can complete a registration or
 * a password reset; below, the delivery log (sent, failed with the relay's answer, skipped).
 */
export const OutboxPage = () => {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const [open, setOpen] = useState<OutboxMessage | null>(null);
  const mail = useQuery({ queryKey: ['mail', debounced], queryFn: () => readMail(debounced), refetchInterval: 5000 });
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('identity.outbox.title')}
      </Title>
      <Text c="dimmed" size="sm">
        {mail.data?.smtp ? t('identity.outbox.smtp') : t('identity.outbox.intro')}
      </Text>
      <TextInput
        leftSection={<IconSearch size={16} aria-hidden />}
        placeholder={t('identity.outbox.search')}
        aria-label={t('identity.outbox.search')}
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        maw={360}
      />
      {mail.isPending ? (
        <Center py="xl">
          <Loader role="status" aria-label={t('common.loading')} />
        </Center>
      ) : mail.isError || !mail.data ? (
        <Alert color="red">{t('identity.outbox.loadFailed')}</Alert>
      ) : (
        <>
          {mail.data.smtp ? null : (
            <Paper withBorder radius="md">
              {mail.data.outbox.length === 0 ? (
                <Text p="md" c="dimmed">
                  {t('identity.outbox.empty')}
                </Text>
              ) : (
                <TableRegion label={t('identity.outbox.title')}>
                  <Table striped highlightOnHover data-testid="outbox">
                    <ColumnHeads columns={[...(['at', 'to', 'subject'] as const).map((key) => t(`identity.outbox.${key}`)), '']} />
                    <Table.Tbody>
                      {mail.data.outbox.map((message) => (
                        <Table.Tr key={message.id}>
                          <Table.Td>{formatDateTime(message.createdAt)}</Table.Td>
                          <Table.Td>{message.to}</Table.Td>
                          <Table.Td>{message.subject}</Table.Td>
                          <Table.Td>
                            <Button size="xs" variant="light" onClick={() => setOpen(message)}>
                              {t('identity.outbox.open')}
                            </Button>
                          </Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </TableRegion>
              )}
            </Paper>
          )}
          <Title order={2} size="h4">
            {t('identity.outbox.log')}
          </Title>
          {mail.data.log.length === 0 ? <Text c="dimmed">{t('identity.outbox.logEmpty')}</Text> : null}
          <BorderedTable label={t('identity.outbox.log')} hidden={mail.data.log.length === 0} data-testid="mail-log">
            <ColumnHeads columns={(['at', 'to', 'kind', 'state'] as const).map((key) => t(`identity.outbox.${key}`))} />
            <Table.Tbody>
              {mail.data.log.map((entry) => (
                <Table.Tr key={entry.id}>
                  <Table.Td>{formatDateTime(entry.updatedAt)}</Table.Td>
                  <Table.Td>{entry.recipient}</Table.Td>
                  <Table.Td>{t(`identity.outbox.kinds.${entry.kind}`, { defaultValue: entry.kind })}</Table.Td>
                  <Table.Td>
                    <Badge color={STATUS_COLOUR[entry.status]} variant="outline">
                      {t(`identity.outbox.status.${entry.status}`)}
                    </Badge>
                    {entry.lastError ? (
                      <Text size="xs" c="dimmed">
                        {entry.lastError}
                      </Text>
                    ) : null}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </BorderedTable>
        </>
      )}
      <Modal opened={open !== null} onClose={() => setOpen(null)} title={open?.subject} size="lg">
        {open ? (
          <Stack gap="xs">
            <Text size="sm" c="dimmed">
              {t('identity.outbox.to')}: {open.to} · {formatDateTime(open.createdAt)}
            </Text>
            <MailText text={open.text} />
          </Stack>
        ) : null}
      </Modal>
    </Stack>
  );
};
