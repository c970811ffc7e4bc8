import { Alert, Button, Group, Paper, SegmentedControl, Select, Stack, Textarea, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CONSENT_TEXTS, onBehalfRule } from '../../../../../domain/consents/consent.rules.ts';
import { useZodForm } from '../../../lib/use-zod-form.ts';
import { recordConsentOnBehalf } from '../api/consents.ts';

/**
 * An admin records a consent given or withdrawn outside the platform (on paper, by phone) for the
 * user, with a note saying why and on what basis; the entry shows in the history as theirs.
 */
export const OnBehalfForm = ({ userId }: { userId: number }) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const form = useZodForm(onBehalfRule, { action: 'give', type: 1, note: '' });
  const [message, setMessage] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (entry: { action: 'give' | 'withdraw'; type: number; note: string }) => recordConsentOnBehalf(userId, entry),
    onSuccess: async () => {
      form.reset({ action: 'give', type: 1, note: '' });
      setMessage(null);
      await queryClient.invalidateQueries({ queryKey: ['consents', 'audit', userId] });
      notifications.show({ color: 'green', message: t('audit.onBehalf.saved') });
    },
    onError: (error) => setMessage(form.serverErrors(error) ?? (error instanceof Error ? error.message : null)),
  });
  return (
    <Paper withBorder p="md">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          const entry = form.validate();
          if (entry) save.mutate(entry);
        }}
      >
        <Stack gap="sm">
          <Title order={3} size="h4">
            {t('audit.onBehalf.title')}
          </Title>
          <SegmentedControl
            value={form.values.action}
            onChange={(value) => form.set('action', value as 'give' | 'withdraw')}
            data={[
              { value: 'give', label: t('audit.onBehalf.give') },
              { value: 'withdraw', label: t('audit.onBehalf.withdraw') },
            ]}
            aria-label={t('audit.onBehalf.action')}
          />
          <Select
            label={t('consents.columns.consent')}
            data={CONSENT_TEXTS.map((x) => ({ value: String(x.type), label: x.title }))}
            value={String(form.values.type)}
            onChange={(value) => form.set('type', Number(value ?? 1))}
            allowDeselect={false}
            error={form.errors.type}
          />
          <Textarea
            label={t('audit.onBehalf.note')}
            description={t('audit.onBehalf.noteHint')}
            value={form.values.note}
            onChange={(event) => form.set('note', event.currentTarget.value)}
            error={form.errors.note}
            autosize
            minRows={2}
            required
          />
          {message ? (
            <Alert color="red" role="alert">
              {message}
            </Alert>
          ) : null}
          <Group>
            <Button type="submit" loading={save.isPending}>
              {t('audit.onBehalf.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
};
