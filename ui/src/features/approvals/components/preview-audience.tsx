import { Badge, Group, List, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { VersionNames } from '../api/approval-names.ts';

type Audience = { byProfession?: boolean; professionIds?: number[]; unitIds?: number[]; companyIds?: number[]; groupIds?: number[] };

const ids = (value: unknown): number[] => (Array.isArray(value) ? value.filter((v): v is number => typeof v === 'number') : []);

/**
 * Whom the version reaches, by name (issue 36 item 2): public; nobody (no target); or the units,
 * companies and community groups (any of them) and the professions (one of them), as the course's
 * audience rule reads them (domain/courses/course-audience.ts). Each profession says whether it may
 * prescribe or supply medicines, so the reviewer of an RX course sees at once whom it would reach.
 * A name not found (deleted since, or not loaded) shows as its id.
 */
export const PreviewAudience = ({ audience, isPublic, rx, names }: { audience: unknown; isPublic: boolean; rx: boolean; names: VersionNames | undefined }) => {
  const { t } = useTranslation();
  const a = (typeof audience === 'object' && audience !== null ? audience : {}) as Audience;
  const professions = ids(a.professionIds);
  const units = ids(a.unitIds);
  const companies = ids(a.companyIds);
  const groups = ids(a.groupIds);
  const unknown = (id: number) => t('approvals.preview.unknownName', { id });
  const nameOf = (list: { id: number; name: string }[] | undefined, id: number) => list?.find((item) => item.id === id)?.name ?? unknown(id);
  const byOrganisation = units.length + companies.length + groups.length > 0;
  let summary: string;
  if (isPublic) summary = t('approvals.preview.audiencePublic');
  else if (!byOrganisation && professions.length === 0) summary = t('approvals.preview.audienceNobody');
  else if (byOrganisation && professions.length > 0) summary = t('approvals.preview.audienceBoth');
  else if (byOrganisation) summary = t('approvals.preview.audienceOrganisation');
  else summary = t('approvals.preview.audienceProfessions');
  const section = (label: string, items: { key: number; text: string; badge?: ReactNode }[], testId: string) =>
    items.length === 0 ? null : (
      <Stack gap={2} data-testid={testId}>
        <Text size="sm" fw={600}>
          {label}
        </Text>
        <List size="sm" spacing={2}>
          {items.map((item) => (
            <List.Item key={item.key}>
              <Group gap={6} wrap="wrap" component="span">
                <span>{item.text}</span>
                {item.badge}
              </Group>
            </List.Item>
          ))}
        </List>
      </Stack>
    );
  return (
    <Stack gap="xs" data-testid="preview-audience">
      <Text size="sm" fw={700}>
        {t('approvals.fields.audience')}
      </Text>
      <Text size="sm">{summary}</Text>
      {section(
        t('approvals.preview.professions'),
        professions.map((id) => {
          const profession = names?.professions.find((p) => p.id === id);
          const may = profession?.mayPrescribe ?? false;
          return {
            key: id,
            text: profession?.name ?? unknown(id),
            badge: names ? (
              <Badge size="sm" variant="light" color={may ? 'teal' : rx ? 'red' : 'gray'} tt="none">
                {t(may ? 'approvals.preview.mayPrescribe' : rx ? 'approvals.preview.rxRefused' : 'approvals.preview.mayNotPrescribe')}
              </Badge>
            ) : undefined,
          };
        }),
        'audience-professions',
      )}
      {section(
        t('approvals.preview.units'),
        units.map((id) => {
          const unit = names?.units.find((u) => u.id === id);
          return { key: id, text: unit ? (unit.companyName ? `${unit.name} (${unit.companyName})` : unit.name) : unknown(id) };
        }),
        'audience-units',
      )}
      {section(
        t('approvals.preview.companies'),
        companies.map((id) => ({ key: id, text: nameOf(names?.companies, id) })),
        'audience-companies',
      )}
      {section(
        t('approvals.preview.groups'),
        groups.map((id) => ({ key: id, text: nameOf(names?.groups, id) })),
        'audience-groups',
      )}
    </Stack>
  );
};
