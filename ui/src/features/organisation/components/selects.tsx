import { MultiSelect, Select } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TagKind } from '../../../../../domain/organisation/organisation.rules.ts';
import { listCompanies } from '../api/companies.ts';
import { listProfessionGroups } from '../api/groups.ts';
import { listTags } from '../api/tags.ts';
import { listUnits } from '../api/units.ts';

type SelectProps = {
  label: string;
  value: number | null;
  onChange: (value: number | null) => void;
  error?: string | undefined;
  required?: boolean;
  exclude?: number;
};

const toOptions = (items: { id: number; name: string }[] | undefined, exclude?: number) =>
  (items ?? []).filter((item) => item.id !== exclude).map((item) => ({ value: String(item.id), label: item.name }));

const IdSelect = (props: SelectProps & { options: { value: string; label: string }[] }) => {
  const { t } = useTranslation();
  return (
    <Select
      label={props.label}
      data={props.options}
      value={props.value === null ? null : String(props.value)}
      onChange={(value) => props.onChange(value ? Number(value) : null)}
      searchable
      clearable={!props.required}
      withAsterisk={props.required}
      placeholder={t('form.none')}
      nothingFoundMessage={t('table.empty')}
      error={props.error}
    />
  );
};

export const CompanySelect = (props: SelectProps) => {
  const companies = useQuery({ queryKey: ['companies', 'options'], queryFn: () => listCompanies({ pageSize: 100, sort: 'name' }) });
  return <IdSelect {...props} options={toOptions(companies.data?.items, props.exclude)} />;
};

export const TagSelect = (props: SelectProps & { kind: TagKind }) => {
  const tags = useQuery({ queryKey: ['tags', props.kind, 'options'], queryFn: () => listTags(props.kind, { pageSize: 100, sort: 'name' }) });
  return <IdSelect {...props} options={toOptions(tags.data?.items)} />;
};

export const ProfessionGroupSelect = (props: SelectProps) => {
  const groups = useQuery({ queryKey: ['profession-groups', 'options'], queryFn: () => listProfessionGroups({ pageSize: 100, sort: 'name' }) });
  return <IdSelect {...props} options={toOptions(groups.data?.items)} />;
};

export const UnitsMultiSelect = (props: { label: string; value: number[]; onChange: (value: number[]) => void; error?: string | undefined }) => {
  const units = useQuery({ queryKey: ['units', 'options'], queryFn: () => listUnits({ limit: 'NO_LIMIT', sort: 'name' }) });
  return (
    <MultiSelect
      label={props.label}
      data={(units.data?.items ?? []).map((u) => ({ value: String(u.id), label: `${u.name}${u.company_name ? ` (${u.company_name})` : ''}` }))}
      value={props.value.map(String)}
      onChange={(values) => props.onChange(values.map(Number))}
      searchable
      error={props.error}
    />
  );
};
