import { Alert, Button, Center, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { DateTimeField } from '../../../components/date-fields.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/i18n.ts';
import type { StatsWindow } from '../api/stats.ts';

/** `?asOf=` of the page: figures as they stood then (null: now). */
export const useAsOf = () => {
  const [params, setParams] = useSearchParams();
  const asOf = params.get('asOf');
  const setAsOf = (value: string | null) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      if (value) next.set('asOf', value);
      else next.delete('asOf');
      return next;
    });
  return [asOf, setAsOf] as const;
};

/** The "as of" control every statistics page has (issue 7 §6). */
export const AsOfControl = () => {
  const { t } = useTranslation();
  const [asOf, setAsOf] = useAsOf();
  const [chosen, setChosen] = useState<string | null>(asOf);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setAsOf(chosen);
  };
  return (
    <form onSubmit={submit}>
      <Group align="flex-end">
        <DateTimeField label={t('stats.asOf')} value={chosen} onChange={setChosen} data-testid="stats-as-of" />
        <Button type="submit" variant="default">
          {t('stats.showAsOf')}
        </Button>
        {asOf ? (
          <Button
            variant="subtle"
            onClick={() => {
              setChosen(null);
              setAsOf(null);
            }}
          >
            {t('stats.now')}
          </Button>
        ) : null}
      </Group>
    </form>
  );
};

/** Title, the window shown, the "as of" control, and loading or error states around a statistics page. */
export const StatsFrame = ({
  title,
  subtitle,
  window,
  query,
  children,
}: {
  title: string;
  subtitle?: string | undefined;
  window: StatsWindow | undefined;
  query: { isPending: boolean; isError: boolean; error: unknown };
  children: ReactNode;
}) => {
  const { t } = useTranslation();
  const [asOf] = useAsOf();
  const forbidden = query.error instanceof ApiError && query.error.status === 403;
  const missing = query.error instanceof ApiError && query.error.status === 404;
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {title}
      </Title>
      {subtitle ? <Text c="dimmed">{subtitle}</Text> : null}
      {/* Issue 18: a refused or missing page offers no filters for figures it will never show. */}
      {forbidden || missing ? null : (
        <Group justify="space-between" align="flex-end">
          <Text size="sm" c="dimmed" data-testid="stats-window">
            {window
              ? `${window.intervalId === 0 ? t('stats.allTime') : t('stats.interval', { from: formatDateTime(window.from), to: formatDateTime(window.to) })} · ${
                  asOf ? t('stats.asOfShown', { at: formatDateTime(window.asOf) }) : t('stats.live')
                }`
              : ''}
          </Text>
          <AsOfControl />
        </Group>
      )}
      {query.isPending ? (
        <Center py="xl">
          <Loader role="status" aria-label={t('common.loading')} />
        </Center>
      ) : query.isError ? (
        <Alert color="red">{forbidden ? t('stats.forbidden') : missing ? t('stats.notFound') : t('stats.loadFailed')}</Alert>
      ) : (
        children
      )}
    </Stack>
  );
};

/** A headline figure; `hint` says what it counts where that is not plain (a count of today's people among figures of the past). */
export const Figure = ({ label, value, color, testId, hint }: { label: string; value: string; color?: string; testId?: string; hint?: string }) => (
  <Paper withBorder p="md" miw={150}>
    <Text size="sm" c="dimmed">
      {label}
    </Text>
    <Text fw={700} fz={28} c={color} data-testid={testId}>
      {value}
    </Text>
    {hint ? (
      <Text size="xs" c="dimmed" maw={260}>
        {hint}
      </Text>
    ) : null}
  </Paper>
);
