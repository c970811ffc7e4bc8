import { Center, Loader, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import { DeleteAction, FormCard } from '../../../components/form-card.tsx';
import { useZodForm } from '../../../lib/use-zod-form.ts';

const Loading = () => {
  const { t } = useTranslation();
  return (
    <Center py="xl">
      <Loader role="status" aria-label={t('common.loading')} />
    </Center>
  );
};

/**
 * The editor of a named record (a community group, a profession, a profession group): it loads
 * the record under `/api/{queryKey}` (id null: a new one), fills the form once it has come, and
 * saves it; the list queries refresh, and a new record opens its own page under `path`.
 */
export const useNamedRecordForm = <Schema extends z.ZodType, Loaded>(options: {
  id: number | null;
  queryKey: string;
  path: string;
  rule: Schema;
  empty: z.input<Schema>;
  get: (id: number) => Promise<Loaded>;
  toForm: (loaded: Loaded) => z.input<Schema>;
  save: (id: number | null, input: z.input<Schema>) => Promise<{ id: number }>;
}) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { id } = options;
  const record = useQuery({ queryKey: [options.queryKey, id], queryFn: () => options.get(id as number), enabled: id !== null });
  const form = useZodForm(options.rule, options.empty);
  const loaded = record.data;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the form is filled once per loaded record.
  useEffect(() => {
    if (loaded) form.reset(options.toForm(loaded));
  }, [loaded]);
  const save = useMutation({
    mutationFn: (input: z.input<Schema>) => options.save(id, input),
    onSuccess: async (result) => {
      await queryClient.invalidateQueries({ queryKey: [options.queryKey] });
      notifications.show({ color: 'teal', message: t(id === null ? 'form.created' : 'form.saved') });
      if (id === null) navigate(`${options.path}/${result.id}`);
    },
    onError: (error) => {
      const message = form.serverErrors(error);
      if (message) notifications.show({ color: 'red', message });
    },
  });
  const values = form.values as { name: string };
  return {
    id,
    queryKey: options.queryKey,
    path: options.path,
    record,
    form,
    saving: save.isPending,
    submit: () => {
      if (form.validate()) save.mutate(form.values);
    },
    name: { value: values.name, error: form.errors.name, set: (name: string) => form.set('name' as never, name as never) },
  };
};

/** What the card needs of useNamedRecordForm, whatever the record's rule. */
type NamedRecordEditor = {
  id: number | null;
  queryKey: string;
  path: string;
  record: { isPending: boolean; data?: { name: string } | undefined };
  saving: boolean;
  submit: () => void;
  name: { value: string; error: string | undefined; set: (name: string) => void };
};

/**
 * The card of a named record's editor: a spinner while it loads, "not found" when it is gone,
 * else its name first, then `children`; Create or Save, and Delete where `deleteQuestion` is given.
 */
export const NamedRecordFormCard = ({
  editor,
  newTitle,
  nameLabel,
  deletion,
  children,
}: {
  editor: NamedRecordEditor;
  newTitle: string;
  nameLabel: string;
  deletion?: { question: string; remove: (id: number) => Promise<unknown> };
  children?: ReactNode;
}) => {
  const { t } = useTranslation();
  const { id, record, name } = editor;
  if (id !== null && record.isPending) return <Loading />;
  if (id !== null && !record.data) return <Text>{t('form.notFound')}</Text>;
  return (
    <FormCard
      title={id === null ? newTitle : (record.data?.name ?? '')}
      backTo={editor.path}
      submitting={editor.saving}
      submitLabel={t(id === null ? 'form.create' : 'form.save')}
      onSubmit={editor.submit}
      actions={
        id !== null && deletion ? (
          <DeleteAction question={deletion.question} remove={() => deletion.remove(id)} invalidate={[editor.queryKey]} backTo={editor.path} />
        ) : null
      }
    >
      <TextInput label={nameLabel} value={name.value} onChange={(x) => name.set(x.currentTarget.value)} error={name.error} withAsterisk />
      {children}
    </FormCard>
  );
};
