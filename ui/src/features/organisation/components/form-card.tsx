import { Anchor, Button, Group, Paper, Stack, Title } from '@mantine/core';
import type { FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** The frame of an organisation form: title, back link, fields, submit. */
export const FormCard = (props: {
  title: string;
  backTo?: string;
  onSubmit: () => void;
  submitting: boolean;
  submitLabel: string;
  children: ReactNode;
  aside?: ReactNode;
}) => {
  const { t } = useTranslation();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    props.onSubmit();
  };
  return (
    <Stack gap="md">
      {props.backTo ? (
        <Anchor component={Link} to={props.backTo} size="sm">
          ← {t('form.back')}
        </Anchor>
      ) : null}
      <Title order={props.backTo ? 1 : 2} size={props.backTo ? 'h2' : 'h3'}>
        {props.title}
      </Title>
      <Paper withBorder radius="md" p="lg">
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            {props.children}
            <Group>
              <Button type="submit" loading={props.submitting}>
                {props.submitLabel}
              </Button>
            </Group>
          </Stack>
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
