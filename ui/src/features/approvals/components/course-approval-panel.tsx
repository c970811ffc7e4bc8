import { Alert, Anchor, Button, Group, Modal, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/i18n.ts';
import { APPROVALS_KEY, type CourseApproval, courseApprovalQuery, setCoursePublished, submitForApproval, withdrawFromApproval } from '../api/approvals.ts';
import { ApprovalStatusBadge, ApprovalSteps } from './approval-status.tsx';

/** What the panel says about the approval as it stands. */
export type PanelState =
  | { kind: 'notRequired' }
  | { kind: 'notSubmitted'; changed: boolean }
  | { kind: 'pending'; changed: boolean }
  | { kind: 'approved' }
  | { kind: 'rejected'; changed: boolean }
  | { kind: 'withdrawn'; changed: boolean };

/**
 * The approval's state for the author: approved only while the content is the approved one;
 * `changed` when the content differs from what was last approved or submitted (a new version that
 * needs approval again, a typo fix included).
 */
export const panelState = (a: CourseApproval): PanelState => {
  if (!a.required && !a.current && !a.lastApproved) return { kind: 'notRequired' };
  const changedSinceApproval = a.lastApproved !== null && !a.upToDate;
  const current = a.current;
  if (current && current.contentHash === a.contentHash) {
    if (current.status === 'approved') return { kind: 'approved' };
    return { kind: current.status, changed: changedSinceApproval };
  }
  if (a.upToDate && a.lastApproved) return { kind: 'approved' };
  // The version submitted is not the content as it is now: a new one must be submitted.
  return { kind: 'notSubmitted', changed: changedSinceApproval || current !== null };
};

/**
 * The approval panel on a course's general page (issue 36 item 2): the state of the approval (not
 * submitted, waiting with each step's state, approved with its code, rejected with the comment),
 * "Pošlji v odobritev" with an optional comment, "Umakni iz odobritve", and publishing, which the
 * API refuses with its own message while approval is missing. After a change of approved content
 * the panel says so: the new version needs approval again.
 */
export const CourseApprovalPanel = ({ courseId }: { courseId: number }) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  // The course's own query (the general page's): its title, whether it is published, and when it was saved last.
  const course = useQuery({
    queryKey: ['admin-courses', 'authored', courseId],
    queryFn: () => api<{ published: boolean; fields: { title: string } }>('GET', `/courses/${courseId}`),
  });
  const approval = useQuery(courseApprovalQuery(courseId));
  const [submitting, setSubmitting] = useState(false);
  const [comment, setComment] = useState('');
  const [refusal, setRefusal] = useState<string | null>(null);
  // A save of the course (its query read again) may have changed the content: the approval's state is read again too.
  const savedAt = course.dataUpdatedAt;
  // biome-ignore lint/correctness/useExhaustiveDependencies: read again after every new answer of the course.
  useEffect(() => {
    void queryClient.invalidateQueries({ queryKey: courseApprovalQuery(courseId).queryKey });
  }, [savedAt]);
  // A button that is loading is disabled, and a disabled button loses the focus: after each action the
  // focus goes where the answer is (the refusal, the panel's new state, the publish button's new label),
  // so a keyboard or screen reader user does not start again from the top of the page.
  const panelRef = useRef<HTMLElement | null>(null);
  const publishRef = useRef<HTMLButtonElement | null>(null);
  const refusalRef = useRef<HTMLDivElement | null>(null);
  const focusLater = (target: { current: HTMLElement | null }) => requestAnimationFrame(() => requestAnimationFrame(() => target.current?.focus()));
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: APPROVALS_KEY });
    await queryClient.invalidateQueries({ queryKey: ['admin-courses'] });
  };
  const failed = (error: Error) => notifications.show({ color: 'red', message: error.message || t('form.failed') });
  const submit = useMutation({
    mutationFn: (input: { contentHash: string; comment: string }) =>
      submitForApproval(courseId, { contentHash: input.contentHash, ...(input.comment ? { comment: input.comment } : {}) }),
    onSuccess: async () => {
      setSubmitting(false);
      setComment('');
      await refresh();
      notifications.show({ color: 'teal', message: t('approvals.panel.submitted') });
      focusLater(panelRef);
    },
    onError: failed,
  });
  const withdraw = useMutation({
    mutationFn: (approvalVersion: number) => withdrawFromApproval(courseId, { approvalVersion }),
    onSuccess: async () => {
      await refresh();
      notifications.show({ color: 'teal', message: t('approvals.panel.withdrawn') });
      focusLater(panelRef);
    },
    onError: failed,
  });
  const publish = useMutation({
    mutationFn: (published: boolean) => setCoursePublished(courseId, published),
    onSuccess: async (_r, published) => {
      setRefusal(null);
      await refresh();
      notifications.show({ color: 'teal', message: t(published ? 'adminCourses.done.publish' : 'adminCourses.done.unpublish') });
      focusLater(publishRef);
    },
    // The API's own message says what approval is missing; the focus goes to it.
    onError: (error) => {
      setRefusal(error.message || t('form.failed'));
      focusLater(refusalRef);
    },
  });

  if (!approval.data || !course.data) return null;
  const a = approval.data;
  const state = panelState(a);
  const published = course.data.published;
  const current = a.current;
  const pending = current?.status === 'pending' ? current : null;
  const status = state.kind === 'notRequired' ? null : state.kind === 'notSubmitted' ? 'none' : state.kind;
  const publishButton = (
    <Button
      ref={publishRef}
      variant={published ? 'default' : 'filled'}
      loading={publish.isPending}
      onClick={() => publish.mutate(!published)}
      data-testid="approval-publish"
    >
      {t(published ? 'adminCourses.unpublish' : 'adminCourses.publish')}
    </Button>
  );
  if (state.kind === 'notRequired')
    return (
      <Paper withBorder radius="md" p="md" data-testid="approval-panel" data-state="notRequired">
        <Group justify="space-between" gap="sm">
          <Text size="sm" c="dimmed">
            {t('approvals.panel.notRequired')}
          </Text>
          {publishButton}
        </Group>
        {refusal ? (
          <Alert color="red" mt="sm" role="alert" data-testid="publish-refused" ref={refusalRef} tabIndex={-1}>
            {refusal}
          </Alert>
        ) : null}
      </Paper>
    );
  const changed = 'changed' in state && state.changed;
  return (
    <Paper
      withBorder
      radius="md"
      p="lg"
      data-testid="approval-panel"
      data-state={state.kind}
      component="section"
      aria-labelledby="approval-panel-title"
      ref={panelRef}
      tabIndex={-1}
    >
      <Stack gap="sm">
        <Group justify="space-between" gap="sm">
          <Group gap="sm">
            <Title order={2} size="h4" id="approval-panel-title">
              {t('approvals.panel.title')}
            </Title>
            {status ? <ApprovalStatusBadge status={status} /> : null}
          </Group>
          {a.lastApproved && state.kind === 'approved' ? (
            <Text size="sm" data-testid="approval-code">
              {t('approvals.code')}: <strong>{a.lastApproved.code}</strong>
            </Text>
          ) : null}
        </Group>
        {changed ? (
          <Alert color="yellow" variant="light" data-testid="approval-changed">
            {t('approvals.panel.changed')}
          </Alert>
        ) : null}
        {state.kind === 'notSubmitted' && !changed ? (
          <Text size="sm" c="dimmed">
            {t('approvals.panel.notSubmitted')}
          </Text>
        ) : null}
        {state.kind === 'approved' && a.lastApproved ? (
          <Text size="sm">{t('approvals.panel.approvedAt', { at: formatDateTime(a.lastApproved.grantedAt) })}</Text>
        ) : null}
        {current && current.contentHash === a.contentHash && state.kind !== 'notSubmitted' ? (
          <Stack gap={4}>
            <Text size="sm" c="dimmed">
              {t('approvals.panel.version', {
                version: current.approvalVersion,
                name: current.submittedBy?.name ?? '–',
                at: formatDateTime(current.submittedAt),
              })}
            </Text>
            <ApprovalSteps steps={current.steps} />
          </Stack>
        ) : null}
        {refusal ? (
          <Alert color="red" role="alert" data-testid="publish-refused" ref={refusalRef} tabIndex={-1}>
            {refusal}
          </Alert>
        ) : null}
        <Group gap="sm">
          {pending ? (
            <Button variant="default" loading={withdraw.isPending} onClick={() => withdraw.mutate(pending.approvalVersion)}>
              {t('approvals.panel.withdraw')}
            </Button>
          ) : null}
          {pending?.steps.some((s) => s.mayISign) ? (
            <Anchor component={Link} to={`/odobritve/${courseId}/${pending.approvalVersion}`}>
              {t('approvals.panel.review')}
            </Anchor>
          ) : null}
          {state.kind === 'approved' || (pending && pending.contentHash === a.contentHash) ? null : (
            <Button onClick={() => setSubmitting(true)}>{t('approvals.panel.submit')}</Button>
          )}
          {publishButton}
        </Group>
      </Stack>
      <Modal opened={submitting} onClose={() => setSubmitting(false)} title={t('approvals.panel.submitTitle')} centered>
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            submit.mutate({ contentHash: a.contentHash, comment: comment.trim() });
          }}
        >
          <Stack gap="md">
            <Text size="sm">{t('approvals.panel.submitAbout', { steps: a.steps.map((s) => s.label).join(', ') })}</Text>
            <Textarea
              label={t('approvals.panel.submitComment')}
              rows={3}
              maxLength={2000}
              value={comment}
              onChange={(event) => setComment(event.currentTarget.value)}
              data-autofocus
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setSubmitting(false)}>
                {t('common.cancel')}
              </Button>
              <Button type="submit" loading={submit.isPending}>
                {t('approvals.panel.submit')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Paper>
  );
};
