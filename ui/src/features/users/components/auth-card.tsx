import { Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** The frame of the sign-in side's pages (registration, 2FA, password, e-mail): a titled card. */
export const AuthCard = ({ title, intro, children }: { title: string; intro?: ReactNode; children: ReactNode }) => (
  <Paper withBorder shadow="sm" radius="md" p="xl" maw={560} mx="auto">
    <Stack gap="lg">
      <div>
        <Title order={1} size="h2">
          {title}
        </Title>
        {intro ? (
          <Text c="dimmed" size="sm" mt={4}>
            {intro}
          </Text>
        ) : null}
      </div>
      {children}
    </Stack>
  </Paper>
);
