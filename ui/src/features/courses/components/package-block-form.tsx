import { Alert, Badge, Button, FileInput, Group, List, NumberInput, Paper, Progress, Radio, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconPackage } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { PACKAGE_COMPLETION, packageBlockRule } from '../../../../../domain/courses/course.rules.ts';
import { type ContentPackage, getPackage, type PackageItem, type PackageStandard, uploadPackage } from '../api/packages.ts';
import { type BlockTarget, useBlockForm } from '../hooks/use-block-form.ts';
import { standardText } from '../lib/package-items.ts';
import { BlockFormFrame, BlockNameField } from './block-form-frame.tsx';

type PackageInput = z.input<typeof packageBlockRule>;
type ItemInput = NonNullable<PackageInput['items']>[number];

/** A new package block: no package yet (id 0 is none), done when every item is completed. */
export const EMPTY_PACKAGE: PackageInput = { kind: 'package', name: '', packageId: 0, completion: 'completed', threshold: null };

/** What the form shows of a package: the server's description, or for a saved block what the block kept of it. */
type Shown = { standard: PackageStandard; version: string | null; title: string | null; items: readonly PackageItem[] };

const PackageSummary = ({ shown }: { shown: Shown }) => {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="md" radius="md" data-testid="package-summary">
      <Stack gap="xs">
        <Group gap="xs">
          <IconPackage size={20} aria-hidden />
          <Text fw={600}>{shown.title ?? ''}</Text>
          <Badge variant="light" data-testid="package-standard">
            {standardText(t, shown.standard, shown.version)}
          </Badge>
        </Group>
        <Text size="sm" fw={500} id="package-items-heading">
          {t('blocks.package.items')}
        </Text>
        <List size="sm" spacing={4} aria-labelledby="package-items-heading" data-testid="package-items">
          {shown.items.map((item) => (
            <List.Item key={item.id}>
              {item.title}
              {item.masteryScore !== null ? <Text span c="dimmed" size="sm">{` · ${t('blocks.package.mastery', { score: item.masteryScore })}`}</Text> : null}
              {item.moveOn !== null ? (
                <Text span c="dimmed" size="sm">
                  {` · ${t('blocks.package.moveOn', { condition: t(`blocks.package.moveOns.${item.moveOn}`, { defaultValue: item.moveOn }) })}`}
                </Text>
              ) : null}
            </List.Item>
          ))}
        </List>
      </Stack>
    </Paper>
  );
};

/**
 * The package editor (issue 35 item 1): the block's name, a zip uploaded to the server, which reads
 * its manifest and refuses a malformed or hostile one with a message naming what is wrong; the
 * package's standard, title and items (SCOs or AUs) with their mastery score or cmi5 moveOn; and the
 * author's rule for when the block is done. A saved block shows its package and may take a new one.
 */
export const PackageBlockForm = (props: { title: string; initial: PackageInput; target: BlockTarget; backTo: string; actions?: ReactNode }) => {
  const { t } = useTranslation();
  const { form, submit, submitting } = useBlockForm(packageBlockRule, props.initial, props.target);
  const v = form.values;
  const e = form.errors;
  const [file, setFile] = useState<File | null>(null);
  const [uploaded, setUploaded] = useState<ContentPackage | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const savedId = props.initial.packageId;
  const saved = useQuery({
    queryKey: ['package', savedId],
    queryFn: () => getPackage(savedId),
    enabled: savedId > 0,
    retry: false,
  });
  const upload = useMutation({
    mutationFn: uploadPackage,
    onMutate: () => setRefusal(null),
    onSuccess: (pack) => {
      setUploaded(pack);
      setFile(null);
      form.set('packageId', pack.id);
      form.set('standard', pack.standard);
      form.set('items', pack.items as ItemInput[]);
      if (v.name.trim() === '') form.set('name', pack.title.slice(0, 200));
      notifications.show({ color: 'teal', message: t('blocks.package.uploaded', { title: pack.title }) });
    },
    onError: (error) => setRefusal(error.message || t('blocks.uploadFailed')),
  });

  const fromServer = uploaded ?? (saved.data?.id === v.packageId ? saved.data : null);
  const shown: Shown | null = fromServer
    ? fromServer
    : v.packageId > 0 && v.standard && v.items
      ? { standard: v.standard, version: null, title: null, items: v.items as PackageItem[] }
      : null;
  // No package yet: say what to do (the id rule's own message speaks of an id); otherwise the server's word about it.
  const missing = e.packageId ? (v.packageId > 0 ? e.packageId : t('blocks.package.required')) : undefined;

  return (
    <BlockFormFrame title={props.title} backTo={props.backTo} submit={submit} submitting={submitting} actions={props.actions}>
      <BlockNameField value={v.name} onChange={(name) => form.set('name', name)} error={e.name} />
      <Stack gap="xs">
        {shown ? <PackageSummary shown={shown} /> : null}
        {!fromServer && savedId > 0 && saved.isError ? (
          <Text size="sm" c="dimmed">
            {t('blocks.package.loadFailed')}
          </Text>
        ) : null}
        <Group align="flex-end" gap="sm" wrap="wrap">
          <FileInput
            style={{ flex: '1 1 260px' }}
            label={t('blocks.package.file')}
            description={shown ? t('blocks.package.replaceHint') : t('blocks.package.fileHint')}
            accept=".zip,application/zip,application/x-zip-compressed"
            withAsterisk={!shown}
            clearable
            value={file}
            onChange={(chosen) => {
              setFile(chosen);
              setRefusal(null);
            }}
            error={refusal !== null || missing !== undefined ? (missing ?? true) : undefined}
            disabled={upload.isPending}
          />
          <Button
            variant={shown ? 'default' : 'filled'}
            loading={upload.isPending}
            onClick={() => {
              if (file) upload.mutate(file);
              else setRefusal(t('blocks.package.chooseFile'));
            }}
          >
            {shown ? t('blocks.package.replace') : t('blocks.package.upload')}
          </Button>
        </Group>
        {upload.isPending ? (
          <Stack gap={4} role="status">
            <Text size="sm">{t('blocks.package.uploading')}</Text>
            <Progress value={100} striped animated aria-label={t('blocks.package.uploading')} />
          </Stack>
        ) : null}
        {refusal !== null ? (
          <Alert
            color="red"
            variant="light"
            icon={<IconAlertTriangle size={18} aria-hidden />}
            title={t('blocks.package.refused')}
            data-testid="package-refusal"
          >
            {refusal}
          </Alert>
        ) : null}
      </Stack>
      <Radio.Group
        label={t('blocks.package.completion')}
        withAsterisk
        value={v.completion}
        onChange={(value) => {
          form.set('completion', value as PackageInput['completion']);
          if (value !== 'score') form.set('threshold', null);
        }}
        error={e.completion}
      >
        <Stack gap={6} mt={6}>
          {PACKAGE_COMPLETION.map((rule) => (
            <Radio key={rule} value={rule} label={t(`blocks.package.completions.${rule}`)} />
          ))}
        </Stack>
      </Radio.Group>
      {v.completion === 'score' ? (
        <NumberInput
          label={t('blocks.package.threshold')}
          description={t('blocks.package.thresholdHint')}
          withAsterisk
          min={0}
          max={100}
          allowDecimal={false}
          allowNegative={false}
          clampBehavior="none"
          maw={240}
          value={v.threshold ?? ''}
          onChange={(x) => form.set('threshold', typeof x === 'number' ? x : null)}
          error={e.threshold}
        />
      ) : null}
    </BlockFormFrame>
  );
};
