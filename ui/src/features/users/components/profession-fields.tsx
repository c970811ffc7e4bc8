import { Select, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { type ProfessionOption, professionsQuery } from '../api/professions.ts';

type Values = { professionId: number | null; otherJob: string; licenceNumber: string; chamberMembershipNumber: string };
type Errors = Record<string, string | undefined>;

/**
 * Profession with the other job, the licence number and the chamber membership number (spec §3,
 * §5). The numbers are marked required when the chosen profession asks for them; the server
 * checks the same.
 */
export const ProfessionFields = ({
  values,
  errors,
  set,
}: {
  values: Values;
  errors: Errors;
  set: <K extends keyof Values>(key: K, value: Values[K]) => void;
}) => {
  const { t } = useTranslation();
  const professions = useQuery(professionsQuery);
  const chosen: ProfessionOption | undefined = professions.data?.find((p) => p.id === values.professionId);
  const groups = new Map<string, { value: string; label: string }[]>();
  for (const p of professions.data ?? []) {
    const group = p.groupName ?? t('identity.registration.otherProfessions');
    groups.set(group, [...(groups.get(group) ?? []), { value: String(p.id), label: p.name }]);
  }
  return (
    <>
      <Select
        label={t('identity.registration.profession')}
        name="professionId"
        data={[...groups].map(([group, items]) => ({ group, items }))}
        value={values.professionId === null ? null : String(values.professionId)}
        onChange={(value) => set('professionId', value ? Number(value) : null)}
        searchable
        withAsterisk
        nothingFoundMessage={t('table.empty')}
        error={errors.professionId ?? (professions.isError ? t('identity.registration.professionsFailed') : undefined)}
      />
      <TextInput
        label={t('identity.registration.otherJob')}
        name="otherJob"
        value={values.otherJob}
        onChange={(e) => set('otherJob', e.currentTarget.value)}
        error={errors.otherJob}
      />
      <TextInput
        label={t('identity.registration.licenceNumber')}
        name="licenceNumber"
        description={t('identity.registration.licenceHint')}
        value={values.licenceNumber}
        onChange={(e) => set('licenceNumber', e.currentTarget.value)}
        withAsterisk={chosen?.needsLicenceNumber ?? false}
        maxLength={5}
        error={errors.licenceNumber}
      />
      <TextInput
        label={t('identity.registration.chamberMembershipNumber')}
        name="chamberMembershipNumber"
        value={values.chamberMembershipNumber}
        onChange={(e) => set('chamberMembershipNumber', e.currentTarget.value)}
        withAsterisk={chosen?.needsChamberNumber ?? false}
        error={errors.chamberMembershipNumber}
      />
    </>
  );
};
