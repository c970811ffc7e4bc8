import { TextInput } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { FormCard } from '../../../components/form-card.tsx';

/** The card every block editor sits in: its title, the way back to the course's blocks, and Save. */
export const BlockFormFrame = (props: { title: string; backTo: string; submit: () => void; submitting: boolean; actions?: ReactNode; children: ReactNode }) => {
  const { t } = useTranslation();
  return (
    <FormCard
      title={props.title}
      backTo={props.backTo}
      backLabel={t('blocks.back')}
      submitting={props.submitting}
      submitLabel={t('form.save')}
      onSubmit={props.submit}
      actions={props.actions}
    >
      {props.children}
    </FormCard>
  );
};

/** The block's name, which every kind of block has. */
export const BlockNameField = (props: { value: string; onChange: (value: string) => void; error?: string | undefined }) => {
  const { t } = useTranslation();
  return <TextInput label={t('blocks.name')} withAsterisk value={props.value} onChange={(x) => props.onChange(x.currentTarget.value)} error={props.error} />;
};
