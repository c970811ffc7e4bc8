import { Alert, Button, Center, Group, Loader, Modal, Paper, Spoiler, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TableRegion } from '../../../components/table-region.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/i18n.ts';
import { useMinimumDelay } from '../../../lib/use-minimum-delay.ts';
import { type ConsentText, giveConsents, myConsentsQuery, type Standing, withdrawConsent } from '../api/consents.ts';
import { ConsentBadge } from './consent-badge.tsx';

const StatusBadge = ({ standing, text }: { standing: Standing | undefined; text: ConsentText }) => (
  <ConsentBadge state={standing?.given ? (standing.textVersion === text.version ? 'given' : 'outdated') : standing ? 'withdrawn' : 'none'} />
);

/**
 * /profil/pogoji: where each consent stands, give or withdraw it, and the user's own history.
 * Withdrawing a required consent asks first: without it the platform stays closed until it is given again.
 */
export const ProfileConsentsPage = ({ onChanged }: { onChanged: () => Promise<unknown> }) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const consents = useQuery(myConsentsQuery);
  const [confirming, setConfirming] = useState<ConsentText | null>(null);
  const done = async () => {
    await queryClient.invalidateQueries({ queryKey: ['consents'] });
    await onChanged();
  };
  const failed = (e: unknown) => notifications.show({ color: 'red', message: e instanceof ApiError && e.message ? e.message : t('consents.saveFailed') });
  const give = useMutation({
    mutationFn: (text: ConsentText) => giveConsents([{ type: text.type, textVersion: text.version }]),
    onSuccess: async () => {
      await done();
      notifications.show({ color: 'green', message: t('consents.givenToast') });
    },
    onError: failed,
  });
  const withdraw = useMutation({
    mutationFn: (text: ConsentText) => withdrawConsent(text.type),
    onSuccess: async () => {
      setConfirming(null);
      await done();
      notifications.show({ color: 'green', message: t('consents.withdrawnToast') });
    },
    onError: failed,
  });
  const loading = useMinimumDelay(consents.isPending);
  if (loading) {
    return (
      <Center py="xl">
        <Loader role="status" aria-label={t('common.loading')} />
      </Center>
    );
  }
  if (consents.isError || !consents.data) return <Alert color="red">{t('consents.loadFailed')}</Alert>;
  const { texts, standings, history } = consents.data;
  return (
    <Stack gap="md" maw={900}>
      <Title order={1} size="h2">
        {t('pages.profileConsents')}
      </Title>
      {texts.map((text) => {
        const standing = standings.find((s) => s.type === text.type);
        const current = standing?.given && standing.textVersion === text.version;
        return (
          <Paper key={text.type} withBorder p="md" radius="md" data-testid={`profile-consent-${text.type}`}>
            <Stack gap="xs">
              <Group justify="space-between">
                <Title order={2} size="h4">
                  {text.title}
                </Title>
                <StatusBadge standing={standing} text={text} />
              </Group>
              {standing?.at ? (
                <Text size="sm" c="dimmed">
                  {standing.given
                    ? t('consents.givenAt', { at: formatDateTime(standing.at), version: standing.textVersion })
                    : t('consents.withdrawnAt', { at: formatDateTime(standing.at) })}
                </Text>
              ) : null}
              <Spoiler maxHeight={44} showLabel={t('consents.showText')} hideLabel={t('consents.hideText')}>
                <Text size="sm">{text.text}</Text>
              </Spoiler>
              <Group>
                {current ? (
                  <Button variant="default" color="red" onClick={() => setConfirming(text)}>
                    {t('consents.withdraw')}
                  </Button>
                ) : (
                  <Button onClick={() => give.mutate(text)} loading={give.isPending && give.variables?.type === text.type}>
                    {t('consents.give')}
                  </Button>
                )}
              </Group>
            </Stack>
          </Paper>
        );
      })}
      <Title order={2} size="h3">
        {t('consents.history')}
      </Title>
      {history.length === 0 ? (
        <Text c="dimmed">{t('consents.noHistory')}</Text>
      ) : (
        <TableRegion label={t('consents.history')} minWidth={560}>
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('consents.columns.at')}</Table.Th>
                <Table.Th>{t('consents.columns.action')}</Table.Th>
                <Table.Th>{t('consents.columns.consent')}</Table.Th>
                <Table.Th>{t('consents.columns.channel')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {[...history].reverse().map((row) => (
                <Table.Tr key={row.sequence}>
                  <Table.Td>{formatDateTime(row.at)}</Table.Td>
                  <Table.Td>{t(`consents.action.${row.action}`)}</Table.Td>
                  <Table.Td>{row.title}</Table.Td>
                  <Table.Td>{t(`consents.channel.${row.channel}`, { defaultValue: row.channel })}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </TableRegion>
      )}
      <Modal opened={confirming !== null} onClose={() => setConfirming(null)} title={t('consents.withdrawTitle')} centered>
        <Stack>
          <Text>{t('consents.withdrawConfirm', { title: confirming?.title ?? '' })}</Text>
          {confirming?.required ? (
            <Alert color="yellow" role="alert">
              {t('consents.withdrawRequiredWarning')}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(null)}>
              {t('common.cancel')}
            </Button>
            <Button color="red" onClick={() => confirming && withdraw.mutate(confirming)} loading={withdraw.isPending}>
              {t('consents.withdraw')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
};
