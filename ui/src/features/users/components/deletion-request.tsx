import { Alert, Paper, PasswordInput, Stack, Text, Textarea, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmButton } from '../../../components/confirm-button.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useFeature } from '../../../lib/features.ts';
import { formatDateTime } from '../../../lib/i18n.ts';
import { session } from '../../../lib/session.ts';
import type { CurrentUser } from '../api/me.ts';
import { deleteOwnAccount, requestDeletion } from '../api/profile.ts';

/**
 * With the delete-account feature of spec §1 on: the account is deleted at once, after the password
 * and a confirmation; the session ends and the person is back at the login page.
 */
const DeleteAccount = () => {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const remove = useMutation({
    mutationFn: () => deleteOwnAccount(password),
    onSuccess: () => {
      session.clear();
      window.location.assign('/prijava');
    },
    onError: (e) => setError(e instanceof ApiError && e.message ? e.message : t('identity.profile.saveFailed')),
  });
  return (
    <>
      <Text size="sm">{t('identity.profile.deleteAccountIntro')}</Text>
      <PasswordInput
        label={t('identity.profile.deleteAccountPassword')}
        value={password}
        error={error}
        onChange={(e) => {
          setPassword(e.currentTarget.value);
          setError(null);
        }}
      />
      <div>
        <ConfirmButton
          label={t('identity.profile.deleteAccount')}
          question={t('identity.profile.deleteAccountQuestion')}
          pending={remove.isPending}
          onConfirm={() => remove.mutateAsync().catch(() => undefined)}
        />
      </div>
    </>
  );
};

/**
 * A request to delete one's data (spec §8): recorded as an event, handled by an admin within
 * 5 working days. Once sent, the profile says when. With the delete-account feature on, the
 * account is deleted at once instead.
 */
export const DeletionRequest = ({ user, onChanged }: { user: CurrentUser; onChanged: () => Promise<unknown> }) => {
  const { t } = useTranslation();
  const immediate = useFeature('deleteAccount') === true;
  const [reason, setReason] = useState('');
  const send = useMutation({
    mutationFn: () => requestDeletion(reason),
    onSuccess: async (result) => {
      notifications.show({ color: 'teal', message: result.message });
      await onChanged();
    },
    onError: (error) =>
      notifications.show({ color: 'red', message: error instanceof ApiError && error.message ? error.message : t('identity.profile.saveFailed') }),
  });
  return (
    <Paper withBorder radius="md" p="lg">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('identity.profile.deletion')}
        </Title>
        {immediate ? (
          <DeleteAccount />
        ) : user.deletionRequestedAt ? (
          <Alert color="yellow" role="status">
            {t('identity.profile.deletionRequested', { at: formatDateTime(user.deletionRequestedAt) })}
          </Alert>
        ) : (
          <>
            <Text size="sm">{t('identity.profile.deletionIntro')}</Text>
            <Textarea
              label={t('identity.profile.deletionReason')}
              name="deletionReason"
              value={reason}
              maxLength={500}
              autosize
              minRows={2}
              onChange={(e) => setReason(e.currentTarget.value)}
            />
            <div>
              <ConfirmButton
                label={t('identity.profile.deletionRequest')}
                question={t('identity.profile.deletionQuestion')}
                pending={send.isPending}
                onConfirm={() => send.mutateAsync()}
              />
            </div>
          </>
        )}
      </Stack>
    </Paper>
  );
};
