import { Alert, Button, Code, Group, Modal, PasswordInput, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';
import { APPROVALS_KEY, type ApprovalDecision, requestSignatureCode, type SigningNeeds, signApproval } from '../api/approvals.ts';

type Errors = { password?: string; comment?: string; secondFactorCode?: string; general?: string };

/**
 * The electronic signature of one step (issue 36 item 2): the approver says what they decide, may
 * comment (a rejection must say why), and enters their password again, and the code mailed to them
 * where they have the second factor on. The sentence shown is the API's own (meaningToSign): the
 * signature records exactly it (decision 0063). The signature is bound to the hash of the exact
 * content they reviewed; the API refuses it when that is no longer the version under approval. A
 * social-only account without a password is told to set one first. The dialog keeps the focus
 * inside (Mantine's modal traps it) and gives it back on closing.
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
  /** The sentence this signature means, as the API gave it for this step and decision (meaningToSign). */
  meaning: string;
  /** What signing asks of the caller (the approval's `signing`); null: a password only. */
  signing?: SigningNeeds | null;
}) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [comment, setComment] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [challenge, setChallenge] = useState<string | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const approve = props.decision === 'approved';
  const secondFactor = props.signing?.secondFactor === true;
  const noPassword = props.signing?.passwordSet === false;
  const focusInvalid = () => requestAnimationFrame(() => document.querySelector<HTMLElement>('[data-testid="sign-dialog"] [aria-invalid="true"]')?.focus());
  // The code's field, where the next keystroke goes once a code is sent (the button, disabled while it sends, lost the focus).
  const codeField = useRef<HTMLInputElement | null>(null);
  const close = () => {
    setPassword('');
    setCode('');
    setErrors({});
    props.onClose();
  };
  const sendCode = useMutation({
    mutationFn: () => requestSignatureCode(props.courseId),
    onSuccess: (answer) => {
      setChallenge(answer.challengeId);
      setCode('');
      setErrors((e) => ({ ...e, secondFactorCode: undefined, general: undefined }));
      requestAnimationFrame(() => codeField.current?.focus());
    },
    onError: (error) => setErrors((e) => ({ ...e, general: error.message || t('form.failed') })),
  });
  const sign = useMutation({
    mutationFn: () =>
      signApproval(props.courseId, {
        approvalVersion: props.approvalVersion,
        step: props.step.key,
        decision: props.decision,
        comment: comment.trim(),
        contentHash: props.contentHash,
        password,
        ...(secondFactor && challenge ? { secondFactorChallenge: challenge, secondFactorCode: code.trim() } : {}),
      }),
    onSuccess: async () => {
      setPassword('');
      setComment('');
      setErrors({});
      await queryClient.invalidateQueries({ queryKey: APPROVALS_KEY });
      props.onSigned(props.decision);
    },
    onError: (error) => {
      const items = error instanceof ApiError ? error.errors : [];
      const codeError = items.find((e) => e.field === 'secondFactorCode');
      const passwordError = items.find((e) => e.field === 'password' || /geslo/i.test(e.message));
      // The API checks the code only after the password: a refused code leaves the right password in
      // its field, so the signer types the code again and nothing else. Any other refusal clears it.
      if (!codeError || passwordError) setPassword('');
      if (codeError && !passwordError) {
        // A wrong code may be tried again (up to five times); a spent or expired one needs a new mail.
        setCode('');
        setErrors({ secondFactorCode: codeError.message });
      } else if (passwordError) setErrors({ password: passwordError.message || t('approvals.sign.wrongPassword') });
      else if (error instanceof ApiError && error.status === 409) setErrors({ general: error.message || t('approvals.sign.stale') });
      else setErrors({ general: error.message || t('form.failed') });
      // The field the message is on takes the focus, so a screen reader reads it out.
      focusInvalid();
    },
  });
  const submit = () => {
    const next: Errors = {};
    if (password === '') next.password = t('approvals.sign.passwordRequired');
    if (!approve && comment.trim() === '') next.comment = t('approvals.sign.reasonRequired');
    if (secondFactor && (!challenge || !/^\d{6}$/.test(code.trim())))
      next.secondFactorCode = t(challenge ? 'approvals.sign.codeRequired' : 'approvals.sign.sendCodeFirst');
    setErrors(next);
    if (Object.keys(next).length > 0) {
      focusInvalid();
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
                {props.meaning}
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
          {noPassword ? (
            <Alert color="yellow" role="alert" data-testid="sign-no-password">
              {t('approvals.sign.noPassword')}
            </Alert>
          ) : null}
          <PasswordInput
            label={t('approvals.sign.password')}
            description={t('approvals.sign.passwordHint')}
            withAsterisk
            autoComplete="current-password"
            data-autofocus
            disabled={noPassword}
            value={password}
            onChange={(event) => {
              setPassword(event.currentTarget.value);
              setErrors((e) => ({ ...e, password: undefined }));
            }}
            error={errors.password}
          />
          {secondFactor ? (
            <Stack gap={6} data-testid="sign-second-factor">
              <Group align="flex-end" gap="sm" wrap="wrap">
                <TextInput
                  label={t('approvals.sign.code')}
                  description={t(challenge ? 'approvals.sign.codeSent' : 'approvals.sign.codeHint')}
                  withAsterisk
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  maxLength={6}
                  value={code}
                  onChange={(event) => {
                    setCode(event.currentTarget.value);
                    setErrors((e) => ({ ...e, secondFactorCode: undefined }));
                  }}
                  error={errors.secondFactorCode}
                  ref={codeField}
                  style={{ flex: '1 1 180px' }}
                />
                <Button variant="default" onClick={() => sendCode.mutate()} loading={sendCode.isPending}>
                  {t(challenge ? 'approvals.sign.resendCode' : 'approvals.sign.sendCode')}
                </Button>
              </Group>
            </Stack>
          ) : null}
          {errors.general ? (
            <Alert color="red" role="alert">
              {errors.general}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" color={approve ? undefined : '#b02525'} loading={sign.isPending} disabled={noPassword}>
              {t(approve ? 'approvals.sign.approve' : 'approvals.sign.reject')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
};
