import { Button, Center, Group, Loader, SegmentedControl, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconLayoutGrid, IconList, IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { session, type ViewPreference } from '../../../lib/session.ts';
import { useMinimumDelay } from '../../../lib/use-minimum-delay.ts';
import { listUserCourses } from '../api/courses.ts';
import { CourseCard, CourseRow } from './course-card.tsx';

const FILTERS = ['all', 'new', 'completed', 'archived'] as const;
type Filter = (typeof FILTERS)[number];

/** /izobrazevanja: the participant's courses with the filters new, completed, archived and search (spec §2, footer links). */
/** `authoring`: the viewer authors courses (1017) and gets a way to the admins' course list. */
export const CourseListPage = ({ authoring = false }: { authoring?: boolean }) => {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const filter = (FILTERS as readonly string[]).includes(params.get('filter') ?? '') ? (params.get('filter') as Filter) : 'all';
  const search = params.get('search') ?? '';
  // The field keeps what is typed; the address follows it a moment later. Driving the field from the
  // address made every key a navigation, and keys typed quickly were lost between two of them.
  const [typed, setTyped] = useState(search);
  const [debounced] = useDebouncedValue(typed, 250);
  const shown = useRef(params);
  shown.current = params;
  useEffect(() => {
    // No navigation when the address already says it (a needless one left "?" on the address).
    if ((shown.current.get('search') ?? '') === debounced) return;
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (debounced) next.set('search', debounced);
        else next.delete('search');
        return next;
      },
      { replace: true },
    );
  }, [debounced, setParams]);
  const courses = useQuery({
    queryKey: ['user-courses', filter, debounced],
    queryFn: () => listUserCourses({ filter: filter === 'all' ? undefined : filter, search: debounced || undefined }),
  });
  const loading = useMinimumDelay(courses.isPending);
  // spec §3 "stored view preference": kept in the browser, cleared at logout (spec §4).
  const [view, setView] = useState<ViewPreference>(session.viewPreference);
  const chooseView = (next: ViewPreference) => {
    session.setViewPreference(next);
    setView(next);
  };
  const update = (key: string, value: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(key, value);
        else next.delete(key);
        return next;
      },
      { replace: true },
    );
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={1} size="h2">
          {t('pages.courses')}
        </Title>
        {authoring ? (
          <Button component={Link} to="/admin/courses" variant="outline">
            {t('adminCourses.manage')}
          </Button>
        ) : null}
      </Group>
      <Group justify="space-between" wrap="wrap">
        <SegmentedControl
          value={filter}
          onChange={(value) => update('filter', value === 'all' ? '' : value)}
          data={FILTERS.map((f) => ({ value: f, label: t(`courses.${f}`) }))}
          aria-label={t('pages.courses')}
        />
        <Group gap="xs">
          <TextInput
            leftSection={<IconSearch size={16} aria-hidden />}
            placeholder={t('courses.search')}
            aria-label={t('courses.search')}
            value={typed}
            onChange={(e) => setTyped(e.currentTarget.value)}
            w={280}
          />
          <SegmentedControl
            value={view}
            onChange={(value) => chooseView(value === 'list' ? 'list' : 'grid')}
            aria-label={t('courses.view.label')}
            data={[
              { value: 'grid', label: <IconLayoutGrid size={16} aria-label={t('courses.view.grid')} /> },
              { value: 'list', label: <IconList size={16} aria-label={t('courses.view.list')} /> },
            ]}
          />
        </Group>
      </Group>
      {loading ? (
        <Center py="xl">
          <Loader role="status" aria-label={t('common.loading')} />
        </Center>
      ) : courses.isError ? (
        <Text c="red.9">{t('courses.listLoadFailed')}</Text>
      ) : courses.data?.items.length ? (
        view === 'list' ? (
          <Stack gap="xs" data-view="list">
            {courses.data.items.map((course) => (
              <CourseRow key={course.id} course={course} />
            ))}
          </Stack>
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" data-view="grid">
            {courses.data.items.map((course) => (
              <CourseCard key={course.id} course={course} />
            ))}
          </SimpleGrid>
        )
      ) : (
        <Text c="dimmed">{t('courses.empty')}</Text>
      )}
    </Stack>
  );
};
