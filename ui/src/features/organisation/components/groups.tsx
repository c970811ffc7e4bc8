import { Checkbox, Select, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { communityGroupRule, professionGroupRule, professionRule } from '../../../../../domain/organisation/organisation.rules.ts';
import { DataTable } from '../../../components/data-table.tsx';
import { ListHeader } from '../../../components/form-card.tsx';
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
import { NamedRecordFormCard, useNamedRecordForm } from './named-record-form.tsx';
import { ProfessionGroupSelect, UnitsMultiSelect } from './selects.tsx';

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
  const editor = useNamedRecordForm({
    id,
    queryKey: 'community-groups',
    path: '/admin/communities/groups',
    rule: communityGroupRule,
    empty: { name: '', unitIds: [] },
    get: getCommunityGroup,
    toForm: (loaded) => ({ name: loaded.name, unitIds: loaded.units.map((u) => u.id) }),
    save: saveCommunityGroup,
  });
  const { form } = editor;
  return (
    <NamedRecordFormCard
      editor={editor}
      newTitle={t('pages.admin.groupNew')}
      nameLabel={t('organisation.group.name')}
      deletion={{ question: t('organisation.group.deleteQuestion'), remove: deleteCommunityGroup }}
    >
      <UnitsMultiSelect
        label={t('organisation.group.units')}
        value={form.values.unitIds ?? []}
        onChange={(x) => form.set('unitIds', x)}
        error={form.errors.unitIds}
      />
    </NamedRecordFormCard>
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
          { key: 'mayPrescribe', label: t('organisation.profession.mayPrescribe'), render: (p) => t(p.mayPrescribe ? 'form.yes' : 'form.no') },
        ]}
      />
    </>
  );
};

export const ProfessionFormPage = ({ id }: { id: number | null }) => {
  const { t } = useTranslation();
  const editor = useNamedRecordForm({
    id,
    queryKey: 'professions',
    path: '/admin/professions',
    rule: professionRule,
    empty: { name: '', groupId: null, needsLicenceNumber: false, needsChamberNumber: false, chamber: null, mayPrescribe: false },
    get: getProfession,
    toForm: (loaded) => ({
      name: loaded.name,
      groupId: loaded.groupId,
      needsLicenceNumber: loaded.needsLicenceNumber,
      needsChamberNumber: loaded.needsChamberNumber,
      chamber: loaded.chamber,
      mayPrescribe: loaded.mayPrescribe,
    }),
    save: saveProfession,
  });
  const { form } = editor;
  return (
    <NamedRecordFormCard
      editor={editor}
      newTitle={t('pages.admin.professionNew')}
      nameLabel={t('organisation.profession.name')}
      deletion={{ question: t('organisation.profession.deleteQuestion'), remove: deleteProfession }}
    >
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
      <Checkbox
        label={t('organisation.profession.mayPrescribe')}
        description={t('organisation.profession.mayPrescribeHint')}
        checked={form.values.mayPrescribe ?? false}
        onChange={(x) => form.set('mayPrescribe', x.currentTarget.checked)}
      />
    </NamedRecordFormCard>
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
  const editor = useNamedRecordForm({
    id,
    queryKey: 'profession-groups',
    path: '/admin/professions/groups',
    rule: professionGroupRule,
    empty: { name: '' },
    get: getProfessionGroup,
    toForm: (loaded) => ({ name: loaded.name }),
    save: saveProfessionGroup,
  });
  const professions = editor.record.data?.professions ?? [];
  return (
    <NamedRecordFormCard editor={editor} newTitle={t('pages.admin.professionGroupNew')} nameLabel={t('organisation.group.name')}>
      {professions.length > 0 ? (
        <Text size="sm">
          {t('organisation.profession.professions')}: {professions.map((p) => p.name).join(', ')}
        </Text>
      ) : null}
    </NamedRecordFormCard>
  );
};
