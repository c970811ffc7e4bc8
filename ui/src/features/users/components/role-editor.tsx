import { ActionIcon, Button, Grid, Select, Stack, Text } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { companiesQuery, unitsQuery } from '../api/user-admin.ts';
import { ROLE_IDS } from './user-filters.tsx';

export type RoleRow = { roleId: number; companyId: number | null; unitId: number };

// 8: the approver (issue 36): signs content approval steps (1071), a system ability granted per person.
const SYSTEM_ROLES = new Set([1, 6, 7, 8]);
const COMPANY_WIDE = new Set([2, 5]);

/**
 * A user's role assignments (spec §3 userRoles, §6): role x company x unit. System roles (admin,
 * editor) take neither; manager and director may take "every unit of the company" (unit 0).
 */
export const RoleEditor = (props: { value: RoleRow[]; onChange: (next: RoleRow[]) => void; errors: Record<string, string | undefined> }) => {
  const { t } = useTranslation();
  const companies = useQuery(companiesQuery);
  const units = useQuery(unitsQuery);
  const set = (index: number, patch: Partial<RoleRow>) => props.onChange(props.value.map((row, i) => (i === index ? { ...row, ...patch } : row)));
  return (
    <Stack gap="xs">
      <Text fw={600}>{t('people.fields.roles')}</Text>
      {props.value.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('people.roles.none')}
        </Text>
      ) : null}
      {props.value.map((row, index) => {
        const system = SYSTEM_ROLES.has(row.roleId);
        const unitOptions = [
          ...(COMPANY_WIDE.has(row.roleId) ? [{ value: '0', label: t('people.allUnits') }] : []),
          ...(units.data ?? []).filter((u) => u.company_id === row.companyId).map((u) => ({ value: String(u.id), label: u.name })),
        ];
        const error = (field: string) => props.errors[`roles.${index}.${field}`];
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity of their own until saved; the index is their place in the form.
          <Grid key={index} align="flex-end" data-testid="role-row">
            <Grid.Col span={{ base: 12, md: 3 }}>
              <Select
                label={t('people.roles.role')}
                data={ROLE_IDS.map((id) => ({ value: String(id), label: t(`roles.${id}`) }))}
                value={String(row.roleId)}
                allowDeselect={false}
                onChange={(x) => {
                  const roleId = Number(x);
                  set(index, SYSTEM_ROLES.has(roleId) ? { roleId, companyId: null, unitId: 0 } : { roleId });
                }}
                error={error('roleId')}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 4 }}>
              <Select
                label={t('people.roles.company')}
                searchable
                disabled={system}
                data={(companies.data ?? []).map((c) => ({ value: String(c.id), label: c.name }))}
                value={row.companyId === null ? null : String(row.companyId)}
                onChange={(x) => set(index, { companyId: x ? Number(x) : null, unitId: COMPANY_WIDE.has(row.roleId) ? 0 : -1 })}
                error={error('companyId')}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 10, md: 4 }}>
              <Select
                label={t('people.roles.unit')}
                searchable
                disabled={system || row.companyId === null}
                data={unitOptions}
                value={row.unitId < 0 || (system && row.unitId === 0) ? null : String(row.unitId)}
                onChange={(x) => set(index, { unitId: x === null ? -1 : Number(x) })}
                error={error('unitId')}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 2, md: 1 }}>
              <ActionIcon
                variant="subtle"
                color="red.8"
                aria-label={t('people.roles.remove')}
                onClick={() => props.onChange(props.value.filter((_, i) => i !== index))}
              >
                <IconTrash size={18} aria-hidden />
              </ActionIcon>
            </Grid.Col>
          </Grid>
        );
      })}
      {props.errors.roles ? (
        <Text c="red.8" size="sm">
          {props.errors.roles}
        </Text>
      ) : null}
      <Button variant="light" onClick={() => props.onChange([...props.value, { roleId: 10, companyId: null, unitId: -1 }])} w="fit-content">
        {t('people.roles.add')}
      </Button>
    </Stack>
  );
};
