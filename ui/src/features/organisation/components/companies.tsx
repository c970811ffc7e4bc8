import { Center, Grid, Loader, Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { companyRule, signatureRule } from '../../../../../domain/organisation/organisation.rules.ts';
import { DataTable } from '../../../components/data-table.tsx';
import { DeleteAction, FormCard, ListHeader } from '../../../components/form-card.tsx';
import { useFeature } from '../../../lib/features.ts';
import { useZodForm } from '../../../lib/use-zod-form.ts';
import {
  type Company,
  type CompanyInput,
  type CompanyListItem,
  changeSignature,
  createCompany,
  deleteCompany,
  getCompany,
  listCompanies,
  updateCompany,
} from '../api/companies.ts';
import { CompanySelect, TagSelect } from './selects.tsx';
import { SignatureFields } from './signature-fields.tsx';

/** `canCreate`: whether to offer "Novo podjetje" (issue 18: nobody is shown an action only to be refused). */
export const CompaniesListPage = ({ canCreate = true }: { canCreate?: boolean }) => {
  const { t } = useTranslation();
  return (
    <>
      <ListHeader title={t('pages.admin.companies')} {...(canCreate ? { newTo: '/admin/companies/new', newLabel: t('pages.admin.companyNew') } : {})} />
      <DataTable<CompanyListItem>
        label={t('pages.admin.companies')}
        queryKey={['companies', 'list']}
        fetch={listCompanies}
        defaultSort="name"
        rowHref={(c) => `/admin/companies/${c.id}`}
        columns={[
          { key: 'name', label: t('organisation.company.name'), sortKey: 'name', render: (c) => c.name },
          { key: 'city', label: t('organisation.company.city'), sortKey: 'city', render: (c) => [c.zip, c.city].filter(Boolean).join(' ') },
          { key: 'tag', label: t('organisation.company.tag'), render: (c) => c.tagName ?? '' },
          { key: 'vat', label: t('organisation.company.vat'), sortKey: 'vat', render: (c) => c.vat ?? '' },
          { key: 'units', label: t('organisation.company.unitCount'), sortKey: 'units', render: (c) => c.unitCount },
        ]}
      />
    </>
  );
};

const EMPTY: CompanyInput = {
  name: '',
  address: '',
  city: '',
  zip: '',
  region: '',
  tagId: null,
  vat: '',
  parentCompanyId: null,
  externalId: '',
  syncDestination: null,
  financial: { iban: '', swift: '', billingEmail: '' },
};

const toInput = (c: Company): CompanyInput => ({
  name: c.name,
  address: c.address,
  city: c.city ?? '',
  zip: c.zip ?? '',
  region: c.region ?? '',
  tagId: c.tagId,
  vat: c.vat ?? '',
  parentCompanyId: c.parentCompanyId,
  externalId: c.externalId ?? '',
  syncDestination: c.syncDestination,
  financial: { iban: c.financial.iban ?? '', swift: c.financial.swift ?? '', billingEmail: c.financial.billingEmail ?? '' },
});

/** /admin/companies/new and /admin/companies/{id}: spec §3 company fields; name and address required, post code digits only. */
/**
 * `readOnly`: for who may read the company but not change it (an accountant, a client); `canDelete`:
 * whether deleting (1012) is offered. Issue 18: nobody is refused only on submit.
 */
export const CompanyFormPage = ({ id, readOnly = false, canDelete = true }: { id: number | null; readOnly?: boolean; canDelete?: boolean }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const company = useQuery({ queryKey: ['companies', id], queryFn: () => getCompany(id as number), enabled: id !== null });
  const form = useZodForm(companyRule, EMPTY);
  const externalIds = useFeature('externalId') === true;
  const loaded = company.data;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the form is filled once per loaded company.
  useEffect(() => {
    if (loaded) form.reset(toInput(loaded));
  }, [loaded]);

  const save = useMutation({
    mutationFn: (input: CompanyInput) => (id === null ? createCompany(input) : updateCompany(id, input)),
    onSuccess: async (result) => {
      await queryClient.invalidateQueries({ queryKey: ['companies'] });
      notifications.show({ color: 'teal', message: t(id === null ? 'form.created' : 'form.saved') });
      if (id === null) navigate(`/admin/companies/${result.id}`);
    },
    onError: form.notifyServerErrors,
  });

  if (id !== null && company.isPending)
    return (
      <Center py="xl">
        <Loader role="status" aria-label={t('common.loading')} />
      </Center>
    );
  if (id !== null && !company.data) return <Text>{t('form.notFound')}</Text>;

  const v = form.values;
  const e = form.errors;
  // The external id and chamber sync belong to a feature of spec §1; with it off the server refuses them.
  const financial = v.financial ?? { iban: '', swift: '', billingEmail: '' };
  return (
    <FormCard
      title={id === null ? t('pages.admin.companyNew') : (company.data?.name ?? '')}
      backTo="/admin/companies"
      submitting={save.isPending}
      submitLabel={t(id === null ? 'form.create' : 'form.save')}
      readOnly={readOnly}
      onSubmit={() => {
        const parsed = form.validate();
        if (parsed) save.mutate(v);
      }}
      actions={
        id !== null && canDelete ? (
          <DeleteAction
            question={t('organisation.company.deleteQuestion')}
            remove={() => deleteCompany(id)}
            invalidate={['companies']}
            backTo="/admin/companies"
          />
        ) : null
      }
      aside={id !== null && company.data ? <CompanyAside company={company.data} readOnly={readOnly} /> : null}
    >
      <Grid>
        <Grid.Col span={{ base: 12, md: 6 }}>
          <TextInput
            label={t('organisation.company.name')}
            value={v.name}
            onChange={(x) => form.set('name', x.currentTarget.value)}
            error={e.name}
            withAsterisk
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 6 }}>
          <TagSelect kind="company" label={t('organisation.company.tag')} value={v.tagId ?? null} onChange={(x) => form.set('tagId', x)} error={e.tagId} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 6 }}>
          <TextInput
            label={t('organisation.company.address')}
            value={v.address}
            onChange={(x) => form.set('address', x.currentTarget.value)}
            error={e.address}
            withAsterisk
          />
        </Grid.Col>
        <Grid.Col span={{ base: 4, md: 2 }}>
          <TextInput
            label={t('organisation.company.zip')}
            value={v.zip ?? ''}
            onChange={(x) => form.set('zip', x.currentTarget.value)}
            error={e.zip}
            inputMode="numeric"
          />
        </Grid.Col>
        <Grid.Col span={{ base: 8, md: 4 }}>
          <TextInput label={t('organisation.company.city')} value={v.city ?? ''} onChange={(x) => form.set('city', x.currentTarget.value)} error={e.city} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 6 }}>
          <TextInput
            label={t('organisation.company.region')}
            value={v.region ?? ''}
            onChange={(x) => form.set('region', x.currentTarget.value)}
            error={e.region}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 6 }}>
          <TextInput label={t('organisation.company.vat')} value={v.vat ?? ''} onChange={(x) => form.set('vat', x.currentTarget.value)} error={e.vat} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 6 }}>
          <CompanySelect
            label={t('organisation.company.parent')}
            value={v.parentCompanyId ?? null}
            onChange={(x) => form.set('parentCompanyId', x)}
            error={e.parentCompanyId}
            exclude={id ?? undefined}
          />
        </Grid.Col>
        {externalIds ? (
          <>
            <Grid.Col span={{ base: 12, md: 6 }}>
              <TextInput
                label={t('organisation.company.externalId')}
                value={v.externalId ?? ''}
                onChange={(x) => form.set('externalId', x.currentTarget.value)}
                error={e.externalId}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 6 }}>
              <Select
                label={t('organisation.company.sync')}
                data={[1, 2, 3].map((n) => ({ value: String(n), label: t(`organisation.company.chamber${n}`) }))}
                value={v.syncDestination ? String(v.syncDestination) : null}
                onChange={(x) => form.set('syncDestination', x ? (Number(x) as 1 | 2 | 3) : null)}
                clearable
                placeholder={t('form.none')}
                error={e.syncDestination}
              />
            </Grid.Col>
          </>
        ) : null}
      </Grid>
      <Title order={2} size="h4">
        {t('organisation.company.financial')}
      </Title>
      <Grid>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <TextInput
            label={t('organisation.company.iban')}
            value={financial.iban ?? ''}
            onChange={(x) => form.set('financial', { ...financial, iban: x.currentTarget.value })}
            error={e['financial.iban']}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <TextInput
            label={t('organisation.company.swift')}
            value={financial.swift ?? ''}
            onChange={(x) => form.set('financial', { ...financial, swift: x.currentTarget.value })}
            error={e['financial.swift']}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <TextInput
            label={t('organisation.company.billingEmail')}
            value={financial.billingEmail ?? ''}
            onChange={(x) => form.set('financial', { ...financial, billingEmail: x.currentTarget.value })}
            error={e['financial.billingEmail']}
          />
        </Grid.Col>
      </Grid>
    </FormCard>
  );
};

/** The signature shown on certificates, and the company's units. */
const CompanyAside = ({ company, readOnly }: { company: Company; readOnly: boolean }) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const form = useZodForm(signatureRule, {
    name: company.signature?.name ?? '',
    role: company.signature?.role ?? '',
    imageFileId: company.signature?.imageFileId ?? null,
  });
  const save = useMutation({
    mutationFn: () => changeSignature(company.id, form.values),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['companies', company.id] });
      notifications.show({ color: 'teal', message: t('form.saved') });
    },
    onError: form.notifyServerErrors,
  });
  return (
    <>
      <FormCard
        title={t('organisation.company.signature')}
        submitting={save.isPending}
        submitLabel={t('organisation.company.signatureSave')}
        readOnly={readOnly}
        onSubmit={() => {
          if (form.validate()) save.mutate();
        }}
      >
        <SignatureFields form={form} />
      </FormCard>
      <Paper withBorder radius="md" p="lg">
        <Stack gap="xs">
          <Title order={2} size="h4">
            {t('organisation.company.units')}
          </Title>
          {company.units.map((unit) => (
            <Text key={unit.id} component={Link} to={`/admin/units/${unit.id}`} c="brand.8">
              {unit.name} · {t(unit.published ? 'organisation.unit.published' : 'organisation.unit.unpublished')}
            </Text>
          ))}
        </Stack>
      </Paper>
    </>
  );
};
