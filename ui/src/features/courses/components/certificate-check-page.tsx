import { Alert, Button, Center, Container, Group, Loader, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError } from '../../../lib/api-client.ts';
import { formatDate } from '../../../lib/i18n.ts';
import { certificateCheckPath, checkCertificate } from '../api/certificates.ts';
import { points } from './course-badges.tsx';

/** Another number to check, typed by hand. */
const Lookup = ({ initial }: { initial: string }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [value, setValue] = useState(initial);
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (value.trim()) navigate(certificateCheckPath(value.trim().toUpperCase()));
      }}
    >
      <Group align="flex-end" gap="xs">
        <TextInput label={t('certificateCheck.lookupLabel')} value={value} onChange={(e) => setValue(e.currentTarget.value)} flex={1} maxLength={64} />
        <Button type="submit" variant="default">
          {t('certificateCheck.check')}
        </Button>
      </Group>
    </form>
  );
};

/**
 * /certifikat/{number} (issue 18 item 3, decision 0032): a public page where anyone, without
 * signing in, checks a certificate whose number they have (the QR code on the PDF leads here). It
 * shows what the certificate shows, or that there is no such certificate.
 */
export const CertificateCheckPage = ({ number }: { number: string }) => {
  const { t } = useTranslation();
  const check = useQuery({ queryKey: ['certificate-check', number], queryFn: () => checkCertificate(number), retry: false });
  const status = check.error instanceof ApiError ? check.error.status : 0;
  const c = check.data;
  const row = (label: string, value: React.ReactNode) => (
    <Table.Tr>
      <Table.Th w="40%">{label}</Table.Th>
      <Table.Td>{value}</Table.Td>
    </Table.Tr>
  );
  return (
    <Container size="sm" py="xl">
      <Stack>
        <Title order={1} size="h2">
          {t('pages.certificateVerify')}
        </Title>
        {check.isPending ? (
          <Center py="xl">
            <Loader role="status" aria-label={t('common.loading')} />
          </Center>
        ) : c ? (
          <Paper withBorder radius="md" p="lg">
            <Stack gap="md">
              <Alert color="brand" variant="filled" icon={<IconCircleCheck aria-hidden />} data-testid="certificate-valid">
                {t('certificateCheck.valid')}
              </Alert>
              <Table verticalSpacing="xs">
                <Table.Tbody>
                  {row(t('certificateCheck.number'), <Text ff="monospace">{c.number}</Text>)}
                  {row(t('certificateCheck.participant'), c.participantName)}
                  {row(t('certificateCheck.course'), c.courseTitle)}
                  {row(t('certificateCheck.creditPoints'), points(c.creditPoints))}
                  {row(t('certificateCheck.chamber'), c.chamber ?? t('certificateCheck.none'))}
                  {row(t('certificateCheck.issuer'), c.issuer ?? 'Medilearn')}
                  {row(t('certificateCheck.completedAt'), formatDate(c.completedAt))}
                </Table.Tbody>
              </Table>
            </Stack>
          </Paper>
        ) : (
          <Alert color={status === 404 ? 'red' : 'yellow'} role="alert" data-testid="certificate-invalid">
            {t(status === 404 ? 'certificateCheck.missing' : status === 429 ? 'certificateCheck.tooMany' : 'certificateCheck.failed', { number })}
          </Alert>
        )}
        <Lookup key={number} initial={c ? '' : number} />
      </Stack>
    </Container>
  );
};
