import { Button, Group, Paper, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadFile } from '../../../lib/download.ts';

/**
 * Everything the platform holds about a person, as JSON or a readable PDF (issue 14 item 7): on the
 * profile for oneself, on the admin's user page for a person's request.
 */
export const PersonalDataExport = ({ userId }: { userId: number | 'me' }) => {
  const { t } = useTranslation();
  const [pending, setPending] = useState<'json' | 'pdf' | null>(null);
  const download = async (format: 'json' | 'pdf') => {
    setPending(format);
    try {
      await downloadFile(`/api/users/${userId}/personal-data${format === 'pdf' ? '.pdf' : ''}`, `osebni-podatki.${format}`);
    } catch {
      notifications.show({ color: 'red', message: t('people.dataExport.failed') });
    } finally {
      setPending(null);
    }
  };
  return (
    <Paper withBorder radius="md" p="lg">
      <Title order={2} size="h4" mb="xs">
        {t('people.dataExport.title')}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {t(userId === 'me' ? 'people.dataExport.ownIntro' : 'people.dataExport.adminIntro')}
      </Text>
      <Group>
        <Button variant="default" loading={pending === 'pdf'} onClick={() => void download('pdf')}>
          {t('people.dataExport.pdf')}
        </Button>
        <Button variant="default" loading={pending === 'json'} onClick={() => void download('json')}>
          {t('people.dataExport.json')}
        </Button>
      </Group>
    </Paper>
  );
};
