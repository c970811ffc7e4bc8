import { Alert, Button, Center, Group, Loader, MultiSelect, Paper, Select, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { soleApproverWarnings } from '../../../../../domain/courses/approval-settings.rules.ts';
import { SortableList } from '../../../components/sortable-list.tsx';
import { ApiError, api } from '../../../lib/api-client.ts';
import {
  APPROVALS_KEY,
  type ApprovalScope,
  type ApprovalSettings,
  approvalSettingsQuery,
  approverCandidatesQuery,
  saveApprovalSettings,
} from '../api/approvals.ts';
import { DEFAULT_SETTINGS, moveStep, settingsErrors, stepKey } from '../lib/approval-settings-form.ts';

/** The companies a scope may be, read as the users' form reads them (every page of /api/companies). */
const companiesQuery = {
  queryKey: [...APPROVALS_KEY, 'companies'],
  queryFn: async ({ signal }: { signal: AbortSignal }) => {
    const all: { id: number; name: string }[] = [];
    for (let page = 1; ; page++) {
      const result = await api<{ items: { id: number; name: string }[]; total: number }>('GET', '/companies', {
        query: { page, pageSize: 100, sort: 'name' },
        signal,
      });
      all.push(...result.items);
      if (result.items.length < 100 || all.length >= result.total) return all;
    }
  },
  staleTime: 60_000,
};

/** The form of one scope's settings; keyed by the scope, so another scope starts from its own saved settings. */
const SettingsForm = ({ scope }: { scope: ApprovalScope }) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const saved = useQuery(approvalSettingsQuery(scope));
  // The settings' answer lists who holds 1071; without it (an older API) the users with the approver role are asked.
  const approvers = useQuery({ ...approverCandidatesQuery, enabled: saved.isSuccess && saved.data.candidates === undefined });
  const [values, setValues] = useState<ApprovalSettings>(DEFAULT_SETTINGS);
  const [errors, setErrors] = useState<Record<string, string>>({});
  useEffect(() => {
    if (!saved.data) return;
    // A scope never set answers the defaults; an empty step list is shown as the three default steps to start from.
    const steps = saved.data.steps.length > 0 ? saved.data.steps : DEFAULT_SETTINGS.steps;
    setValues({
      enabled: saved.data.enabled,
      codePrefix: saved.data.codePrefix || 'MEDI',
      // The strict rule takes a step's key, label and approvers' ids only (the answer names the approvers too).
      steps: steps.map((s) => ({ key: s.key, label: s.label, approverIds: [...s.approverIds] })),
    });
  }, [saved.data]);
  const save = useMutation({
    mutationFn: (settings: ApprovalSettings) => saveApprovalSettings(scope, settings),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: APPROVALS_KEY });
      notifications.show({ color: 'teal', message: t('approvals.settings.saved') });
    },
    onError: (error) => {
      const fieldErrors = error instanceof ApiError ? error.errors.filter((e) => e.field) : [];
      if (fieldErrors.length > 0) setErrors(Object.fromEntries(fieldErrors.map((e) => [e.field as string, e.message])));
      notifications.show({ color: 'red', message: error instanceof ApiError && error.message ? error.message : t('form.failed') });
    },
  });
  const saveButton = useRef<HTMLButtonElement | null>(null);
  const refocus = useRef(false);
  // Saving disables the button (Mantine's loading), which sends the focus to the page's body. When the
  // save ends, a focus lost so comes back: to the first field the API refused, else to the button.
  useEffect(() => {
    if (save.isPending || !refocus.current) return;
    refocus.current = false;
    if (document.activeElement && document.activeElement !== document.body) return;
    const invalid = document.querySelector<HTMLElement>('[data-testid="approval-settings"] [aria-invalid="true"]');
    (invalid ?? saveButton.current)?.focus();
  }, [save.isPending]);
  if (saved.isPending)
    return (
      <Center py="xl">
        <Loader role="status" aria-label={t('common.loading')} />
      </Center>
    );
  if (saved.isError) return <Alert color="red">{saved.error.message || t('approvals.settings.loadFailed')}</Alert>;
  // The people who hold 1071, and those the saved settings name (by name, even if their role was taken away since).
  const named = saved.data.steps.flatMap((step) => step.approvers ?? []);
  const candidates = [...new Map([...named, ...(saved.data.candidates ?? []), ...(approvers.data ?? [])].map((c) => [c.id, c])).values()];
  const options = candidates.map((c) => ({ value: String(c.id), label: c.name }));
  // Separation of duties (decision 0063): the API's own check, on the form as it is now.
  const warnings = soleApproverWarnings(values, new Map(candidates.map((c) => [c.id, c.name])));
  /** The name field of step `index` (the last one when past the end), or "add a step" when there is none: where the focus goes when steps come and go. */
  const focusStepName = (index: number) =>
    requestAnimationFrame(() => {
      const names = document.querySelectorAll<HTMLElement>('[data-testid="approval-settings"] input[data-step-name]');
      (names[Math.min(index, names.length - 1)] ?? document.querySelector<HTMLElement>('[data-testid="approval-add-step"]'))?.focus();
    });
  const setStep = (index: number, patch: Partial<ApprovalSettings['steps'][number]>) => {
    setValues((v) => ({ ...v, steps: v.steps.map((s, i) => (i === index ? { ...s, ...patch } : s)) }));
    setErrors({});
  };
  const submit = () => {
    // A step added here gets its key from its name ("Pravni pregled" → pravni-pregled); a saved step keeps its key, as the trail names it.
    const savedKeys = new Set(saved.data?.steps.map((step) => step.key) ?? []);
    const steps: ApprovalSettings['steps'] = [];
    values.steps.forEach((step, index) => {
      const label = step.label.trim();
      const others = [...steps.map((d) => d.key), ...values.steps.slice(index + 1).map((s) => s.key)];
      steps.push({ ...step, key: savedKeys.has(step.key) || label === '' ? step.key : stepKey(label, others), label });
    });
    const next = { ...values, codePrefix: values.codePrefix.trim().toUpperCase(), steps };
    const found = settingsErrors(next);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      requestAnimationFrame(() => document.querySelector<HTMLElement>('[data-testid="approval-settings"] [aria-invalid="true"]')?.focus());
      return;
    }
    refocus.current = true;
    save.mutate(next);
  };
  return (
    <Paper withBorder radius="md" p="lg" data-testid="approval-settings">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Stack gap="md">
          <Switch
            label={t('approvals.settings.enabled')}
            description={t('approvals.settings.enabledHint')}
            checked={values.enabled}
            onChange={(event) => {
              const enabled = event.currentTarget.checked;
              setValues((v) => ({ ...v, enabled }));
              setErrors({});
            }}
          />
          <TextInput
            label={t('approvals.settings.codePrefix')}
            description={t('approvals.settings.codePrefixHint', { example: `${values.codePrefix || 'MEDI'}-${new Date().getFullYear()}-0042` })}
            withAsterisk
            maw={260}
            maxLength={8}
            value={values.codePrefix}
            onChange={(event) => {
              const codePrefix = event.currentTarget.value.toUpperCase();
              setValues((v) => ({ ...v, codePrefix }));
              setErrors((e) => ({ ...e, codePrefix: '' }));
            }}
            error={errors.codePrefix || undefined}
          />
          <Stack gap="xs">
            <Title order={2} size="h4">
              {t('approvals.settings.steps')}
            </Title>
            <Text size="sm" c="dimmed">
              {t('approvals.settings.stepsHint')}
            </Text>
            {candidates.length === 0 ? (
              <Alert color="yellow" data-testid="no-approvers">
                {t('approvals.settings.noApprovers')}
              </Alert>
            ) : null}
            <SortableList
              items={values.steps}
              itemKey={(step) => step.key}
              itemLabel={(step, index) => step.label || t('approvals.settings.stepN', { n: index + 1 })}
              onMove={(from, to) => setValues((v) => ({ ...v, steps: moveStep(v.steps, from, to - from) }))}
              testId="approval-steps"
            >
              {(step, index) => (
                <Group align="flex-start" wrap="wrap" gap="sm" data-testid="approval-step" style={{ flex: 1, minWidth: 0 }}>
                  <TextInput
                    label={t('approvals.settings.stepLabel', { n: index + 1 })}
                    withAsterisk
                    value={step.label}
                    data-step-name
                    onChange={(event) => setStep(index, { label: event.currentTarget.value })}
                    error={errors[`steps.${index}.label`]}
                    style={{ flex: '1 1 200px' }}
                  />
                  <MultiSelect
                    label={t('approvals.settings.approvers', { step: step.label || t('approvals.settings.stepN', { n: index + 1 }) })}
                    withAsterisk={values.enabled}
                    searchable
                    clearable
                    data={options}
                    value={step.approverIds.map(String)}
                    onChange={(ids) => setStep(index, { approverIds: ids.map(Number) })}
                    error={errors[`steps.${index}.approverIds`]}
                    nothingFoundMessage={t('approvals.settings.noneFound')}
                    style={{ flex: '2 1 240px' }}
                  />
                  <Button
                    variant="subtle"
                    color="#b02525"
                    mt={{ base: 0, sm: 24 }}
                    leftSection={<IconTrash size={16} aria-hidden />}
                    aria-label={t('approvals.settings.removeStep', { step: step.label || t('approvals.settings.stepN', { n: index + 1 }) })}
                    onClick={() => {
                      setValues((v) => ({ ...v, steps: v.steps.filter((_, i) => i !== index) }));
                      setErrors({});
                      // The button goes with its step: the focus goes to the step now in its place, not to the page's body.
                      focusStepName(index);
                    }}
                  >
                    {t('approvals.settings.remove')}
                  </Button>
                </Group>
              )}
            </SortableList>
            {warnings.length > 0 ? (
              <Alert color="yellow" title={t('approvals.settings.warningsTitle')} data-testid="approval-warnings">
                <Stack gap={4}>
                  {warnings.map((warning) => (
                    <Text key={warning} size="sm">
                      {warning}
                    </Text>
                  ))}
                </Stack>
              </Alert>
            ) : null}
            {errors.steps ? (
              <Text c="red.8" size="sm" role="alert">
                {errors.steps}
              </Text>
            ) : null}
            <Group>
              <Button
                variant="default"
                data-testid="approval-add-step"
                onClick={() => {
                  setValues((v) => ({
                    ...v,
                    steps: [
                      ...v.steps,
                      {
                        key: stepKey(
                          `korak-${v.steps.length + 1}`,
                          v.steps.map((s) => s.key),
                        ),
                        label: '',
                        approverIds: [],
                      },
                    ],
                  }));
                  // The new step's name is what the admin types next.
                  focusStepName(values.steps.length);
                }}
              >
                {t('approvals.settings.addStep')}
              </Button>
            </Group>
          </Stack>
          <Group>
            <Button type="submit" loading={save.isPending} ref={saveButton}>
              {t('form.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
};

/**
 * /admin/odobritve (issue 36 item 2): the admin switches approval before publishing on or off for
 * the platform's own courses or for one company's, names its steps (medical, legal and regulatory
 * by default) with the people who approve each (those holding 1071), and the approval code's prefix.
 */
export const ApprovalSettingsPage = () => {
  const { t } = useTranslation();
  const companies = useQuery(companiesQuery);
  const [scope, setScope] = useState<string>('platform');
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('pages.admin.approvalSettings')}
      </Title>
      <Text c="dimmed" size="sm">
        {t('approvals.settings.about')}
      </Text>
      <Select
        label={t('approvals.settings.scope')}
        allowDeselect={false}
        searchable
        maw={420}
        data={[{ value: 'platform', label: t('approvals.settings.platform') }, ...(companies.data ?? []).map((c) => ({ value: String(c.id), label: c.name }))]}
        value={scope}
        onChange={(value) => setScope(value ?? 'platform')}
        data-testid="approval-scope"
      />
      <SettingsForm key={scope} scope={scope === 'platform' ? 'platform' : Number(scope)} />
    </Stack>
  );
};
