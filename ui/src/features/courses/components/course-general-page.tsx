import {
  Button,
  Center,
  Grid,
  Group,
  Loader,
  MultiSelect,
  NumberInput,
  type NumberInputProps,
  Select,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { courseRule } from '../../../../../domain/courses/course.rules.ts';
import { COURSE_TYPE, COURSE_TYPE_HELP } from '../../../../../domain/courses/course-types.rules.ts';
import { DateTimeField } from '../../../components/date-fields.tsx';
import { FormCard } from '../../../components/form-card.tsx';
import { useFeature } from '../../../lib/features.ts';
import { useZodForm } from '../../../lib/use-zod-form.ts';
import { type CourseInput, createCourse, getAuthoredCourse, listCourseOptions, listCourseTagOptions, updateCourse } from '../api/admin-courses.ts';
import { CourseBlocksPanel } from './course-blocks-panel.tsx';
import { LiveFields, MoreCourseFields, ReminderFields } from './course-general-sections.tsx';
import { CoverField } from './cover-field.tsx';

const TYPES = [1, 2, 3, 4, 5, 6, 7, 8, 9];
/** NumberInput gives '' for an emptied field: NaN makes the rule say "enter a number" instead of saving 0. */
const toNumber = (x: string | number) => (typeof x === 'number' ? x : Number.NaN);
const EMPTY: CourseInput = {
  type: 3,
  title: '',
  description: '',
  cover: '',
  creditPoints: 0,
  public: false,
  intervals: [],
  prerequisites: [],
  certificateEnabled: true,
  postsEnabled: false,
  notificationsEnabled: false,
  discount: 0,
  sharedCostCents: 0,
  lecturer: null,
  durationMinutes: null,
  zoomUrl: null,
  interactrHtml: null,
  externalId: null,
  syncDestination: null,
  tagIds: [],
  detailNps: false,
  reminder: null,
  notificationEmails: [],
  live: null,
  vimeoId: null,
  typeformId: null,
  campaignPackage: 0,
};

/**
 * /admin/courses/new and /admin/courses/{id}/general (issue 15): the course's §3 fields with the
 * domain's own validation and Slovenian messages; fields of a feature that is off (spec §1) are not
 * shown. A new course continues to its general page for further editing (spec §4). The audience is
 * kept as it is: the participants tab sets it.
 */
/**
 * `platformAuthor`: a system author (1017). A company's own author (a client, decision 0009) writes
 * courses for their community, never public, and course tags are the platform's: neither is offered.
 */
export const CourseGeneralPage = ({ id, platformAuthor = true }: { id: number | null; platformAuthor?: boolean }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const course = useQuery({ queryKey: ['admin-courses', 'authored', id], queryFn: () => getAuthoredCourse(id as number), enabled: id !== null });
  const others = useQuery({ queryKey: ['admin-courses', 'options'], queryFn: listCourseOptions });
  const tags = useQuery({ queryKey: ['admin-courses', 'tag-options'], queryFn: listCourseTagOptions, enabled: platformAuthor });
  const live = useFeature('liveCourses') === true;
  const form = useZodForm(courseRule, EMPTY);
  const zoom = useFeature('zoom') === true;
  const interactr = useFeature('interactr') === true;
  const externalIds = useFeature('externalId') === true;
  const loaded = course.data;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the form is filled once per loaded course.
  useEffect(() => {
    if (loaded) form.reset({ ...EMPTY, ...loaded.fields });
  }, [loaded]);

  const save = useMutation({
    mutationFn: (input: CourseInput) => (id === null ? createCourse(input) : updateCourse(id, input)),
    onSuccess: async (result) => {
      await queryClient.invalidateQueries({ queryKey: ['admin-courses'] });
      notifications.show({ color: 'teal', message: t(id === null ? 'adminCourses.form.created' : 'form.saved') });
      if (id === null) navigate(`/admin/courses/${result.id}/general`);
    },
    onError: form.notifyServerErrors,
  });

  if (id !== null && course.isPending)
    return (
      <Center py="xl">
        <Loader role="status" aria-label={t('common.loading')} />
      </Center>
    );
  if (id !== null && !course.data) return <Text>{t('form.notFound')}</Text>;

  const v = form.values;
  const e = form.errors;
  const intervals = v.intervals ?? [];
  const setInterval = (index: number, key: 'startsAt' | 'stopsAt', iso: string | null) =>
    form.set(
      'intervals',
      intervals.map((interval, i) => (i === index ? { ...interval, [key]: iso ?? '' } : interval)),
    );
  const text = (key: 'title' | 'lecturer' | 'zoomUrl' | 'externalId', label: string, required = false) => (
    <TextInput
      label={label}
      value={(v[key] as string | null | undefined) ?? ''}
      onChange={(x) => form.set(key, x.currentTarget.value)}
      error={e[key]}
      withAsterisk={required}
    />
  );
  const number = (key: 'creditPoints' | 'discount', label: string, props: Pick<NumberInputProps, 'decimalScale' | 'decimalSeparator' | 'step' | 'suffix'>) => (
    <NumberInput label={label} clampBehavior="none" {...props} value={v[key] ?? 0} onChange={(x) => form.set(key, toNumber(x))} error={e[key]} />
  );
  /** Courses and tags are chosen by id; the select works with strings. */
  const ids = (key: 'prerequisites' | 'tagIds', label: string, description: string, data: { value: string; label: string }[]) => (
    <MultiSelect
      label={label}
      description={description}
      searchable
      clearable
      data={data}
      value={(v[key] ?? []).map(String)}
      onChange={(x) => form.set(key, x.map(Number))}
      error={e[key]}
    />
  );
  /** A new type brings its rules' defaults (decision 0062): informative content gives no points or certificate, certified issues one, RX is not public. */
  const setType = (type: CourseInput['type']) => {
    form.set('type', type);
    if (type === COURSE_TYPE.informative) {
      form.set('creditPoints', 0);
      form.set('certificateEnabled', false);
    }
    if (type === COURSE_TYPE.certified) form.set('certificateEnabled', true);
    if (type === COURSE_TYPE.rx) form.set('public', false);
  };
  const toggle = (key: 'public' | 'certificateEnabled' | 'postsEnabled' | 'notificationsEnabled' | 'detailNps', label: string) => (
    <Switch label={label} checked={Boolean(v[key])} onChange={(x) => form.set(key, x.currentTarget.checked)} error={e[key]} />
  );

  return (
    <FormCard
      title={id === null ? t('pages.admin.courseNew') : (course.data?.fields.title ?? '')}
      backTo="/admin/courses"
      submitting={save.isPending}
      submitLabel={t(id === null ? 'form.create' : 'form.save')}
      aside={id === null ? undefined : <CourseBlocksPanel courseId={id} />}
      onSubmit={() => {
        if (form.validate()) save.mutate(v);
      }}
    >
      <Grid>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Select
            label={t('adminCourses.type')}
            withAsterisk
            allowDeselect={false}
            data={TYPES.map((type) => ({ value: String(type), label: t(`courses.types.${type}`) }))}
            value={String(v.type)}
            onChange={(x) => setType(Number(x) as CourseInput['type'])}
            error={e.type}
            description={COURSE_TYPE_HELP[v.type]}
            inputWrapperOrder={['label', 'input', 'description', 'error']}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8 }}>{text('title', t('adminCourses.title'), true)}</Grid.Col>
        <Grid.Col span={12}>
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
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 6 }}>
          <CoverField value={v.cover} onChange={(cover) => form.set('cover', cover)} error={e.cover} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 6 }}>
          <Stack gap="sm">
            {text('lecturer', t('adminCourses.form.lecturer'))}
            <NumberInput
              label={t('adminCourses.form.durationMinutes')}
              description={t('adminCourses.form.durationHint')}
              allowDecimal={false}
              allowNegative={false}
              clampBehavior="none"
              suffix=" min"
              value={v.durationMinutes ?? ''}
              onChange={(x) => form.set('durationMinutes', x === '' ? null : toNumber(x))}
              error={e.durationMinutes}
            />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 6, md: 4 }}>
          {number('creditPoints', t('adminCourses.form.creditPoints'), { decimalScale: 1, decimalSeparator: ',', step: 0.5 })}
        </Grid.Col>
        <Grid.Col span={{ base: 6, md: 4 }}>{number('discount', t('adminCourses.form.discount'), { suffix: ' %' })}</Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <NumberInput
            label={t('adminCourses.form.sharedCost')}
            decimalScale={2}
            decimalSeparator=","
            thousandSeparator="."
            suffix=" €"
            min={0}
            value={(v.sharedCostCents ?? 0) / 100}
            onChange={(x) => form.set('sharedCostCents', Math.round(toNumber(x) * 100))}
            error={e.sharedCostCents}
          />
        </Grid.Col>
        <Grid.Col span={12}>
          {ids(
            'prerequisites',
            t('adminCourses.form.prerequisites'),
            t('adminCourses.form.prerequisitesHint'),
            (others.data ?? []).filter((c) => c.id !== id).map((c) => ({ value: String(c.id), label: c.title })),
          )}
        </Grid.Col>
        <Grid.Col span={12}>
          <Group gap="xl">
            {platformAuthor ? toggle('public', t('adminCourses.form.public')) : null}
            {toggle('certificateEnabled', t('adminCourses.form.certificate'))}
            {toggle('postsEnabled', t('adminCourses.form.posts'))}
            {toggle('notificationsEnabled', t('adminCourses.form.notifications'))}
            {toggle('detailNps', t('adminCourses.form.detailNps'))}
          </Group>
        </Grid.Col>
        {platformAuthor ? (
          <Grid.Col span={12}>
            {ids(
              'tagIds',
              t('adminCourses.form.tags'),
              t('adminCourses.form.tagsHint'),
              (tags.data ?? []).map((tag) => ({ value: String(tag.id), label: tag.name })),
            )}
          </Grid.Col>
        ) : null}
        <Grid.Col span={12}>
          <ReminderFields values={v} errors={e} set={form.set} />
        </Grid.Col>
        <Grid.Col span={12}>
          <Stack gap="xs">
            <Title order={2} size="h5">
              {t('adminCourses.form.intervals')}
            </Title>
            {intervals.length === 0 ? (
              <Text size="sm" c="dimmed">
                {t('adminCourses.form.noIntervals')}
              </Text>
            ) : null}
            {intervals.map((interval, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: an interval has no id; rows are only appended or removed.
              <Group key={index} align="flex-end" data-testid={`interval-${index}`}>
                <DateTimeField
                  label={t('adminCourses.form.startsAt')}
                  value={interval.startsAt}
                  onChange={(iso) => setInterval(index, 'startsAt', iso)}
                  error={e[`intervals.${index}.startsAt`] ?? e[`intervals.${index}`]}
                />
                <DateTimeField
                  label={t('adminCourses.form.stopsAt')}
                  value={interval.stopsAt}
                  onChange={(iso) => setInterval(index, 'stopsAt', iso)}
                  error={e[`intervals.${index}.stopsAt`]}
                />
                <Button
                  variant="subtle"
                  color="red.9"
                  onClick={() =>
                    form.set(
                      'intervals',
                      intervals.filter((_, i) => i !== index),
                    )
                  }
                >
                  {t('adminCourses.form.removeInterval')}
                </Button>
              </Group>
            ))}
            <Group>
              <Button variant="default" onClick={() => form.set('intervals', [...intervals, { startsAt: '', stopsAt: '' }])}>
                {t('adminCourses.form.addInterval')}
              </Button>
            </Group>
          </Stack>
        </Grid.Col>
        {live && v.type === 8 ? (
          <Grid.Col span={12}>
            <LiveFields values={v} errors={e} set={form.set} />
          </Grid.Col>
        ) : null}
        <Grid.Col span={12}>
          <MoreCourseFields values={v} errors={e} set={form.set} />
        </Grid.Col>
        {zoom ? <Grid.Col span={{ base: 12, md: 6 }}>{text('zoomUrl', t('adminCourses.form.zoomUrl'))}</Grid.Col> : null}
        {interactr ? (
          <Grid.Col span={12}>
            <Textarea
              label={t('adminCourses.form.interactr')}
              autosize
              minRows={2}
              value={v.interactrHtml ?? ''}
              onChange={(x) => form.set('interactrHtml', x.currentTarget.value)}
              error={e.interactrHtml}
            />
          </Grid.Col>
        ) : null}
        {externalIds ? (
          <>
            <Grid.Col span={{ base: 12, md: 6 }}>{text('externalId', t('adminCourses.form.externalId'))}</Grid.Col>
            <Grid.Col span={{ base: 12, md: 6 }}>
              <Select
                label={t('adminCourses.form.syncDestination')}
                clearable
                data={[1, 2, 3].map((n) => ({ value: String(n), label: t(`organisation.company.chamber${n}`) }))}
                value={v.syncDestination ? String(v.syncDestination) : null}
                onChange={(x) => form.set('syncDestination', x ? (Number(x) as 1 | 2 | 3) : null)}
                error={e.syncDestination}
              />
            </Grid.Col>
          </>
        ) : null}
      </Grid>
    </FormCard>
  );
};
