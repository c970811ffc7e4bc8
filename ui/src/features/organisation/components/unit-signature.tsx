import { Button, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { signatureRule } from '../../../../../domain/organisation/organisation.rules.ts';
import { FormCard } from '../../../components/form-card.tsx';
import { useZodForm } from '../../../lib/use-zod-form.ts';
import { changeUnitSignature, removeUnitSignature, type Unit } from '../api/units.ts';
import { SignatureFields } from './signature-fields.tsx';

/**
 * A unit's own certificate signature (issue 18 item 3, spec §3 "signature name, role and image"):
 * when set, the unit issues and signs its participants' certificates instead of its company.
 */
export const UnitSignatureCard = ({ unit, readOnly = false }: { unit: Unit; readOnly?: boolean }) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const form = useZodForm(signatureRule, {
    name: unit.signature?.name ?? '',
    role: unit.signature?.role ?? '',
    imageFileId: unit.signature?.imageFileId ?? null,
  });
  const done = async () => {
    await queryClient.invalidateQueries({ queryKey: ['units'] });
    notifications.show({ color: 'teal', message: t('form.saved') });
  };
  const save = useMutation({
    mutationFn: () => changeUnitSignature(unit.id, { name: form.values.name, role: form.values.role, imageFileId: form.values.imageFileId ?? null }),
    onSuccess: done,
    onError: form.notifyServerErrors,
  });
  const remove = useMutation({
    mutationFn: () => removeUnitSignature(unit.id),
    onSuccess: async () => {
      form.reset({ name: '', role: '', imageFileId: null });
      await done();
    },
    onError: (error) => notifications.show({ color: 'red', message: error.message || t('form.failed') }),
  });
  return (
    <FormCard
      readOnly={readOnly}
      title={t('organisation.unit.signature')}
      submitting={save.isPending}
      submitLabel={t('organisation.company.signatureSave')}
      onSubmit={() => {
        if (form.validate()) save.mutate();
      }}
      actions={
        unit.signature ? (
          <Button variant="default" color="red" onClick={() => remove.mutate()} loading={remove.isPending}>
            {t('organisation.unit.signatureRemove')}
          </Button>
        ) : null
      }
    >
      <Text size="sm" c="dimmed">
        {t('organisation.unit.signatureIntro')}
      </Text>
      <SignatureFields form={form} />
    </FormCard>
  );
};
