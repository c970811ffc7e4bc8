import { Center, Checkbox, Loader, Select, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import { communityGroupRule, professionGroupRule, professionRule } from '../../../../../domain/organisation/organisation.rules.ts';
import { DataTable } from '../../../components/data-table.tsx';
import { DeleteAction, FormCard, ListHeader } from '../../../components/form-card.tsx';
import { useZodForm } from '../../../lib/use-zod-form.ts';
import {
  type CommunityGroup,
  deleteCommunityGroup,
  deleteProfession,
  getCommunityGroup,
  getProfession,
  getProfessionGroup,
  listCommunityGroups,
  listProfessionGroups,
  listProfessions,
  type Profession,
  type ProfessionGroup,
  saveCommunityGroup,
  saveProfession,
  saveProfessionGroup,
} from '../api/groups.ts';
import { ProfessionGroupSelect, UnitsMultiSelect } from './selects.tsx';

const Loading = () => {
  const { t } = useTranslation();
  return (
    <Center py="xl">
      <Loader role="status" aria-label={t('common.loading')} />
    </Center>
  );
};

/** Create or save, then list queries refresh; a new record opens its own page. */
const useSave = <I,>(options: {
  save: (input: I) => Promise<{ id: number }>;
  invalidate: string;
  createdPath: ((id: number) => string) | null;
  onError: (error: unknown) => string | null;
}) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: options.save,
    onSuccess: async (result) => {
      await queryClient.invalidateQueries({ queryKey: [options.invalidate] });
      notifications.show({ color: 'teal', message: t(options.createdPath ? 'form.created' : 'form.saved') });
      if (options.createdPath) navigate(options.createdPath(result.id));
    },
    onError: (error) => {
      const message = options.onError(error);
      if (message) notifications.show({ color: 'red', message });
    },
  });
};

// ------------------------------------------------------------ community groups

export const CommunityGroupsListPage = () => {
  const { t } = useTranslation();
  return (
    <>
      <ListHeader title={t('pages.admin.groups')} newTo="/admin/communities/groups/new" newLabel={t('pages.admin.groupNew')} />
      <DataTable<CommunityGroup>
        label={t('pages.admin.groups')}
        queryKey={['community-groups', 'list']}
        fetch={listCommunityGroups}
        defaultSort="name"
        rowHref={(g) => `/admin/communities/groups/${g.id}`}
        columns={[
          { key: 'name', label: t('organisation.group.name'), sortKey: 'name', render: (g) => g.name },
          { key: 'count', label: t('organisation.group.unitCount'), sortKey: 'units', render: (g) => g.units.length },
          { key: 'units', label: t('organisation.group.units'), render: (g) => g.units.map((u) => u.name).join(', ') },
        ]}
      />
    </>
  );
};

export const CommunityGroupFormPage = ({ id }: { id: number | null }) => {
  const { t } = useTranslation();
  const group = useQuery({ queryKey: ['community-groups', id], queryFn: () => getCommunityGroup(id as number), enabled: id !== null });
  const form = useZodForm(communityGroupRule, { name: '', unitIds: [] });
  const loaded = group.data;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the form is filled once per loaded group.
  useEffect(() => {
    if (loaded) form.reset({ name: loaded.name, unitIds: loaded.units.map((u) => u.id) });
  }, [loaded]);
  const save = useSave<z.input<typeof communityGroupRule>>({
    save: (input) => saveCommunityGroup(id, input),
    invalidate: 'community-groups',
    createdPath: id === null ? (newId) => `/admin/communities/groups/${newId}` : null,
    onError: form.serverErrors,
  });
  if (id !== null && group.isPending) return <Loading />;
  if (id !== null && !group.data) return <Text>{t('form.notFound')}</Text>;
  return (
    <FormCard
      title={id === null ? t('pages.admin.groupNew') : (group.data?.name ?? '')}
      backTo="/admin/communities/groups"
      submitting={save.isPending}
      submitLabel={t(id === null ? 'form.create' : 'form.save')}
      onSubmit={() => {
        if (form.validate()) save.mutate(form.values);
      }}
      actions={
        id !== null ? (
          <DeleteAction
            question={t('organisation.group.deleteQuestion')}
            remove={() => deleteCommunityGroup(id)}
            invalidate={['community-groups']}
            backTo="/admin/communities/groups"
          />
        ) : null
      }
    >
      <TextInput
        label={t('organisation.group.name')}
        value={form.values.name}
        onChange={(x) => form.set('name', x.currentTarget.value)}
        error={form.errors.name}
        withAsterisk
      />
      <UnitsMultiSelect
        label={t('organisation.group.units')}
        value={form.values.unitIds ?? []}
        onChange={(x) => form.set('unitIds', x)}
        error={form.errors.unitIds}
      />
    </FormCard>
  );
};

// ------------------------------------------------------------ professions

export const ProfessionsListPage = () => {
  const { t } = useTranslation();
  return (
    <>
      <ListHeader title={t('pages.admin.professions')} newTo="/admin/professions/new" newLabel={t('pages.admin.professionNew')} />
      <DataTable<Profession>
        label={t('pages.admin.professions')}
        queryKey={['professions', 'list']}
        fetch={listProfessions}
        defaultSort="name"
        rowHref={(p) => `/admin/professions/${p.id}`}
        columns={[
          { key: 'name', label: t('organisation.profession.name'), sortKey: 'name', render: (p) => p.name },
          { key: 'group', label: t('organisation.profession.group'), sortKey: 'group', render: (p) => p.groupName ?? '' },
          { key: 'licence', label: t('organisation.profession.licence'), render: (p) => t(p.needsLicenceNumber ? 'form.yes' : 'form.no') },
          { key: 'chamber', label: t('organisation.profession.chamber'), render: (p) => t(p.needsChamberNumber ? 'form.yes' : 'form.no') },
        ]}
      />
    </>
  );
};

export const ProfessionFormPage = ({ id }: { id: number | null }) => {
  const { t } = useTranslation();
  const profession = useQuery({ queryKey: ['professions', id], queryFn: () => getProfession(id as number), enabled: id !== null });
  const form = useZodForm(professionRule, { name: '', groupId: null, needsLicenceNumber: false, needsChamberNumber: false, chamber: null });
  const loaded = profession.data;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the form is filled once per loaded profession.
  useEffect(() => {
    if (loaded)
      form.reset({
        name: loaded.name,
        groupId: loaded.groupId,
        needsLicenceNumber: loaded.needsLicenceNumber,
        needsChamberNumber: loaded.needsChamberNumber,
        chamber: loaded.chamber,
      });
  }, [loaded]);
  const save = useSave<z.input<typeof professionRule>>({
    save: (input) => saveProfession(id, input),
    invalidate: 'professions',
    createdPath: id === null ? (newId) => `/admin/professions/${newId}` : null,
    onError: form.serverErrors,
  });
  if (id !== null && profession.isPending) return <Loading />;
  if (id !== null && !profession.data) return <Text>{t('form.notFound')}</Text>;
  return (
    <FormCard
      title={id === null ? t('pages.admin.professionNew') : (profession.data?.name ?? '')}
      backTo="/admin/professions"
      submitting={save.isPending}
      submitLabel={t(id === null ? 'form.create' : 'form.save')}
      onSubmit={() => {
        if (form.validate()) save.mutate(form.values);
      }}
      actions={
        id !== null ? (
          <DeleteAction
            question={t('organisation.profession.deleteQuestion')}
            remove={() => deleteProfession(id)}
            invalidate={['professions']}
            backTo="/admin/professions"
          />
        ) : null
      }
    >
      <TextInput
        label={t('organisation.profession.name')}
        value={form.values.name}
        onChange={(x) => form.set('name', x.currentTarget.value)}
        error={form.errors.name}
        withAsterisk
      />
      <ProfessionGroupSelect
        label={t('organisation.profession.group')}
        value={form.values.groupId ?? null}
        onChange={(x) => form.set('groupId', x)}
        error={form.errors.groupId}
      />
      <Checkbox
        label={t('organisation.profession.licence')}
        checked={form.values.needsLicenceNumber ?? false}
        onChange={(x) => form.set('needsLicenceNumber', x.currentTarget.checked)}
      />
      <Checkbox
        label={t('organisation.profession.chamber')}
        checked={form.values.needsChamberNumber ?? false}
        onChange={(x) => form.set('needsChamberNumber', x.currentTarget.checked)}
      />
      <Select
        label={t('organisation.profession.creditChamber')}
        description={t('organisation.profession.creditChamberHint')}
        data={[1, 2, 3].map((n) => ({ value: String(n), label: t(`organisation.company.chamber${n}`) }))}
        value={form.values.chamber ? String(form.values.chamber) : null}
        onChange={(x) => form.set('chamber', x ? (Number(x) as 1 | 2 | 3) : null)}
        clearable
        placeholder={t('form.none')}
        error={form.errors.chamber}
      />
    </FormCard>
  );
};

export const ProfessionGroupsListPage = () => {
  const { t } = useTranslation();
  return (
    <>
      <ListHeader title={t('pages.admin.professionGroups')} newTo="/admin/professions/groups/new" newLabel={t('pages.admin.professionGroupNew')} />
      <DataTable<ProfessionGroup>
        label={t('pages.admin.professionGroups')}
        queryKey={['profession-groups', 'list']}
        fetch={listProfessionGroups}
        defaultSort="name"
        rowHref={(g) => `/admin/professions/groups/${g.id}`}
        columns={[
          { key: 'name', label: t('organisation.group.name'), sortKey: 'name', render: (g) => g.name },
          { key: 'professions', label: t('organisation.profession.professions'), render: (g) => g.professions.map((p) => p.name).join(', ') },
        ]}
      />
    </>
  );
};

export const ProfessionGroupFormPage = ({ id }: { id: number | null }) => {
  const { t } = useTranslation();
  const group = useQuery({ queryKey: ['profession-groups', id], queryFn: () => getProfessionGroup(id as number), enabled: id !== null });
  const form = useZodForm(professionGroupRule, { name: '' });
  const loaded = group.data;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the form is filled once per loaded group.
  useEffect(() => {
    if (loaded) form.reset({ name: loaded.name });
  }, [loaded]);
  const save = useSave<z.input<typeof professionGroupRule>>({
    save: (input) => saveProfessionGroup(id, input),
    invalidate: 'profession-groups',
    createdPath: id === null ? (newId) => `/admin/professions/groups/${newId}` : null,
    onError: form.serverErrors,
  });
  if (id !== null && group.isPending) return <Loading />;
  if (id !== null && !group.data) return <Text>{t('form.notFound')}</Text>;
  return (
    <FormCard
      title={id === null ? t('pages.admin.professionGroupNew') : (group.data?.name ?? '')}
      backTo="/admin/professions/groups"
      submitting={save.isPending}
      submitLabel={t(id === null ? 'form.create' : 'form.save')}
      onSubmit={() => {
        if (form.validate()) save.mutate(form.values);
      }}
    >
      <TextInput
        label={t('organisation.group.name')}
        value={form.values.name}
        onChange={(x) => form.set('name', x.currentTarget.value)}
        error={form.errors.name}
        withAsterisk
      />
      {group.data && group.data.professions.length > 0 ? (
        <Text size="sm">
          {t('organisation.profession.professions')}: {group.data.professions.map((p) => p.name).join(', ')}
        </Text>
      ) : null}
    </FormCard>
  );
};
