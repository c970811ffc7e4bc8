import { ActionIcon, Anchor, Badge, Button, Center, Group, Loader, Select, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconX } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { type AcademyFields, academyRule } from '../../../../../domain/courses/academy.rules.ts';
import { DeleteAction, FormCard } from '../../../components/form-card.tsx';
import { moved, SortableList } from '../../../components/sortable-list.tsx';
import { useZodForm } from '../../../lib/use-zod-form.ts';
import { type AcademyAction, type AdminAcademyCourse, changeAcademy, createAcademy, getAdminAcademy, updateAcademy } from '../api/admin-academies.ts';
import { listCourseOptions } from '../api/admin-courses.ts';
import { points } from './course-badges.tsx';
import { CoverField } from './cover-field.tsx';

const EMPTY: AcademyFields = { title: '', description: '', cover: '', courseIds: [] };
// A dark outline stays readable (WCAG AA) on white.
const PUBLISHED_COLOR = '#1b6e2f';
const DRAFT_COLOR = '#495057';

/** Credit points have one decimal (spec §9): the total without float noise. */
const total = (courses: readonly { creditPoints: number }[]) => Math.round(courses.reduce((sum, c) => sum + c.creditPoints * 10, 0)) / 10;

/**
 * /admin/academies/new and /admin/academies/{id}/general (issue 15): an academy's title, description
 * and cover with the domain's own validation and Slovenian messages, its courses picked from the
 * course list and put in order (dragging or arrows), their total credit points, publishing and
 * deleting. A new academy continues to its general page.
 */
export const AcademyGeneralPage = ({ id }: { id: number | null }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const academy = useQuery({ queryKey: ['academies', 'authored', id], queryFn: () => getAdminAcademy(id as number), enabled: id !== null });
  const options = useQuery({ queryKey: ['admin-courses', 'options'], queryFn: listCourseOptions });
  const form = useZodForm(academyRule, EMPTY);
  const [search, setSearch] = useState('');
  const loaded = academy.data;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the form is filled once per loaded academy.
  useEffect(() => {
    if (loaded) form.reset({ title: loaded.title, description: loaded.description, cover: loaded.cover, courseIds: loaded.courseIds });
  }, [loaded]);

  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: ['academies'] });
    await queryClient.invalidateQueries({ queryKey: ['admin-courses'] });
  };
  const save = useMutation({
    mutationFn: (input: AcademyFields) => (id === null ? createAcademy(input) : updateAcademy(id, input)),
    onSuccess: async (result) => {
      await refresh();
      notifications.show({ color: 'teal', message: t(id === null ? 'academies.admin.created' : 'form.saved') });
      if (id === null) navigate(`/admin/academies/${result.id}/general`);
    },
    onError: form.notifyServerErrors,
  });
  const act = useMutation({
    mutationFn: (action: AcademyAction) => changeAcademy(id as number, action),
    onSuccess: async (_result, action) => {
      await refresh();
      notifications.show({ color: 'teal', message: t(`academies.admin.done.${action}`) });
    },
    onError: (error) => notifications.show({ color: 'red', message: error.message }),
  });

  if (id !== null && academy.isPending)
    return (
      <Center py="xl">
        <Loader role="status" aria-label={t('common.loading')} />
      </Center>
    );
  if (id !== null && !academy.data)
    return (
      <Stack>
        <Title order={1} size="h2">
          {t('pages.admin.academyGeneral')}
        </Title>
        <Text>{t('academies.notFound')}</Text>
      </Stack>
    );

  const v = form.values;
  const e = form.errors;
  // What is known of each course: the academy's own (also those past the option list's first hundred), then the options.
  const known = new Map<number, AdminAcademyCourse>();
  for (const c of options.data ?? []) known.set(c.id, c);
  for (const c of academy.data?.courses ?? []) known.set(c.id, c);
  const chosen = v.courseIds.map(
    (courseId) => known.get(courseId) ?? { id: courseId, title: t('academies.admin.courseN', { id: courseId }), creditPoints: 0, published: false, status: '' },
  );
  const free = (options.data ?? []).filter((c) => !v.courseIds.includes(c.id));

  return (
    <FormCard
      title={id === null ? t('pages.admin.academyNew') : (academy.data?.title ?? '')}
      backTo="/admin/courses"
      backLabel={t('academies.admin.back')}
      submitting={save.isPending}
      submitLabel={t(id === null ? 'form.create' : 'form.save')}
      onSubmit={() => {
        const parsed = form.validate();
        if (parsed) save.mutate(parsed);
      }}
      actions={
        id === null || !academy.data ? null : (
          <>
            <Button variant="default" loading={act.isPending} onClick={() => act.mutate(academy.data.published ? 'unpublish' : 'publish')}>
              {t(academy.data.published ? 'academies.admin.unpublish' : 'academies.admin.publish')}
            </Button>
            <DeleteAction
              question={t('academies.admin.deleteQuestion', { title: academy.data.title })}
              remove={() => changeAcademy(id, 'delete')}
              invalidate={['academies', 'admin-courses']}
              backTo="/admin/courses"
            />
          </>
        )
      }
    >
      {id !== null && academy.data ? (
        <Group gap="md">
          <Badge variant="outline" color={academy.data.published ? PUBLISHED_COLOR : DRAFT_COLOR} data-testid="academy-published">
            {t(academy.data.published ? 'academies.admin.published' : 'academies.admin.unpublished')}
          </Badge>
          <Anchor component={Link} to={`/admin/academies/${id}/success/0`} size="sm">
            {t('academies.admin.success')}
          </Anchor>
        </Group>
      ) : null}
      <TextInput label={t('adminCourses.title')} withAsterisk value={v.title} onChange={(x) => form.set('title', x.currentTarget.value)} error={e.title} />
      <Textarea
        label={t('adminCourses.form.description')}
        description={t('adminCourses.form.descriptionHint')}
        withAsterisk
        autosize
        minRows={3}
        value={v.description}
        onChange={(x) => form.set('description', x.currentTarget.value)}
        error={e.description}
      />
      <CoverField value={v.cover} onChange={(cover) => form.set('cover', cover)} error={e.cover} />
      <Stack gap="xs">
        <Title order={2} size="h5">
          {t('academies.admin.courses')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('academies.admin.coursesHint')}
        </Text>
        {chosen.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('academies.admin.noCourses')}
          </Text>
        ) : (
          <SortableList
            testId="academy-courses"
            items={chosen}
            itemKey={(c) => c.id}
            itemLabel={(c) => c.title}
            onMove={(from, to) => form.set('courseIds', moved(v.courseIds, from, to))}
          >
            {(c) => (
              <Group justify="space-between" wrap="nowrap" gap="xs">
                <Group gap="xs">
                  <Text size="sm" fw={500} data-testid="academy-course">
                    {c.title}
                  </Text>
                  {c.published ? null : (
                    <Badge variant="outline" color={DRAFT_COLOR} size="sm">
                      {t('adminCourses.unpublished')}
                    </Badge>
                  )}
                </Group>
                <Group gap="xs" wrap="nowrap">
                  <Text size="sm" c="dimmed">
                    {t('academies.admin.coursePoints', { points: points(c.creditPoints) })}
                  </Text>
                  <ActionIcon
                    variant="subtle"
                    color="red.9"
                    size="sm"
                    aria-label={t('academies.admin.remove', { title: c.title })}
                    onClick={() =>
                      form.set(
                        'courseIds',
                        v.courseIds.filter((x) => x !== c.id),
                      )
                    }
                  >
                    <IconX size={14} />
                  </ActionIcon>
                </Group>
              </Group>
            )}
          </SortableList>
        )}
        <Select
          label={t('academies.admin.addCourse')}
          placeholder={t('academies.admin.addCoursePlaceholder')}
          searchable
          nothingFoundMessage={t('academies.admin.noMoreCourses')}
          data={free.map((c) => ({ value: String(c.id), label: c.title }))}
          value={null}
          searchValue={search}
          onSearchChange={setSearch}
          onChange={(value) => {
            if (value === null) return;
            form.set('courseIds', [...v.courseIds, Number(value)]);
            setSearch('');
          }}
          error={e.courseIds}
        />
        <Text fw={500} data-testid="academy-credit-points">
          {t('academies.admin.totalPoints', { points: points(total(chosen)) })}
        </Text>
      </Stack>
    </FormCard>
  );
};
