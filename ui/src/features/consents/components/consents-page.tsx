import { Alert, Button, Center, Checkbox, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '../../../lib/api-client.ts';
import { safeLocalPath } from '../../../lib/safe-path.ts';
import { useMinimumDelay } from '../../../lib/use-minimum-delay.ts';
import { giveConsents, myConsentsQuery } from '../api/consents.ts';

/** Where to go afterwards: a path of this site, and not back to this page. */
const safeRedirect = (value: string | null) => {
  const path = safeLocalPath(value);
  return path.startsWith('/pogoji') ? '/' : path;
};

/**
 * /pogoji: the required consents (spec §5 types 1 to 4) with their full texts. The user ticks each;
 * nothing is sent until every required one is ticked. Afterwards the user goes where they were
 * going (`redirect`), with the profile reloaded so the guard lets them through.
 */
export const ConsentsPage = ({ onGiven }: { onGiven: () => Promise<unknown> }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const queryClient = useQueryClient();
  const consents = useQuery(myConsentsQuery);
  const [ticked, setTicked] = useState<Set<number>>(new Set());
  const [error, setError] = useState<string | null>(null);
  const held = new Set(
    (consents.data?.standings ?? [])
      .filter((s) => s.given && consents.data?.texts.some((x) => x.type === s.type && x.version === s.textVersion))
      .map((s) => s.type),
  );
  const give = useMutation({
    mutationFn: (types: number[]) =>
      giveConsents((consents.data?.texts ?? []).filter((x) => types.includes(x.type)).map((x) => ({ type: x.type, textVersion: x.version }))),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['consents'] });
      await onGiven();
      await navigate(safeRedirect(params.get('redirect')), { replace: true });
    },
    onError: (e) => setError(e instanceof ApiError && e.message ? e.message : t('consents.saveFailed')),
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
  const texts = consents.data.texts;
  const isTicked = (type: number) => held.has(type) || ticked.has(type);
  const toggle = (type: number, on: boolean) =>
    setTicked((current) => {
      const next = new Set(current);
      if (on) next.add(type);
      else next.delete(type);
      return next;
    });
  const submit = () => {
    const missing = texts.filter((x) => x.required && !isTicked(x.type));
    if (missing.length > 0) {
      setError(t('consents.allRequired'));
      return;
    }
    setError(null);
    const toGive = texts.filter((x) => !held.has(x.type) && ticked.has(x.type)).map((x) => x.type);
    if (toGive.length === 0) {
      void onGiven().then(() => navigate(safeRedirect(params.get('redirect')), { replace: true }));
      return;
    }
    give.mutate(toGive);
  };
  return (
    <Stack maw={760} mx="auto" w="100%" gap="md">
      <Title order={1} size="h2">
        {t('pages.consents')}
      </Title>
      <Text>{t('consents.intro')}</Text>
      {texts.map((x) => (
        <Paper key={x.type} withBorder p="md" radius="md">
          <Stack gap="xs">
            <Title order={2} size="h4">
              {x.title}
              {x.required ? (
                <Text span c="dimmed" size="sm" ml="xs">
                  ({t('consents.required')})
                </Text>
              ) : null}
            </Title>
            <Text size="sm">{x.text}</Text>
            <Text size="xs" c="dimmed">
              {t('consents.textVersion', { version: x.version })}
            </Text>
            <Checkbox
              label={held.has(x.type) ? t('consents.alreadyGiven') : t('consents.agree')}
              checked={isTicked(x.type)}
              disabled={held.has(x.type)}
              onChange={(event) => toggle(x.type, event.currentTarget.checked)}
              data-testid={`consent-${x.type}`}
            />
          </Stack>
        </Paper>
      ))}
      {error ? (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      ) : null}
      <Group>
        <Button variant="default" onClick={() => setTicked(new Set(texts.map((x) => x.type)))}>
          {t('consents.tickAll')}
        </Button>
        <Button onClick={submit} loading={give.isPending}>
          {t('consents.confirm')}
        </Button>
      </Group>
    </Stack>
  );
};
