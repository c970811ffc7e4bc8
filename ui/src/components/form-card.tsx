import { Anchor, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ConfirmButton } from './confirm-button.tsx';

/** Focuses the first field of the form marked invalid; whether there was one. */
const focusFirstError = (form: HTMLFormElement | null) => {
  const field = form?.querySelector<HTMLElement>('[aria-invalid="true"]');
  field?.focus();
  return Boolean(field);
};

/** The frame of an admin form: title, back link, fields, submit. */
export const FormCard = (props: {
  title: string;
  backTo?: string;
  /** The back link's text when it does not lead to a list. */
  backLabel?: string;
  onSubmit: () => void;
  submitting: boolean;
  submitLabel: string;
  children: ReactNode;
  aside?: ReactNode;
  /** Beside the submit button: e.g. deleting the record. */
  actions?: ReactNode;
  /**
   * Shown to someone who may read the record but not change it (issue 18): the fields are disabled,
   * and neither the submit button nor the actions are offered, so nobody is refused only on submit.
   */
  readOnly?: boolean;
}) => {
  const { t } = useTranslation();
  const form = useRef<HTMLFormElement>(null);
  const awaitingResult = useRef(false);
  // Issue 33 item 5: after a submit the focus goes to the result when it is on the form: the first field
  // the check (here, or the server's) found wrong, whose message it then reads out. A success moves on
  // (a notification, or a new page whose heading takes the focus).
  const submit = (event: FormEvent) => {
    event.preventDefault();
    props.onSubmit();
    awaitingResult.current = true;
    requestAnimationFrame(() => {
      if (focusFirstError(form.current)) awaitingResult.current = false;
    });
  };
  useEffect(() => {
    if (props.submitting || !awaitingResult.current) return;
    awaitingResult.current = false;
    requestAnimationFrame(() => focusFirstError(form.current));
  }, [props.submitting]);
  return (
    <Stack gap="md">
      {props.backTo ? (
        <Anchor component={Link} to={props.backTo} size="sm">
          ← {props.backLabel ?? t('form.back')}
        </Anchor>
      ) : null}
      <Title order={props.backTo ? 1 : 2} size={props.backTo ? 'h2' : 'h3'}>
        {props.title}
      </Title>
      <Paper withBorder radius="md" p="lg">
        <form ref={form} onSubmit={submit} noValidate>
          <fieldset disabled={props.readOnly} style={{ border: 0, margin: 0, padding: 0, minWidth: 0 }}>
            <Stack gap="md">
              {props.readOnly ? (
                <Text size="sm" c="dimmed" data-testid="read-only">
                  {t('form.readOnly')}
                </Text>
              ) : null}
              {props.children}
              {props.readOnly ? null : (
                <Group>
                  <Button type="submit" loading={props.submitting}>
                    {props.submitLabel}
                  </Button>
                  {props.actions}
                </Group>
              )}
            </Stack>
          </fieldset>
        </form>
      </Paper>
      {props.aside}
    </Stack>
  );
};

export const ListHeader = (props: { title: string; newTo?: string; newLabel?: string; children?: ReactNode }) => {
  const { t } = useTranslation();
  return (
    <Group justify="space-between" mb="md">
      <Title order={1} size="h2">
        {props.title}
      </Title>
      <Group>
        {props.children}
        {props.newTo ? (
          <Button component={Link} to={props.newTo}>
            {props.newLabel ?? t('form.new')}
          </Button>
        ) : null}
      </Group>
    </Group>
  );
};

/** Deletes the record after a confirmation, then returns to its list; a refusal (e.g. the unit still has people) is shown as the server words it. */
export const DeleteAction = (props: { question: string; remove: () => Promise<unknown>; invalidate: string[]; backTo: string }) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const remove = useMutation({
    mutationFn: props.remove,
    onSuccess: async () => {
      for (const key of props.invalidate) await queryClient.invalidateQueries({ queryKey: [key] });
      notifications.show({ color: 'teal', message: t('form.deleted') });
      navigate(props.backTo);
    },
    onError: (error) => notifications.show({ color: 'red', message: error.message || t('form.deleteFailed') }),
  });
  return (
    <ConfirmButton
      label={t('form.delete')}
      question={props.question}
      pending={remove.isPending}
      onConfirm={() => remove.mutateAsync().catch(() => undefined)}
    />
  );
};
