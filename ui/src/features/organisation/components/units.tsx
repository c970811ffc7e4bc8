import { Alert, Badge, Button, Center, Grid, Group, Loader, Select, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { unitRule } from '../../../../../domain/organisation/organisation.rules.ts';
import { DataTable } from '../../../components/data-table.tsx';
import { DeleteAction, FormCard, ListHeader } from '../../../components/form-card.tsx';
import { useFeature } from '../../../lib/features.ts';
import { useZodForm } from '../../../lib/use-zod-form.ts';
import { createUnit, deleteUnit, getUnit, listUnits, setUnitPublished, type Unit, type UnitInput, updateUnit } from '../api/units.ts';
import { CompanySelect, TagSelect } from './selects.tsx';
import { UnitSignatureCard } from './unit-signature.tsx';

/** /admin/units and /admin/communities/general: the same units (communities), under the two paths of spec §2. */
/** `canCreate`: whether to offer a new unit (1010; issue 18). */
export const UnitsListPage = ({ base, canCreate = true }: { base: '/admin/units' | '/admin/communities/general'; canCreate?: boolean }) => {
  const { t } = useTranslation();
  const title = t(base === '/admin/units' ? 'pages.admin.units' : 'pages.admin.communities');
  return (
    <>
      <ListHeader
        title={title}
        {...(canCreate ? { newTo: `${base}/new`, newLabel: t(base === '/admin/units' ? 'pages.admin.unitNew' : 'pages.admin.communityNew') } : {})}
      />
      <DataTable<Unit>
        label={title}
        queryKey={['units', 'list']}
        fetch={listUnits}
        defaultSort="name"
        rowHref={(u) => `${base}/${u.id}`}
        columns={[
          { key: 'name', label: t('organisation.unit.name'), sortKey: 'name', render: (u) => u.name },
          { key: 'company', label: t('organisation.unit.company'), sortKey: 'company', render: (u) => u.company_name ?? '' },
          { key: 'tag', label: t('organisation.unit.tag'), render: (u) => u.tag_name ?? '' },
          { key: 'groups', label: t('organisation.unit.groups'), render: (u) => u.groups.join(', ') },
          {
            key: 'published',
            label: t('organisation.unit.status'),
            sortKey: 'published',
            render: (u) => (
              <Badge variant="outline" color={u.published ? 'brand.8' : 'gray.7'}>
                {t(u.published ? 'organisation.unit.published' : 'organisation.unit.unpublished')}
              </Badge>
            ),
          },
        ]}
      />
    </>
  );
};

const NO_ADDRESS = { address: '', city: '', zip: '', region: '', vat: '', externalId: '', syncDestination: null };

/** Create, then go on editing (spec §4): a new unit opens its own page, unpublished, with the publish action. */
/** Who may change the unit shown (null: create a unit) and delete it; everyone, unless the caller says otherwise. */
export type UnitAccess = { canChange: (unit: Pick<Unit, 'id' | 'company_id'> | null) => boolean; canDelete: boolean };
const FULL_ACCESS: UnitAccess = { canChange: () => true, canDelete: true };

export const UnitFormPage = ({
  id,
  base,
  access = FULL_ACCESS,
}: {
  id: number | null;
  base: '/admin/units' | '/admin/communities/general';
  access?: UnitAccess;
}) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const unit = useQuery({ queryKey: ['units', id], queryFn: () => getUnit(id as number), enabled: id !== null });
  const form = useZodForm(unitRule, { name: '', companyId: 0, tagId: null, ...NO_ADDRESS });
  const externalIds = useFeature('externalId') === true;
  const loaded = unit.data;
  // Issue 18: who may not change the unit reads it without the controls (the page's caller decides, as the API does).
  const readOnly = !access.canChange(id === null ? null : (loaded ?? null));
  // biome-ignore lint/correctness/useExhaustiveDependencies: the form is filled once per loaded unit.
  useEffect(() => {
    if (loaded)
      form.reset({
        name: loaded.name,
        companyId: loaded.company_id,
        tagId: loaded.tag_id,
        address: loaded.address ?? '',
        city: loaded.city ?? '',
        zip: loaded.zip ?? '',
        region: loaded.region ?? '',
        vat: loaded.vat ?? '',
        externalId: loaded.external_id ?? '',
        syncDestination: (loaded.sync_destination as 1 | 2 | 3 | null) ?? null,
      });
  }, [loaded]);

  const save = useMutation({
    mutationFn: (input: UnitInput) => (id === null ? createUnit(input) : updateUnit(id, input)),
    onSuccess: async (result) => {
      await queryClient.invalidateQueries({ queryKey: ['units'] });
      await queryClient.invalidateQueries({ queryKey: ['companies'] });
      notifications.show({ color: 'teal', message: t(id === null ? 'form.created' : 'form.saved') });
      if (id === null) navigate(`${base}/${result.id}`, { state: { created: true } });
    },
    onError: form.notifyServerErrors,
  });
  const publish = useMutation({
    mutationFn: (published: boolean) => setUnitPublished(id as number, published),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['units'] });
      notifications.show({ color: 'teal', message: t('form.saved') });
    },
    onError: (error) => notifications.show({ color: 'red', message: error.message || t('form.failed') }),
  });

  if (id !== null && unit.isPending) {
    return (
      <Center py="xl">
        <Loader role="status" aria-label={t('common.loading')} />
      </Center>
    );
  }
  if (id !== null && !unit.data) return <Text>{t('form.notFound')}</Text>;
  const justCreated = (location.state as { created?: boolean } | null)?.created === true;

  const card = (
    <FormCard
      title={id === null ? t(base === '/admin/units' ? 'pages.admin.unitNew' : 'pages.admin.communityNew') : (unit.data?.name ?? '')}
      backTo={base}
      submitting={save.isPending}
      submitLabel={t(id === null ? 'form.create' : 'form.save')}
      readOnly={readOnly}
      onSubmit={() => {
        if (form.validate()) save.mutate(form.values);
      }}
      actions={
        id !== null && access.canDelete ? (
          <DeleteAction question={t('organisation.unit.deleteQuestion')} remove={() => deleteUnit(id)} invalidate={['units', 'companies']} backTo={base} />
        ) : null
      }
      aside={
        unit.data ? (
          <Group>
            <Badge variant="outline" size="lg" color={unit.data.published ? 'brand.8' : 'gray.7'} data-testid="unit-status">
              {t(unit.data.published ? 'organisation.unit.published' : 'organisation.unit.unpublished')}
            </Badge>
            {readOnly ? null : (
              <Button variant="default" loading={publish.isPending} onClick={() => publish.mutate(!unit.data?.published)}>
                {t(unit.data.published ? 'organisation.unit.unpublish' : 'organisation.unit.publish')}
              </Button>
            )}
          </Group>
        ) : null
      }
    >
      {justCreated ? <Alert color="brand">{t('organisation.unit.createdHint')}</Alert> : null}
      <TextInput
        label={t('organisation.unit.name')}
        value={form.values.name}
        onChange={(x) => form.set('name', x.currentTarget.value)}
        error={form.errors.name}
        withAsterisk
      />
      <CompanySelect
        label={t('organisation.unit.company')}
        value={form.values.companyId || null}
        onChange={(x) => form.set('companyId', x ?? 0)}
        error={form.errors.companyId}
        required
      />
      <TagSelect
        kind="unit"
        label={t('organisation.unit.tag')}
        value={form.values.tagId ?? null}
        onChange={(x) => form.set('tagId', x)}
        error={form.errors.tagId}
      />
      <Grid>
        {(['address', 'city', 'zip', 'region', 'vat'] as const).map((key) => (
          <Grid.Col key={key} span={{ base: 12, md: key === 'address' ? 12 : 6 }}>
            <TextInput
              label={t(`organisation.company.${key}`)}
              value={form.values[key] ?? ''}
              onChange={(x) => form.set(key, x.currentTarget.value)}
              error={form.errors[key]}
              inputMode={key === 'zip' ? 'numeric' : undefined}
            />
          </Grid.Col>
        ))}
        {externalIds ? (
          <>
            <Grid.Col span={{ base: 12, md: 6 }}>
              <TextInput
                label={t('organisation.company.externalId')}
                value={form.values.externalId ?? ''}
                onChange={(x) => form.set('externalId', x.currentTarget.value)}
                error={form.errors.externalId}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 6 }}>
              <Select
                label={t('organisation.company.sync')}
                data={[1, 2, 3].map((n) => ({ value: String(n), label: t(`organisation.company.chamber${n}`) }))}
                value={form.values.syncDestination ? String(form.values.syncDestination) : null}
                onChange={(x) => form.set('syncDestination', x ? (Number(x) as 1 | 2 | 3) : null)}
                clearable
                placeholder={t('form.none')}
                error={form.errors.syncDestination}
              />
            </Grid.Col>
          </>
        ) : null}
      </Grid>
    </FormCard>
  );
  // A saved unit may sign its people's certificates itself (issue 18 item 3).
  return unit.data ? (
    <Stack gap="md">
      {card}
      <UnitSignatureCard key={unit.data.id} unit={unit.data} readOnly={readOnly} />
    </Stack>
  ) : (
    card
  );
};
