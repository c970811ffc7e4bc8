import { Alert, Anchor, Badge, Button, Center, Code, Group, Loader, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ColumnHeads } from '../../../components/column-heads.tsx';
import { DateTimeField } from '../../../components/date-fields.tsx';
import { TableRegion } from '../../../components/table-region.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import {
  type ApprovalTrail,
  approvalTrailQuery,
  downloadApprovalTrail,
  searchAuditCourses,
  type TrailKind,
  type TrailVerification,
  type VerificationStatus,
} from '../api/approval-trail.ts';

// Signatures are read to the second: the trail shows seconds, in Ljubljana time whatever the browser's zone.
const when = new Intl.DateTimeFormat('sl-SI', { timeZone: 'Europe/Ljubljana', dateStyle: 'medium', timeStyle: 'medium' });
const showTime = (iso: string) => when.format(new Date(iso));

// Dark enough for small text and white badge labels on the striped rows (WCAG AA 4.5:1).
const STATUS_COLOR: Record<VerificationStatus, string> = {
  verified: '#1e6b34',
  mismatch: '#a61e1e',
  unapproved: '#8f4300',
  'not-published': '#495057',
  'no-course': '#495057',
};

const KIND_COLOR: Record<TrailKind, string> = {
  submitted: '#1c4f8a',
  signed: '#1e6b34',
  rejected: '#a61e1e',
  withdrawn: '#495057',
  granted: '#0b6b55',
  published: '#2f3f9e',
  unpublished: '#495057',
  'content-changed': '#7a2a8c',
  'settings-changed': '#8f4300',
};

const short = (hash: string | null) => (hash ? `${hash.slice(0, 12)}…` : '–');

/** The badge and the reason: does the published content equal the approved one, recomputed from the log? */
const Verification = ({ verification }: { verification: TrailVerification }) => {
  const { t } = useTranslation();
  const v = verification;
  return (
    <Paper withBorder p="md" data-testid="trail-verification">
      <Group gap="sm" mb="xs">
        <Text fw={600}>{t('approvalTrail.verification')}</Text>
        <Badge color={STATUS_COLOR[v.status]} size="lg" variant="filled" data-testid="verification-badge">
          {t(`approvalTrail.status.${v.status}`)}
        </Badge>
        {v.approvalCode ? <Badge variant="outline">{t('approvalTrail.code', { code: v.approvalCode })}</Badge> : null}
      </Group>
      <Text size="sm" data-testid="verification-reason">
        {v.reason}
      </Text>
      <Table mt="xs" withRowBorders={false} fz="xs">
        <Table.Tbody>
          {(
            [
              ['publishedHash', v.publishedHash],
              ['approvedHash', v.approvedHash],
              ['currentHash', v.currentHash],
            ] as const
          ).map(([key, hash]) => (
            <Table.Tr key={key}>
              <Table.Th scope="row" w={260}>
                {t(`approvalTrail.${key}`)}
              </Table.Th>
              <Table.Td>
                <Code style={{ wordBreak: 'break-all' }}>{hash ?? '–'}</Code>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Paper>
  );
};

const TrailTable = ({ trail }: { trail: ApprovalTrail }) => {
  const { t } = useTranslation();
  if (trail.rows.length === 0) return <Text c="dimmed">{t('approvalTrail.empty')}</Text>;
  const columns = (['at', 'kind', 'version', 'who', 'meaning', 'code', 'hash'] as const).map((key) => t(`approvalTrail.columns.${key}`));
  return (
    <TableRegion label={t('approvalTrail.trail')} minWidth={1000}>
      <Table striped verticalSpacing="xs" data-testid="trail-table">
        <ColumnHeads columns={columns} />
        <Table.Tbody>
          {trail.rows.map((row) => (
            // A settings row's revision is its own stream's, so the kind keeps the keys apart.
            <Table.Tr key={`${row.kind === 'settings-changed' ? 's' : 'c'}${row.revision}`} data-kind={row.kind}>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{showTime(row.at)}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                <Text size="sm" fw={600} c={KIND_COLOR[row.kind]}>
                  {t(`approvalTrail.kind.${row.kind}`)}
                </Text>
              </Table.Td>
              <Table.Td>
                {row.approvalVersion ?? '–'}
                {row.stepLabel ? (
                  <Text size="xs" c="dimmed">
                    {row.stepLabel}
                  </Text>
                ) : null}
              </Table.Td>
              <Table.Td>
                {row.who?.name ?? '–'}
                {row.method ? (
                  <Text size="xs" c="dimmed">
                    {t(`approvalTrail.method.${row.method}`, { defaultValue: row.method })}
                  </Text>
                ) : null}
              </Table.Td>
              <Table.Td>
                <Text size="sm">{row.meaning}</Text>
                {row.comment ? (
                  <Text size="xs" c="dimmed">
                    {t('approvalTrail.comment', { comment: row.comment })}
                  </Text>
                ) : null}
              </Table.Td>
              <Table.Td>{row.code ?? '–'}</Table.Td>
              <Table.Td>
                <Code title={row.contentHash ?? ''}>{short(row.contentHash)}</Code>
                {row.hashMatchesContent === false ? (
                  <Text size="xs" c="red">
                    {t('approvalTrail.hashDiffers')}
                  </Text>
                ) : null}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </TableRegion>
  );
};

const CourseTrail = ({
  courseId,
  asOf,
  setAsOf,
  focusState,
}: {
  courseId: number;
  asOf: string | null;
  setAsOf: (value: string | null) => void;
  /** The reader just picked a moment: this view is new (keyed by it), so the sentence saying which moment it shows takes the focus. */
  focusState: { current: boolean };
}) => {
  const { t } = useTranslation();
  const trail = useQuery(approvalTrailQuery(courseId, asOf));
  const stateLabel = useRef<HTMLParagraphElement | null>(null);
  useEffect(() => {
    if (!focusState.current || !trail.isSuccess) return;
    focusState.current = false;
    stateLabel.current?.focus();
  }, [focusState, trail.isSuccess]);
  const [chosenAsOf, setChosenAsOf] = useState<string | null>(asOf);
  // An export button is disabled while it loads and so loses the focus: it takes it back when done.
  const exportButtons = useRef<Record<'xlsx' | 'pdf', HTMLButtonElement | null>>({ xlsx: null, pdf: null });
  const download = useMutation({
    mutationFn: (format: 'xlsx' | 'pdf') => downloadApprovalTrail(courseId, format, asOf),
    onError: () => notifications.show({ color: 'red', message: t('approvalTrail.exportFailed') }),
    onSettled: (_r, _e, format) => setDone(format),
  });
  const [done, setDone] = useState<'xlsx' | 'pdf' | null>(null);
  useEffect(() => {
    if (done === null || download.isPending) return;
    exportButtons.current[done]?.focus();
    setDone(null);
  }, [done, download.isPending]);
  if (trail.isPending) {
    return (
      <Center py="xl">
        <Loader role="status" aria-label={t('common.loading')} />
      </Center>
    );
  }
  if (trail.isError) {
    const status = trail.error instanceof ApiError ? trail.error.status : 0;
    return (
      <Alert color="red">{status === 404 ? t('approvalTrail.notFound') : status === 403 ? t('approvalTrail.forbidden') : t('approvalTrail.loadFailed')}</Alert>
    );
  }
  const data = trail.data;
  const apply = (event: FormEvent) => {
    event.preventDefault();
    setAsOf(chosenAsOf);
  };
  return (
    <Stack gap="md">
      <Title order={2} size="h3">
        {data.course.title}{' '}
        <Text span c="dimmed" size="md">
          (ID {data.course.id})
        </Text>
      </Title>
      <Paper withBorder p="md">
        <form onSubmit={apply}>
          <Group align="flex-end">
            <DateTimeField label={t('approvalTrail.asOf')} value={chosenAsOf} onChange={setChosenAsOf} data-testid="trail-as-of" />
            <Button type="submit">{t('approvalTrail.showAsOf')}</Button>
            {asOf ? (
              <Button
                variant="subtle"
                onClick={() => {
                  setChosenAsOf(null);
                  setAsOf(null);
                }}
              >
                {t('approvalTrail.now')}
              </Button>
            ) : null}
          </Group>
        </form>
        <Text size="sm" c="dimmed" mt="xs" data-testid="trail-as-of-label" ref={stateLabel} tabIndex={-1}>
          {asOf ? t('approvalTrail.stateAsOf', { at: showTime(asOf) }) : t('approvalTrail.stateNow')}
        </Text>
      </Paper>
      <Verification verification={data.verification} />
      <Group>
        <Button
          variant="default"
          ref={(el) => {
            exportButtons.current.xlsx = el;
          }}
          onClick={() => download.mutate('xlsx')}
          loading={download.isPending && download.variables === 'xlsx'}
        >
          {t('approvalTrail.exportXlsx')}
        </Button>
        <Button
          variant="default"
          ref={(el) => {
            exportButtons.current.pdf = el;
          }}
          onClick={() => download.mutate('pdf')}
          loading={download.isPending && download.variables === 'pdf'}
        >
          {t('approvalTrail.exportPdf')}
        </Button>
      </Group>
      <Title order={3} size="h4">
        {t('approvalTrail.trail')}
      </Title>
      <TrailTable trail={data} />
    </Stack>
  );
};

/**
 * /revizija/odobritve (not in spec §2; issue 36 item 3, decision 0064): for auditors and admins
 * (1072). Find a course, read its approval trail as of any moment, see whether the published content
 * is the approved one, and export the trail. `?course=` and `?asOf=` keep the view in the address,
 * so the course's admin pages link here and a view can be shared.
 */
export const ApprovalTrailPage = ({ allowed }: { allowed: boolean }) => {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const [search, setSearch] = useState('');
  const [searchError, setSearchError] = useState<string | null>(null);
  const courseId = Number(params.get('course')) || null;
  const asOf = params.get('asOf');
  const found = useMutation({
    mutationFn: (text: string) => searchAuditCourses(text),
    onError: (e) => setSearchError(e instanceof ApiError && e.message ? e.message : t('approvalTrail.loadFailed')),
  });
  // Showing another moment replaces the view, and with it the control that had the focus (decision 0065: keyboard alone).
  const focusState = useRef(false);
  if (!allowed) return <Alert color="red">{t('approvalTrail.forbidden')}</Alert>;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (search.trim().length < 2) {
      setSearchError(t('approvalTrail.searchTooShort'));
      return;
    }
    setSearchError(null);
    found.mutate(search.trim());
  };
  const setAsOf = (value: string | null) => {
    focusState.current = true;
    setParams(value ? { course: String(courseId), asOf: value } : { course: String(courseId) });
  };
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('pages.approvalTrail')}
      </Title>
      <Text c="dimmed">{t('approvalTrail.intro')}</Text>
      <form onSubmit={submit}>
        <Group align="flex-start">
          <TextInput
            label={t('approvalTrail.search')}
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
            error={searchError}
            w={360}
            data-testid="trail-search"
          />
          <Button type="submit" mt={24} loading={found.isPending}>
            {t('approvalTrail.find')}
          </Button>
        </Group>
      </form>
      {found.data ? (
        found.data.items.length === 0 ? (
          <Text c="dimmed">{t('approvalTrail.noCourses')}</Text>
        ) : (
          <Stack gap={4}>
            {found.data.items.map((c) => (
              <Anchor key={c.id} component="button" type="button" ta="left" onClick={() => setParams({ course: String(c.id) })}>
                {c.title} (ID {c.id}
                {c.companyName ? `, ${c.companyName}` : ''}, {t(c.published ? 'approvalTrail.published' : 'approvalTrail.unpublished')})
              </Anchor>
            ))}
          </Stack>
        )
      ) : null}
      {courseId ? <CourseTrail key={`${courseId}-${asOf ?? ''}`} courseId={courseId} asOf={asOf} setAsOf={setAsOf} focusState={focusState} /> : null}
    </Stack>
  );
};
