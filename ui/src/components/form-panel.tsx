import { Button, Group, Paper, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A form in a panel of its page, under a section heading, ending in its submit button (a new export,
 * a new course report); unlike FormCard it is not the page's record and has no back link.
 */
export const FormPanel = ({
  title,
  onSubmit,
  submitLabel,
  submitting,
  children,
}: {
  title: string;
  onSubmit: () => void;
  submitLabel: string;
  submitting: boolean;
  children: ReactNode;
}) => (
  <Paper withBorder radius="md" p="lg">
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <Stack gap="md">
        <Title order={2} size="h4">
          {title}
        </Title>
        {children}
        <Group>
          <Button type="submit" loading={submitting}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  </Paper>
);
