import { Badge, List, Text, ThemeIcon } from '@mantine/core';
import { IconCircleCheck, IconCircleDashed, IconCircleX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/i18n.ts';
import type { ApprovalStatus, ApprovalStepState } from '../api/approvals.ts';

// Outline badges in dark shades: readable on white (WCAG AA), as the course list's.
export const STATUS_COLOUR: Readonly<Record<ApprovalStatus | 'none', string>> = {
  none: '#495057',
  pending: '#1864ab',
  approved: '#1b6e2f',
  rejected: '#c92a2a',
  withdrawn: '#495057',
};

export const ApprovalStatusBadge = ({ status }: { status: ApprovalStatus | 'none' }) => {
  const { t } = useTranslation();
  return (
    <Badge variant="outline" color={STATUS_COLOUR[status]} data-testid="approval-status" data-status={status}>
      {t(`approvals.status.${status}`)}
    </Badge>
  );
};

/** Each step of a version under approval: who signed it, when, how and with what comment; or that it still waits. */
export const ApprovalSteps = ({ steps }: { steps: readonly ApprovalStepState[] }) => {
  const { t } = useTranslation();
  return (
    <List spacing="xs" listStyleType="none" data-testid="approval-steps-state">
      {steps.map((step) => (
        <List.Item
          key={step.key}
          data-step={step.key}
          data-decision={step.decision ?? 'waiting'}
          icon={
            <ThemeIcon variant="white" size={22} color={step.decision === 'approved' ? '#1b6e2f' : step.decision === 'rejected' ? 'red.9' : 'gray.7'}>
              {step.decision === 'approved' ? (
                <IconCircleCheck aria-hidden />
              ) : step.decision === 'rejected' ? (
                <IconCircleX aria-hidden />
              ) : (
                <IconCircleDashed aria-hidden />
              )}
            </ThemeIcon>
          }
        >
          <Text size="sm">
            <strong>{step.label}</strong>: {t(`approvals.decision.${step.decision ?? 'waiting'}`)}
            {step.signerName ? ` · ${step.signerName}` : ''}
            {step.signedAt ? ` · ${formatDateTime(step.signedAt)}` : ''}
          </Text>
          {step.comment ? (
            <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
              {t('approvals.comment')}: {step.comment}
            </Text>
          ) : null}
        </List.Item>
      ))}
    </List>
  );
};
