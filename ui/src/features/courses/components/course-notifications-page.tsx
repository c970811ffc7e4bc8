import { Anchor, Badge, Button, Center, Group, Loader, Modal, Paper, Stack, Table, Text, Textarea, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { courseNotificationRule } from '../../../../../domain/courses/course.rules.ts';
import { FormCard } from '../../../components/form-card.tsx';
import { TableRegion } from '../../../components/table-region.tsx';
import { formatDateTime } from '../../../lib/i18n.ts';
import { useZodForm } from '../../../lib/use-zod-form.ts';
import { getAuthoredCourse, listCourseNotifications, sendCourseNotification } from '../api/admin-courses.ts';
import { type Audience, countAudience } from '../api/course-audience.ts';

/** A course's audience when it names nobody: the course rule's empty choice. */
const NOBODY: Audience = { byProfession: false, professionIds: [], unitIds: [], companyIds: [], groupIds: [] };

/**
 * /admin/courses/{id}/notifications (spec §2, issue 16 item 3): a notification to the course's
 * audience by e-mail, at least 10 minutes after the last (the server says so otherwise, spec §8);
 * what the course sends by itself (a new-course notice, reminders on its schedule, never at night);
 * and the history of every notification: how many were sent, failed, and skipped and why (no
 * consent to be contacted, a new-course notice in the last 5 days, an inactive account).
 * A manual one goes only after a dialog says to how many people (issue 33 item 8: one click sent it).
 */
export const CourseNotificationsPage = ({ id }: { id: number }) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const course = useQuery({ queryKey: ['admin-courses', 'authored', id], queryFn: () => getAuthoredCourse(id) });
  // Delivery runs in the background: the counts are read again every few seconds while the page is open.
  const history = useQuery({ queryKey: ['admin-courses', 'notifications', id], queryFn: () => listCourseNotifications(id), refetchInterval: 4000 });
  const form = useZodForm(courseNotificationRule, { subject: '', message: '' });
  // The notification waiting for the author's yes; null while no dialog is open.
  const [confirming, setConfirming] = useState<{ subject: string; message: string } | null>(null);
  const fieldsNow = course.data?.fields;
  const recipients = useQuery({
    queryKey: ['course-audience', 'notification', id],
    queryFn: () => countAudience(Boolean(fieldsNow?.public), { ...NOBODY, ...(fieldsNow?.audience ?? {}) } as Audience),
    enabled: confirming !== null && fieldsNow !== undefined,
    retry: false,
  });
  const send = useMutation({
    mutationFn: (input: { subject: string; message: string }) => sendCourseNotification(id, input),
    onSuccess: async () => {
      setConfirming(null);
      form.reset({ subject: '', message: '' });
      notifications.show({ color: 'teal', message: t('courseNotifications.sent') });
      await queryClient.invalidateQueries({ queryKey: ['admin-courses', 'notifications', id] });
    },
    onError: (error) => {
      setConfirming(null);
      const message = form.serverErrors(error);
      if (message) notifications.show({ color: 'red', message });
    },
  });
  if (course.isPending)
    return (
      <Center py="xl">
        <Loader role="status" aria-label={t('common.loading')} />
      </Center>
    );
  if (!course.data) return <Text>{t('form.notFound')}</Text>;
  const fields = course.data.fields;
  const reminder = fields.reminder ?? null;
  const reasons = (skippedFor: Record<string, number>) =>
    Object.entries(skippedFor)
      .map(([reason, n]) => `${t(`courseNotifications.reasons.${reason}`, { defaultValue: reason })}: ${n}`)
      .join(', ');
  return (
    <Stack gap="md">
      <FormCard
        title={t('courseNotifications.title', { course: fields.title })}
        backTo="/admin/courses"
        submitting={send.isPending}
        submitLabel={t('courseNotifications.send')}
        onSubmit={() => {
          const input = form.validate();
          if (input) setConfirming(input);
        }}
      >
        <Text size="sm" c="dimmed">
          {t('courseNotifications.intro')}
        </Text>
        <TextInput
          label={t('courseNotifications.subject')}
          withAsterisk
          value={form.values.subject}
          onChange={(x) => form.set('subject', x.currentTarget.value)}
          error={form.errors.subject}
        />
        <Textarea
          label={t('courseNotifications.message')}
          withAsterisk
          autosize
          minRows={4}
          value={form.values.message}
          onChange={(x) => form.set('message', x.currentTarget.value)}
          error={form.errors.message}
        />
      </FormCard>
      <Modal opened={confirming !== null} onClose={() => setConfirming(null)} title={t('courseNotifications.confirmTitle')} centered>
        <Stack>
          <Text data-testid="notification-confirm">
            {recipients.isPending && recipients.fetchStatus !== 'idle'
              ? t('courseNotifications.confirmCounting')
              : recipients.data === undefined
                ? t('courseNotifications.confirmQuestionUnknown', { subject: confirming?.subject })
                : t('courseNotifications.confirmQuestion', { subject: confirming?.subject, count: recipients.data })}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(null)}>
              {t('common.cancel')}
            </Button>
            <Button loading={send.isPending} onClick={() => confirming && send.mutate(confirming)}>
              {t('courseNotifications.confirmSend')}
            </Button>
          </Group>
        </Stack>
      </Modal>
      <Paper withBorder radius="md" p="lg">
        <Stack gap="xs">
          <Title order={2} size="h4">
            {t('courseNotifications.automatic')}
          </Title>
          <Text size="sm" data-testid="automatic-notifications">
            {fields.notificationsEnabled
              ? reminder
                ? t('courseNotifications.onWithReminder', {
                    every: t('adminCourses.form.weeks', { count: reminder.everyWeeks }),
                    days: (reminder.days ?? []).map((d) => t(`adminCourses.form.day${d}`)).join(', '),
                  })
                : t('courseNotifications.onWithoutReminder')
              : t('courseNotifications.off')}{' '}
            <Anchor component={Link} to={`/admin/courses/${id}/general`}>
              {t('courseNotifications.change')}
            </Anchor>
          </Text>
          <Text size="xs" c="dimmed">
            {t('courseNotifications.quietHours')}
          </Text>
        </Stack>
      </Paper>
      <Paper withBorder radius="md" p="lg">
        <Stack gap="xs">
          <Title order={2} size="h4">
            {t('courseNotifications.history')}
          </Title>
          {history.data && history.data.length === 0 ? <Text c="dimmed">{t('courseNotifications.none')}</Text> : null}
          {history.data && history.data.length > 0 ? (
            <TableRegion label={t('courseNotifications.history')} minWidth={760}>
              <Table striped aria-label={t('courseNotifications.history')}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('courseNotifications.when')}</Table.Th>
                    <Table.Th>{t('courseNotifications.kind')}</Table.Th>
                    <Table.Th>{t('courseNotifications.subject')}</Table.Th>
                    <Table.Th ta="right">{t('courseNotifications.sentCount')}</Table.Th>
                    <Table.Th ta="right">{t('courseNotifications.failedCount')}</Table.Th>
                    <Table.Th>{t('courseNotifications.skippedCount')}</Table.Th>
                    <Table.Th>{t('courseNotifications.pushCount')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {history.data.map((n) => (
                    <Table.Tr key={n.id} data-testid="notification-row">
                      <Table.Td>
                        {formatDateTime(n.requestedAt)}
                        {n.requestedBy ? (
                          <Text size="xs" c="dimmed">
                            {n.requestedBy}
                          </Text>
                        ) : null}
                      </Table.Td>
                      <Table.Td>
                        <Badge variant="default">{t(`courseNotifications.kinds.${n.kind}`)}</Badge>
                      </Table.Td>
                      <Table.Td>{n.subject}</Table.Td>
                      <Table.Td ta="right" data-testid="notification-sent">
                        {n.sent}
                      </Table.Td>
                      <Table.Td ta="right">{n.failed}</Table.Td>
                      <Table.Td data-testid="notification-skipped">
                        {n.skipped}
                        {n.skipped > 0 ? ` (${reasons(n.skippedFor)})` : ''}
                      </Table.Td>
                      <Table.Td data-testid="notification-push">
                        {t('courseNotifications.pushCounts', n.push)}
                        {n.push.skipped > 0 ? ` (${reasons(n.push.skippedFor)})` : ''}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </TableRegion>
          ) : null}
        </Stack>
      </Paper>
    </Stack>
  );
};
