import { Grid, Select, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { professionsQuery } from '../api/professions.ts';
import { companiesQuery, groupsQuery, type UserFilters, type UserStatus, unitsQuery } from '../api/user-admin.ts';

/** spec §6 roles, and the auditor of decision 0013. */
export const ROLE_IDS = [1, 6, 7, 8, 2, 5, 3, 4, 10] as const;
const STATUSES: UserStatus[] = ['active', 'inactive', 'deleted'];

const toId = (value: string | null) => (value ? Number(value) : null);

/**
 * The users list's search and filters (issue 14 item 1): role, company, unit, community group,
 * profession, status. A manager sees only the companies and units they reach, and no group filter.
 */
export const UserFiltersBar = (props: { scope: 'admin' | 'manager'; value: UserFilters; onChange: (next: UserFilters) => void }) => {
  const { t } = useTranslation();
  const units = useQuery(unitsQuery);
  const companies = useQuery({ ...companiesQuery, enabled: props.scope === 'admin' });
  const groups = useQuery({ ...groupsQuery, enabled: props.scope === 'admin' });
  const professions = useQuery(professionsQuery);
  const v = props.value;
  const set = (patch: Partial<UserFilters>) => props.onChange({ ...v, ...patch });

  // A manager's companies are those of the units they see; an admin's every company.
  const companyOptions =
    props.scope === 'admin'
      ? (companies.data ?? []).map((c) => ({ value: String(c.id), label: c.name }))
      : [...new Map((units.data ?? []).map((u) => [u.company_id, u.company_name ?? String(u.company_id)])).entries()].map(([id, name]) => ({
          value: String(id),
          label: name,
        }));
  const unitOptions = (units.data ?? [])
    .filter((u) => v.companyId === null || u.company_id === v.companyId)
    .map((u) => ({ value: String(u.id), label: u.company_name ? `${u.name} (${u.company_name})` : u.name }));

  return (
    <Grid mb="md" align="flex-end">
      <Grid.Col span={{ base: 12, md: 4 }}>
        <TextInput
          label={t('people.filters.search')}
          leftSection={<IconSearch size={16} aria-hidden />}
          placeholder={t('people.filters.searchHint')}
          value={v.search}
          onChange={(e) => set({ search: e.currentTarget.value })}
        />
      </Grid.Col>
      <Grid.Col span={{ base: 6, md: 2 }}>
        <Select
          label={t('people.filters.role')}
          clearable
          data={ROLE_IDS.map((id) => ({ value: String(id), label: t(`roles.${id}`) }))}
          value={v.roleId === null ? null : String(v.roleId)}
          onChange={(x) => set({ roleId: toId(x) })}
        />
      </Grid.Col>
      <Grid.Col span={{ base: 6, md: 2 }}>
        <Select
          label={t('people.filters.status')}
          clearable
          placeholder={t('people.filters.notDeleted')}
          data={STATUSES.map((s) => ({ value: s, label: t(`people.status.${s}`) }))}
          value={v.status}
          onChange={(x) => set({ status: (x as UserStatus | null) ?? null })}
        />
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 4 }}>
        <Select
          label={t('people.filters.profession')}
          clearable
          searchable
          data={(professions.data ?? []).map((p) => ({ value: String(p.id), label: p.name }))}
          value={v.professionId === null ? null : String(v.professionId)}
          onChange={(x) => set({ professionId: toId(x) })}
        />
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 4 }}>
        <Select
          label={t('people.filters.company')}
          clearable
          searchable
          data={companyOptions}
          value={v.companyId === null ? null : String(v.companyId)}
          onChange={(x) => set({ companyId: toId(x), unitId: null })}
        />
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 4 }}>
        <Select
          label={t('people.filters.unit')}
          clearable
          searchable
          data={unitOptions}
          value={v.unitId === null ? null : String(v.unitId)}
          onChange={(x) => set({ unitId: toId(x) })}
        />
      </Grid.Col>
      {props.scope === 'admin' ? (
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Select
            label={t('people.filters.group')}
            clearable
            searchable
            data={(groups.data ?? []).map((g) => ({ value: String(g.id), label: g.name }))}
            value={v.groupId === null ? null : String(v.groupId)}
            onChange={(x) => set({ groupId: toId(x) })}
          />
        </Grid.Col>
      ) : null}
    </Grid>
  );
};
