import { Alert, Anchor, Button, Center, Code, Group, Loader, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ColumnHeads } from '../../../components/column-heads.tsx';
import { DateTimeField } from '../../../components/date-fields.tsx';
import { TableRegion } from '../../../components/table-region.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/i18n.ts';
import { type AuditHistory, auditHistoryQuery, downloadConsentHistory, searchAuditUsers, type Verification, verifyConsentChain } from '../api/consents.ts';
import { ConsentBadge } from './consent-badge.tsx';
import { OnBehalfForm } from './on-behalf-form.tsx';

const VerificationAlert = ({ verification }: { verification: Verification }) => {
  const { t } = useTranslation();
  return verification.valid ? (
    <Alert color="green" title={t('audit.chainValidTitle')} data-testid="chain-result">
      {t('audit.chainValid', { count: verification.checked })}
    </Alert>
  ) : (
    <Alert color="red" title={t('audit.chainBrokenTitle')} role="alert" data-testid="chain-result">
      {verification.broken?.message}
    </Alert>
  );
};

const UserHistory = ({
  userId,
  asOf,
  setAsOf,
  canRecord,
}: {
  userId: number;
  asOf: string | null;
  setAsOf: (value: string | null) => void;
  canRecord: boolean;
}) => {
  const { t } = useTranslation();
  const history = useQuery(auditHistoryQuery(userId, asOf));
  // A check made on the data shown; a reload (e.g. after an entry on the user's behalf) brings its own.
  const [checked, setChecked] = useState<{ result: Verification; for: number } | null>(null);
  const [chosenAsOf, setChosenAsOf] = useState<string | null>(asOf);
  const verify = useMutation({
    mutationFn: () => verifyConsentChain(userId),
    onSuccess: (result) => setChecked({ result, for: history.dataUpdatedAt }),
  });
  const download = useMutation({
    mutationFn: (format: 'xlsx' | 'pdf') => downloadConsentHistory(userId, format, asOf),
    onError: () => notifications.show({ color: 'red', message: t('audit.exportFailed') }),
  });
  if (history.isPending) {
    return (
      <Center py="xl">
        <Loader role="status" aria-label={t('common.loading')} />
      </Center>
    );
  }
  if (history.isError) {
    const notFound = history.error instanceof ApiError && history.error.status === 404;
    return <Alert color="red">{notFound ? t('audit.userNotFound') : t('audit.loadFailed')}</Alert>;
  }
  const data: AuditHistory = history.data;
  const applyAsOf = (event: FormEvent) => {
    event.preventDefault();
    setAsOf(chosenAsOf);
  };
  return (
    <Stack gap="md">
      <Title order={2} size="h3">
        {data.user.fullName}{' '}
        <Text span c="dimmed" size="md">
          ({data.user.username}, {data.user.email})
        </Text>
      </Title>
      <VerificationAlert verification={checked?.for === history.dataUpdatedAt ? checked.result : data.verification} />
      <Group>
        <Button variant="default" onClick={() => verify.mutate()} loading={verify.isPending}>
          {t('audit.verify')}
        </Button>
        <Button variant="default" onClick={() => download.mutate('xlsx')} loading={download.isPending && download.variables === 'xlsx'}>
          {t('audit.exportXlsx')}
        </Button>
        <Button variant="default" onClick={() => download.mutate('pdf')} loading={download.isPending && download.variables === 'pdf'}>
          {t('audit.exportPdf')}
        </Button>
      </Group>
      <Paper withBorder p="md">
        <form onSubmit={applyAsOf}>
          <Group align="flex-end">
            <DateTimeField label={t('audit.asOf')} value={chosenAsOf} onChange={setChosenAsOf} data-testid="as-of" />
            <Button type="submit">{t('audit.showAsOf')}</Button>
            {asOf ? (
              <Button
                variant="subtle"
                onClick={() => {
                  setChosenAsOf(null);
                  setAsOf(null);
                }}
              >
                {t('audit.now')}
              </Button>
            ) : null}
          </Group>
        </form>
        <Title order={3} size="h4" mt="md">
          {asOf ? t('audit.standingAsOf', { at: formatDateTime(asOf) }) : t('audit.standingNow')}
        </Title>
        <TableRegion label={asOf ? t('audit.standingAsOf', { at: formatDateTime(asOf) }) : t('audit.standingNow')}>
          <Table mt="xs" data-testid="standing">
            <ColumnHeads columns={[t('consents.columns.consent'), t('audit.state'), t('audit.since'), t('audit.textVersion')]} />
            <Table.Tbody>
              {data.standing.map((s) => (
                <Table.Tr key={s.type} data-testid={`standing-${s.type}`}>
                  <Table.Td>{s.title}</Table.Td>
                  <Table.Td>
                    <ConsentBadge state={s.at === null ? 'none' : s.given ? 'given' : 'withdrawn'} />
                  </Table.Td>
                  <Table.Td>{s.at ? formatDateTime(s.at) : '–'}</Table.Td>
                  <Table.Td>{s.textVersion ?? '–'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </TableRegion>
      </Paper>
      {canRecord ? <OnBehalfForm userId={userId} /> : null}
      <Title order={3} size="h4">
        {t('audit.timeline')}
      </Title>
      {data.timeline.length === 0 ? (
        <Text c="dimmed">{t('consents.noHistory')}</Text>
      ) : (
        <TableRegion label={t('audit.timeline')} minWidth={900}>
          <Table striped data-testid="timeline">
            <ColumnHeads
              columns={[
                '#',
                ...(['at', 'action', 'consent', 'channel'] as const).map((key) => t(`consents.columns.${key}`)),
                ...(['origin', 'recordedBy', 'hash'] as const).map((key) => t(`audit.${key}`)),
              ]}
            />
            <Table.Tbody>
              {data.timeline.map((row) => (
                <Table.Tr key={row.sequence}>
                  <Table.Td>{row.sequence + 1}</Table.Td>
                  <Table.Td>{formatDateTime(row.at)}</Table.Td>
                  <Table.Td>{t(`consents.action.${row.action}`)}</Table.Td>
                  <Table.Td>
                    {row.title} ({row.textVersion})
                  </Table.Td>
                  <Table.Td>{t(`consents.channel.${row.channel}`, { defaultValue: row.channel })}</Table.Td>
                  <Table.Td>
                    <Text size="xs">{row.ip ?? '–'}</Text>
                    <Text size="xs" c="dimmed" lineClamp={1} title={row.userAgent ?? ''}>
                      {row.userAgent ?? ''}
                    </Text>
                  </Table.Td>
                  <Table.Td>{row.recordedBy ? `${row.recordedBy.name}: ${row.note ?? ''}` : '–'}</Table.Td>
                  <Table.Td>
                    <Code title={row.hash}>{row.hash.slice(0, 12)}…</Code>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </TableRegion>
      )}
    </Stack>
  );
};

/**
 * /revizija/privolitve (not in spec §2; issue 6, decision 0013): for admins and auditors (1070).
 * Find a user, read their consent timeline, see where each consent stood at any instant, verify the
 * hash chain and export it. `?user=` and `?asOf=` keep the view in the address, so it can be shared.
 */
export const ConsentAuditPage = ({ allowed, canRecord }: { allowed: boolean; canRecord: boolean }) => {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const [search, setSearch] = useState('');
  const [searchError, setSearchError] = useState<string | null>(null);
  const userId = Number(params.get('user')) || null;
  const asOf = params.get('asOf');
  const found = useMutation({
    mutationFn: (text: string) => searchAuditUsers(text),
    onError: (e) => setSearchError(e instanceof ApiError && e.message ? e.message : t('audit.loadFailed')),
  });
  if (!allowed) return <Alert color="red">{t('audit.forbidden')}</Alert>;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (search.trim().length < 2) {
      setSearchError(t('audit.searchTooShort'));
      return;
    }
    setSearchError(null);
    found.mutate(search.trim());
  };
  const select = (id: number) => setParams({ user: String(id) });
  const setAsOf = (value: string | null) => setParams(value ? { user: String(userId), asOf: value } : { user: String(userId) });
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('pages.consentAudit')}
      </Title>
      <Text c="dimmed">{t('audit.intro')}</Text>
      <form onSubmit={submit}>
        <Group align="flex-start">
          <TextInput
            label={t('audit.search')}
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
            error={searchError}
            w={360}
            data-testid="audit-search"
          />
          <Button type="submit" mt={24} loading={found.isPending}>
            {t('audit.find')}
          </Button>
        </Group>
      </form>
      {found.data ? (
        found.data.items.length === 0 ? (
          <Text c="dimmed">{t('audit.noUsers')}</Text>
        ) : (
          <Stack gap={4}>
            {found.data.items.map((u) => (
              <Anchor key={u.id} component="button" type="button" onClick={() => select(u.id)} ta="left">
                {u.fullName} ({u.username}, {u.email})
              </Anchor>
            ))}
          </Stack>
        )
      ) : null}
      {userId ? <UserHistory key={`${userId}-${asOf ?? ''}`} userId={userId} asOf={asOf} setAsOf={setAsOf} canRecord={canRecord} /> : null}
    </Stack>
  );
};
