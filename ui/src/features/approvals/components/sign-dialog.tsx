import { Alert, Button, Code, Group, Modal, PasswordInput, Stack, Text, Textarea } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';
import { APPROVALS_KEY, type ApprovalDecision, signApproval } from '../api/approvals.ts';

/** The sentence that says what the signature means: the same one the API records as `meaning`. */
export const signatureMeaning = (decision: ApprovalDecision, stepLabel: string, title: string, approvalVersion: number) =>
  decision === 'approved'
    ? `Potrjujem, da sem v koraku »${stepLabel}« pregledal(a) vsebino izobraževanja »${title}« (različica ${approvalVersion}) in jo odobravam za objavo.`
    : `Potrjujem, da sem v koraku »${stepLabel}« pregledal(a) vsebino izobraževanja »${title}« (različica ${approvalVersion}) in je ne odobravam.`;

/**
 * The electronic signature of one step (issue 36 item 2): the approver says what they decide, may
 * comment (a rejection must say why), and enters their password again. The signature is bound to
 * the hash of the exact content they reviewed; the API refuses it when that is no longer the version
 * under approval. The dialog keeps the focus inside (Mantine's modal traps it) and gives it back on closing.
 */
export const SignDialog = (props: {
  opened: boolean;
  onClose: () => void;
  onSigned: (decision: ApprovalDecision) => void;
  courseId: number;
  title: string;
  approvalVersion: number;
  step: { key: string; label: string };
  contentHash: string;
  decision: ApprovalDecision;
}) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [comment, setComment] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ password?: string; comment?: string; general?: string }>({});
  const approve = props.decision === 'approved';
  const close = () => {
    setPassword('');
    setErrors({});
    props.onClose();
  };
  const sign = useMutation({
    mutationFn: () =>
      signApproval(props.courseId, {
        approvalVersion: props.approvalVersion,
        step: props.step.key,
        decision: props.decision,
        comment: comment.trim(),
        contentHash: props.contentHash,
        password,
      }),
    onSuccess: async () => {
      setPassword('');
      setComment('');
      setErrors({});
      await queryClient.invalidateQueries({ queryKey: APPROVALS_KEY });
      props.onSigned(props.decision);
    },
    onError: (error) => {
      setPassword('');
      const items = error instanceof ApiError ? error.errors : [];
      const passwordError = items.find((e) => e.field === 'password' || /geslo/i.test(e.message));
      if (passwordError) setErrors({ password: passwordError.message || t('approvals.sign.wrongPassword') });
      else if (error instanceof ApiError && error.status === 409) setErrors({ general: error.message || t('approvals.sign.stale') });
      else setErrors({ general: error.message || t('form.failed') });
      // The field the message is on takes the focus, so a screen reader reads it out.
      requestAnimationFrame(() => document.querySelector<HTMLElement>('[data-testid="sign-dialog"] [aria-invalid="true"]')?.focus());
    },
  });
  const submit = () => {
    const next: typeof errors = {};
    if (password === '') next.password = t('approvals.sign.passwordRequired');
    if (!approve && comment.trim() === '') next.comment = t('approvals.sign.reasonRequired');
    setErrors(next);
    if (Object.keys(next).length > 0) {
      requestAnimationFrame(() => document.querySelector<HTMLElement>('[data-testid="sign-dialog"] [aria-invalid="true"]')?.focus());
      return;
    }
    sign.mutate();
  };
  return (
    <Modal
      opened={props.opened}
      onClose={close}
      title={t(approve ? 'approvals.sign.approveTitle' : 'approvals.sign.rejectTitle', { step: props.step.label })}
      centered
      size="lg"
      trapFocus
      returnFocus
    >
      <form
        noValidate
        data-testid="sign-dialog"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Stack gap="md">
          <Alert color={approve ? 'teal' : 'red'} variant="light" title={t('approvals.sign.meaningTitle')}>
            <Stack gap={4}>
              <Text size="sm" data-testid="signature-meaning">
                {signatureMeaning(props.decision, props.step.label, props.title, props.approvalVersion)}
              </Text>
              <Text size="xs">
                {t('approvals.sign.bound')} <Code style={{ wordBreak: 'break-all' }}>{props.contentHash.slice(0, 16)}…</Code>
              </Text>
            </Stack>
          </Alert>
          <Textarea
            label={t(approve ? 'approvals.sign.comment' : 'approvals.sign.reason')}
            withAsterisk={!approve}
            // A fixed height: the autosizing textarea measures the window, which a modal's portal does not always have yet.
            rows={3}
            maxLength={2000}
            value={comment}
            onChange={(event) => {
              setComment(event.currentTarget.value);
              setErrors((e) => ({ ...e, comment: undefined }));
            }}
            error={errors.comment}
          />
          <PasswordInput
            label={t('approvals.sign.password')}
            description={t('approvals.sign.passwordHint')}
            withAsterisk
            autoComplete="current-password"
            data-autofocus
            value={password}
            onChange={(event) => {
              setPassword(event.currentTarget.value);
              setErrors((e) => ({ ...e, password: undefined }));
            }}
            error={errors.password}
          />
          {errors.general ? (
            <Alert color="red" role="alert">
              {errors.general}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" color={approve ? undefined : '#b02525'} loading={sign.isPending}>
              {t(approve ? 'approvals.sign.approve' : 'approvals.sign.reject')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
};
