import { Alert, Center, Loader, MultiSelect, Paper, Stack, Switch, Table, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { courseRule } from '../../../../../domain/courses/course.rules.ts';
import { COURSE_TYPE, COURSE_TYPE_HELP, isPrescriptionOnly } from '../../../../../domain/courses/course-types.rules.ts';
import { FormCard } from '../../../components/form-card.tsx';
import { TableRegion } from '../../../components/table-region.tsx';
import { audienceOptions } from '../../../lib/audience-options.ts';
import { formatDateTime } from '../../../lib/i18n.ts';
import { useZodForm } from '../../../lib/use-zod-form.ts';
import { type CourseInput, getAuthoredCourse, updateCourse } from '../api/admin-courses.ts';
import { type Audience, countAudience, listCourseParticipants } from '../api/course-audience.ts';

const NOBODY: Audience = { byProfession: false, professionIds: [], unitIds: [], companyIds: [], groupIds: [] };
type Targets = 'unitIds' | 'companyIds' | 'groupIds' | 'professionIds';

/**
 * /admin/courses/{id}/participants (issue 15): who the course is for (public, or units, companies,
 * community groups and professions), with a live count of who would see it before saving, and who
 * took it with their progress. The course rule decides: a public course targets nobody in
 * particular, and targeting by profession needs at least one profession.
 */
export const CourseParticipantsPage = ({ id }: { id: number }) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const course = useQuery({ queryKey: ['admin-courses', 'authored', id], queryFn: () => getAuthoredCourse(id) });
  const options = useQuery({ queryKey: ['course-audience', 'options'], queryFn: audienceOptions, staleTime: 60_000 });
  const participants = useQuery({ queryKey: ['admin-courses', 'participants', id], queryFn: () => listCourseParticipants(id) });
  const form = useZodForm(courseRule, { type: 3, title: '', description: '', cover: '', creditPoints: 0 } as CourseInput);
  const [filled, setFilled] = useState(false);
  const loaded = course.data;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the form is filled once per loaded course.
  useEffect(() => {
    if (loaded) {
      form.reset(loaded.fields);
      setFilled(true);
    }
  }, [loaded]);
  const isPublic = Boolean(form.values.public);
  const audience: Audience = { ...NOBODY, ...(form.values.audience ?? {}) } as Audience;
  const [draft] = useDebouncedValue(JSON.stringify({ isPublic, audience, type: form.values.type }), 300);
  const count = useQuery({
    queryKey: ['course-audience', 'count', draft],
    queryFn: () => {
      const parsed = JSON.parse(draft) as { isPublic: boolean; audience: Audience; type: number };
      return countAudience(parsed.isPublic, parsed.audience, parsed.type);
    },
    enabled: filled,
    placeholderData: keepPreviousData,
  });
  const save = useMutation({
    mutationFn: (input: CourseInput) => updateCourse(id, input),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['admin-courses'] });
      notifications.show({ color: 'teal', message: t('form.saved') });
    },
    onError: form.notifyServerErrors,
  });

  if (course.isPending)
    return (
      <Center py="xl">
        <Loader role="status" aria-label={t('common.loading')} />
      </Center>
    );
  if (!course.data) return <Text>{t('form.notFound')}</Text>;

  const e = form.errors;
  const setTargets = (key: Targets, values: string[]) => form.set('audience', { ...audience, [key]: values.map(Number) });
  const targets = (key: Targets, label: string, data: { value: string; label: string }[] | undefined) => (
    <MultiSelect
      label={label}
      searchable
      clearable
      disabled={isPublic}
      data={data ?? []}
      value={audience[key].map(String)}
      onChange={(values) => setTargets(key, values)}
      error={e[`audience.${key}`]}
    />
  );

  return (
    <Stack gap="md">
      <FormCard
        title={t('adminCourses.participants.title', { course: course.data.fields.title })}
        backTo="/admin/courses"
        submitting={save.isPending}
        submitLabel={t('form.save')}
        onSubmit={() => {
          if (form.validate()) save.mutate(form.values);
        }}
      >
        <Switch
          label={t('adminCourses.form.public')}
          checked={isPublic}
          onChange={(x) => {
            const next = x.currentTarget.checked;
            form.set('public', next);
            // A public course is for everyone: it keeps no targets (spec §5).
            if (next) form.set('audience', NOBODY);
          }}
          error={e.public}
        />
        {targets('unitIds', t('adminCourses.participants.units'), options.data?.units)}
        {targets('companyIds', t('adminCourses.participants.companies'), options.data?.companies)}
        {targets('groupIds', t('adminCourses.participants.groups'), options.data?.groups)}
        <Switch
          label={t('adminCourses.participants.byProfession')}
          disabled={isPublic}
          checked={audience.byProfession}
          onChange={(x) =>
            form.set('audience', { ...audience, byProfession: x.currentTarget.checked, professionIds: x.currentTarget.checked ? audience.professionIds : [] })
          }
        />
        {audience.byProfession ? targets('professionIds', t('adminCourses.participants.professions'), options.data?.professions) : null}
        {isPrescriptionOnly(form.values.type) ? (
          <Text size="sm" c="dimmed" data-testid="rx-audience-rule">
            {COURSE_TYPE_HELP[COURSE_TYPE.rx]}
          </Text>
        ) : null}
        <Alert color="blue" variant="light" data-testid="audience-count" aria-live="polite">
          {count.data === undefined ? t('common.loading') : t('adminCourses.participants.count', { count: count.data })}
        </Alert>
      </FormCard>

      <Paper withBorder radius="md" p="lg">
        <Title order={2} size="h4" mb="sm">
          {t('adminCourses.participants.list')}
        </Title>
        {(participants.data ?? []).length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('adminCourses.participants.none')}
          </Text>
        ) : (
          <TableRegion label={t('adminCourses.participants.list')}>
            <Table striped aria-label={t('adminCourses.participants.list')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('adminCourses.participants.name')}</Table.Th>
                  <Table.Th>{t('adminCourses.status')}</Table.Th>
                  <Table.Th>{t('adminCourses.participants.progress')}</Table.Th>
                  <Table.Th>{t('adminCourses.participants.started')}</Table.Th>
                  <Table.Th>{t('adminCourses.participants.completed')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {(participants.data ?? []).map((p) => (
                  <Table.Tr key={p.userId}>
                    <Table.Td>{p.name}</Table.Td>
                    <Table.Td>{t(`adminCourses.participants.statuses.${p.status}`, { defaultValue: p.status })}</Table.Td>
                    <Table.Td>{t('courses.progress', { done: p.blocksDone, total: p.blocksCount })}</Table.Td>
                    <Table.Td>{formatDateTime(p.startedAt)}</Table.Td>
                    <Table.Td>{p.completedAt ? formatDateTime(p.completedAt) : '–'}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </TableRegion>
        )}
      </Paper>
    </Stack>
  );
};
