import { Button, FileButton, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload, IconFileSpreadsheet } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { IMPORT_COLUMNS, IMPORT_MAX_BYTES, IMPORT_MESSAGES } from '../../../../../domain/imports/user-import.rules.ts';
import { downloadTemplate, uploadImport } from '../api/imports.ts';
import { ImportHistory } from './import-history.tsx';
import { ImportPanel } from './import-panel.tsx';

/**
 * /admin/imports (issue 17 item 1, decision 0025): users (with their company and unit) from an xlsx
 * or xls. The file is prechecked on upload: every row and column, every problem of spec §8, and
 * the import stays blocked until a corrected file is uploaded. A clean file is imported as a
 * background job whose progress the page polls; the result lists what was created, updated and
 * skipped. The same file imported again creates nobody twice.
 */
export const ImportsPage = () => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const selected = Number(params.get('uvoz')) || null;
  const open = (id: number) => setParams({ uvoz: String(id) });
  const upload = useMutation({
    mutationFn: uploadImport,
    onSuccess: async (result) => {
      await queryClient.invalidateQueries({ queryKey: ['imports'] });
      open(result.id);
    },
    onError: (error) => notifications.show({ color: 'red', message: error.message || IMPORT_MESSAGES.precheckFailed }),
  });
  const template = useMutation({
    mutationFn: downloadTemplate,
    onError: () => notifications.show({ color: 'red', message: t('imports.templateFailed') }),
  });
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('imports.title')}
      </Title>
      <Paper withBorder radius="md" p="lg">
        <Stack gap="sm">
          <Text size="sm">{t('imports.intro')}</Text>
          <Text size="sm" c="dimmed">
            {t('imports.columns', {
              required: IMPORT_COLUMNS.filter((c) => c.required)
                .map((c) => c.header)
                .join(', '),
              optional: IMPORT_COLUMNS.filter((c) => !c.required)
                .map((c) => c.header)
                .join(', '),
            })}
          </Text>
          <Text size="sm" c="dimmed">
            {t('imports.roles')}
          </Text>
          <Group>
            <FileButton
              accept=".xlsx,.xls,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,application/vnd.ms-excel"
              onChange={(file) => {
                if (!file) return;
                if (file.size > IMPORT_MAX_BYTES) notifications.show({ color: 'red', message: IMPORT_MESSAGES.tooLarge });
                else upload.mutate(file);
              }}
            >
              {(button) => (
                <Button {...button} leftSection={<IconFileSpreadsheet size={18} aria-hidden />} loading={upload.isPending}>
                  {t('imports.upload')}
                </Button>
              )}
            </FileButton>
            <Button variant="default" leftSection={<IconDownload size={18} aria-hidden />} onClick={() => template.mutate()} loading={template.isPending}>
              {t('imports.template')}
            </Button>
          </Group>
        </Stack>
      </Paper>
      {selected ? <ImportPanel key={selected} id={selected} /> : null}
      <ImportHistory selected={selected} onOpen={open} />
    </Stack>
  );
};
