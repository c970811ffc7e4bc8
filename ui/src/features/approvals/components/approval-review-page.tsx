import { Alert, Anchor, Button, Center, Group, Loader, Paper, Stack, Tabs, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '../../../lib/i18n.ts';
import { type ApprovalDecision, approvalContentQuery, courseApprovalQuery } from '../api/approvals.ts';
import { diffContent, snapshotFields } from '../lib/content-diff.ts';
import { ApprovalStatusBadge, ApprovalSteps } from './approval-status.tsx';
import { ContentDiffView } from './content-diff-view.tsx';
import { ContentPreview } from './content-preview.tsx';
import { SignDialog } from './sign-dialog.tsx';

type Signing = { step: { key: string; label: string; meaningToSign?: { approved: string; rejected: string } | null }; decision: ApprovalDecision };

/**
 * /odobritve/{courseId}/{version} (issue 36 item 2): an approver reviews the version submitted, as
 * participants will see it and as it differs from the last approved one, and signs the steps that
 * name them: approve or reject with a comment, after entering their password again.
 */
export const ApprovalReviewPage = ({ courseId, approvalVersion }: { courseId: number; approvalVersion: number }) => {
  const { t } = useTranslation();
  const approval = useQuery(courseApprovalQuery(courseId));
  const content = useQuery(approvalContentQuery(courseId, approvalVersion));
  const previousVersion = approval.data?.lastApproved?.approvalVersion ?? null;
  const comparable = previousVersion !== null && previousVersion !== approvalVersion ? previousVersion : null;
  const previous = useQuery({ ...approvalContentQuery(courseId, comparable ?? 0), enabled: comparable !== null });
  const [signing, setSigning] = useState<Signing | null>(null);
  // The dialog is unmounted on closing, which leaves Mantine nothing to return the focus from: the
  // button that opened it takes it back (Escape, Prekliči), or, once signed (that button is gone),
  // the summary, which now shows the step signed, so a keyboard or screen reader user hears it.
  const opener = useRef<HTMLElement | null>(null);
  const summary = useRef<HTMLElement | null>(null);
  const open = (next: Signing) => {
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setSigning(next);
  };
  const refocus = (target: HTMLElement | null) => requestAnimationFrame(() => (target?.isConnected ? target : summary.current)?.focus());
  const diff = useMemo(
    () => (content.data ? diffContent(comparable !== null ? (previous.data ?? null) : null, content.data) : null),
    [content.data, previous.data, comparable],
  );
  if (approval.isPending || content.isPending)
    return (
      <Center py="xl">
        <Loader role="status" aria-label={t('common.loading')} />
      </Center>
    );
  if (approval.isError || content.isError || !approval.data || !content.data)
    return (
      <Stack gap="md">
        <Title order={1} size="h2">
          {t('approvals.review.heading')}
        </Title>
        <Alert color="red" data-testid="review-error">
          {(approval.error ?? content.error)?.message || t('approvals.review.loadFailed')}
        </Alert>
      </Stack>
    );
  const a = approval.data;
  const current = a.current && a.current.approvalVersion === approvalVersion ? a.current : null;
  const title = String(snapshotFields(content.data).title ?? '');
  // Only a step whose sentence the API gave: the dialog shows what the signature will record, nothing it made up.
  const mine = current?.status === 'pending' ? current.steps.filter((s) => s.mayISign && s.decision === null && s.meaningToSign) : [];
  return (
    <Stack gap="md">
      <Anchor component={Link} to="/odobritve" size="sm">
        ← {t('approvals.review.back')}
      </Anchor>
      <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
        {t('approvals.review.title', { title })}
      </Title>
      <Paper
        withBorder
        radius="md"
        p="lg"
        data-testid="review-summary"
        component="section"
        ref={summary}
        tabIndex={-1}
        aria-label={t('approvals.review.state', { version: approvalVersion })}
      >
        <Stack gap="sm">
          <Group gap="sm">
            <Text>{t('approvals.review.version', { version: approvalVersion })}</Text>
            {current ? <ApprovalStatusBadge status={current.status} /> : <ApprovalStatusBadge status="withdrawn" />}
          </Group>
          {current ? (
            <>
              <Text size="sm" c="dimmed">
                {t('approvals.review.submitted', { name: current.submittedBy?.name ?? '–', at: formatDateTime(current.submittedAt) })}
              </Text>
              {current.comment ? (
                <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
                  {t('approvals.review.authorComment')}: {current.comment}
                </Text>
              ) : null}
              <ApprovalSteps steps={current.steps} />
            </>
          ) : (
            <Alert color="yellow">{t('approvals.review.notCurrent')}</Alert>
          )}
          {mine.length > 0 ? (
            <Stack gap="xs">
              {mine.map((step) => (
                <Group key={step.key} gap="sm" data-testid="my-step" data-step={step.key}>
                  <Text fw={600} size="sm" miw={160}>
                    {step.label}
                  </Text>
                  <Button onClick={() => open({ step, decision: 'approved' })} aria-label={t('approvals.review.approveStep', { step: step.label })}>
                    {t('approvals.sign.approve')}
                  </Button>
                  <Button
                    variant="outline"
                    color="#b02525"
                    onClick={() => open({ step, decision: 'rejected' })}
                    aria-label={t('approvals.review.rejectStep', { step: step.label })}
                  >
                    {t('approvals.sign.reject')}
                  </Button>
                </Group>
              ))}
            </Stack>
          ) : current?.status === 'pending' ? (
            <Text size="sm" c="dimmed" data-testid="nothing-to-sign">
              {t('approvals.review.nothingToSign')}
            </Text>
          ) : null}
        </Stack>
      </Paper>
      <Tabs defaultValue={comparable !== null ? 'diff' : 'content'} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="content">{t('approvals.review.content')}</Tabs.Tab>
          <Tabs.Tab value="diff">{comparable !== null ? t('approvals.review.diff', { version: comparable }) : t('approvals.review.diffFirst')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="content" pt="md">
          <ContentPreview snapshot={content.data} courseId={courseId} approvalVersion={approvalVersion} />
        </Tabs.Panel>
        <Tabs.Panel value="diff" pt="md">
          {comparable !== null && previous.isPending ? (
            <Loader role="status" aria-label={t('common.loading')} />
          ) : diff ? (
            <ContentDiffView diff={diff} firstVersion={comparable === null} />
          ) : null}
        </Tabs.Panel>
      </Tabs>
      {signing && current ? (
        <SignDialog
          opened
          onClose={() => {
            setSigning(null);
            refocus(opener.current);
          }}
          onSigned={(decision) => {
            setSigning(null);
            refocus(null);
            notifications.show({ color: 'teal', message: t(decision === 'approved' ? 'approvals.sign.approvedDone' : 'approvals.sign.rejectedDone') });
          }}
          courseId={courseId}
          title={title}
          approvalVersion={approvalVersion}
          step={signing.step}
          contentHash={current.contentHash}
          decision={signing.decision}
          meaning={signing.step.meaningToSign?.[signing.decision] ?? ''}
          signing={a.signing ?? null}
        />
      ) : null}
    </Stack>
  );
};
