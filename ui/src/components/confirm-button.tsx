import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A destructive action behind a confirmation dialog: the button opens the question, and only the
 * dialog's own button (in the danger colour) acts. The dialog stays open while the action runs.
 */
export const ConfirmButton = (props: { label: string; question: string; confirmLabel?: string; pending: boolean; onConfirm: () => Promise<unknown> }) => {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="outline" color="red.9" onClick={() => setOpen(true)}>
        {props.label}
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={props.label} centered>
        <Stack>
          <Text>{props.question}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpen(false)}>
              {t('common.cancel')}
            </Button>
            <Button
              color="red.8"
              loading={props.pending}
              onClick={() => {
                void props.onConfirm().finally(() => setOpen(false));
              }}
            >
              {props.confirmLabel ?? props.label}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
};
