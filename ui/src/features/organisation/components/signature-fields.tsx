import { FileInput, Grid, Image, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { signatureRule } from '../../../../../domain/organisation/organisation.rules.ts';
import type { useZodForm } from '../../../lib/use-zod-form.ts';
import { fileObjectUrl, uploadImage } from '../api/companies.ts';

type SignatureForm = ReturnType<typeof useZodForm<typeof signatureRule>>;

/** A certificate signature's fields (spec §3: name, role, PNG image), shared by a company's and a unit's card. */
export const SignatureFields = ({ form }: { form: SignatureForm }) => {
  const { t } = useTranslation();
  return (
    <>
      <Grid>
        <Grid.Col span={{ base: 12, md: 6 }}>
          <TextInput
            label={t('organisation.company.signatureName')}
            value={form.values.name}
            onChange={(x) => form.set('name', x.currentTarget.value)}
            error={form.errors.name}
            withAsterisk
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 6 }}>
          <TextInput
            label={t('organisation.company.signatureRole')}
            value={form.values.role}
            onChange={(x) => form.set('role', x.currentTarget.value)}
            error={form.errors.role}
            withAsterisk
          />
        </Grid.Col>
      </Grid>
      <SignatureImage fileId={form.values.imageFileId ?? null} onChange={(id) => form.set('imageFileId', id)} error={form.errors.imageFileId} />
    </>
  );
};

/** The signature image: a PNG uploaded at once, previewed, and saved with the signature. */
const SignatureImage = ({ fileId, onChange, error }: { fileId: number | null; onChange: (id: number | null) => void; error: string | undefined }) => {
  const { t } = useTranslation();
  // Only a PNG is drawn on certificates (spec §3): another image is refused here, before it is uploaded.
  const [refused, setRefused] = useState<string | null>(null);
  const preview = useQuery({
    queryKey: ['files', fileId],
    queryFn: () => fileObjectUrl(fileId as number),
    enabled: fileId !== null,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const upload = useMutation({
    mutationFn: uploadImage,
    onSuccess: ({ id }) => onChange(id),
    onError: (error) => notifications.show({ color: 'red', message: error.message }),
  });
  return (
    <Stack gap="xs">
      <FileInput
        label={t('organisation.company.signatureImage')}
        description={t('organisation.company.signatureHint')}
        accept="image/png"
        clearable={fileId !== null}
        onChange={(file) => {
          setRefused(null);
          if (!file) onChange(null);
          else if (file.type !== 'image/png') setRefused(t('organisation.company.signaturePngOnly'));
          else upload.mutate(file);
        }}
        error={refused ?? error}
        disabled={upload.isPending}
      />
      {fileId !== null && preview.data ? (
        <Image src={preview.data} alt={t('organisation.company.signatureImage')} h={60} w={200} fit="contain" data-testid="signature-preview" />
      ) : null}
    </Stack>
  );
};
