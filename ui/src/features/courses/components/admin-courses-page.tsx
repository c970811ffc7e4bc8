import { Badge, Button, Group, Menu, Modal, Select, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDots } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ConfirmButton } from '../../../components/confirm-button.tsx';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { useFeature } from '../../../lib/features.ts';
import { formatDateTime } from '../../../lib/i18n.ts';
import {
  ADMIN_COURSE_STATUSES,
  type AdminCourseApproval,
  type AdminCourseFilters,
  type AdminCourseListItem,
  type AdminCourseStatus,
  type CourseAction,
  changeCourse,
  duplicateCourse,
  listAcademyOptions,
  listAdminCourses,
  listCourseTagOptions,
} from '../api/admin-courses.ts';
import { AdminAcademiesSection } from './admin-academies-section.tsx';

const TYPES = [1, 2, 3, 4, 5, 6, 7, 8, 9];
// Outline in dark shades: readable (WCAG AA) on white and on the table's striped rows alike.
const STATUS_COLOR: Record<AdminCourseStatus, string> = { active: '#1b6e2f', reserved: '#1864ab', expired: '#495057', archived: '#495057', deleted: '#c92a2a' };
const GAP_COLOR = '#a33a00';
// The approval's states in the shades of the course's approval panel (features do not import each other).
const APPROVAL_COLOR: Record<AdminCourseApproval, string> = {
  none: '#495057',
  pending: '#1864ab',
  approved: '#1b6e2f',
  rejected: '#c92a2a',
  withdrawn: '#495057',
};
const toNumber = (value: string | null) => (value === null ? null : Number(value));

/** The actions a course offers as it stands: publish or withdraw it, archive or bring it back, delete it. */
const CourseActions = ({ course }: { course: AdminCourseListItem }) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const action = useMutation({
    mutationFn: (what: CourseAction) => changeCourse(course.id, what),
    onSuccess: async (_result, what) => {
      await queryClient.invalidateQueries({ queryKey: ['admin-courses'] });
      notifications.show({ color: 'teal', message: t(`adminCourses.done.${what}`) });
    },
    onError: (error) => notifications.show({ color: 'red', message: error.message }),
  });
  const duplicate = useMutation({
    mutationFn: () => duplicateCourse(course.id),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['admin-courses'] });
      notifications.show({ color: 'teal', message: t('adminCourses.done.duplicate') });
    },
    onError: (error) => notifications.show({ color: 'red', message: error.message }),
  });
  if (course.status === 'deleted') return null;
  const archived = course.status === 'archived';
  return (
    <Group gap="xs" wrap="nowrap">
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <Button
            variant="subtle"
            size="compact-sm"
            aria-label={t('adminCourses.actionsFor', { title: course.title })}
            loading={action.isPending || duplicate.isPending}
          >
            <IconDots size={16} aria-hidden />
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item
            onClick={() => {
              // Spec §4: what a course lacks is shown, and publishing asks to confirm; a complete course publishes at once.
              if (!course.published && course.gaps.length > 0) setConfirming(true);
              else action.mutate(course.published ? 'unpublish' : 'publish');
            }}
          >
            {t(course.published ? 'adminCourses.unpublish' : 'adminCourses.publish')}
          </Menu.Item>
          <Menu.Item onClick={() => action.mutate(archived ? 'restore' : 'archive')}>{t(archived ? 'adminCourses.restore' : 'adminCourses.archive')}</Menu.Item>
          <Menu.Item onClick={() => duplicate.mutate()}>{t('adminCourses.duplicate')}</Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <Modal opened={confirming} onClose={() => setConfirming(false)} title={t('adminCourses.publishConfirm.title')} centered>
        <Stack>
          <Text>{t('adminCourses.publishConfirm.question', { title: course.title })}</Text>
          <Group gap={4} data-testid="publish-gaps">
            {course.gaps.map((gap) => (
              <Badge key={gap} variant="outline" color={GAP_COLOR} size="sm">
                {t(`adminCourses.gap.${gap}`)}
              </Badge>
            ))}
          </Group>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              {t('common.cancel')}
            </Button>
            <Button
              loading={action.isPending}
              onClick={() => {
                void action
                  .mutateAsync('publish')
                  .catch(() => undefined)
                  .finally(() => setConfirming(false));
              }}
            >
              {t('adminCourses.publishConfirm.confirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
      <ConfirmButton
        label={t('adminCourses.delete')}
        question={t('adminCourses.deleteQuestion', { title: course.title })}
        pending={action.isPending}
        onConfirm={() => action.mutateAsync('delete').catch(() => undefined)}
      />
    </Group>
  );
};

/**
 * /admin/courses (issue 15): every course, searched, filtered and sorted on the server, with its
 * status, whether it is published, and the badges of what it still lacks for publishing (spec §4).
 */
export const AdminCoursesPage = ({ readsAcademies, readsTags }: { readsAcademies: boolean; readsTags: boolean }) => {
  const { t } = useTranslation();
  const vimeoUpload = useFeature('vimeoUpload') === true;
  const [filters, setFilters] = useState<AdminCourseFilters>({ type: null, status: null, published: null, academyId: null, tagId: null });
  // Issue 33 item 7: a client (community course rights, 2004-2006) got 403s from both lists. Without the
  // permissions to read them (the route decides: admin-page.tsx) neither is asked for, and their filters
  // and the academies section are not offered.
  const academies = useQuery({ queryKey: ['academies', 'options'], queryFn: listAcademyOptions, staleTime: 60_000, enabled: readsAcademies });
  const tags = useQuery({ queryKey: ['admin-courses', 'tag-options'], queryFn: listCourseTagOptions, staleTime: 60_000, enabled: readsTags });
  const set = (change: Partial<AdminCourseFilters>) => setFilters((f) => ({ ...f, ...change }));

  const columns: Column<AdminCourseListItem>[] = [
    { key: 'title', label: t('adminCourses.title'), sortKey: 'title', render: (c) => c.title },
    { key: 'type', label: t('adminCourses.type'), sortKey: 'type', render: (c) => t(`courses.types.${c.type}`) },
    {
      key: 'status',
      label: t('adminCourses.status'),
      render: (c) => (
        <Stack gap={4} align="flex-start" miw={150}>
          <Badge variant="outline" color={STATUS_COLOR[c.status]}>
            {t(`adminCourses.statuses.${c.status}`)}
          </Badge>
          <Badge variant="outline" color={c.published ? '#1b6e2f' : '#495057'}>
            {t(c.published ? 'adminCourses.published' : 'adminCourses.unpublished')}
          </Badge>
          {c.approval ? (
            // Its whole label, which is longer than the others ("Umaknjeno iz odobritve"): the column widens rather than cut it.
            <Badge
              variant="outline"
              color={APPROVAL_COLOR[c.approval]}
              styles={{ label: { overflow: 'visible' } }}
              data-testid={`approval-${c.id}`}
              data-approval={c.approval}
            >
              {t(`approvals.status.${c.approval}`)}
            </Badge>
          ) : null}
        </Stack>
      ),
    },
    {
      key: 'gaps',
      label: t('adminCourses.gaps'),
      render: (c) =>
        c.gaps.length === 0 ? (
          <Text size="sm" c="teal.9">
            {t('adminCourses.complete')}
          </Text>
        ) : (
          <Group gap={4} data-testid={`gaps-${c.id}`}>
            {c.gaps.map((gap) => (
              <Badge key={gap} variant="outline" color={GAP_COLOR} size="sm">
                {t(`adminCourses.gap.${gap}`)}
              </Badge>
            ))}
          </Group>
        ),
    },
    { key: 'enrolled', label: t('adminCourses.enrolled'), sortKey: 'enrolled', render: (c) => c.enrolled },
    { key: 'updatedAt', label: t('adminCourses.updatedAt'), sortKey: 'updatedAt', render: (c) => formatDateTime(c.updatedAt) },
    { key: 'actions', label: t('adminCourses.actions'), render: (c) => <CourseActions course={c} /> },
  ];

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={1} size="h2">
          {t('pages.admin.courses')}
        </Title>
        <Group gap="xs">
          {/* Issue 18: the video upload page (spec §2 /vimeo) had no link; only while its feature is on. */}
          {vimeoUpload ? (
            <Button component={Link} to="/vimeo" variant="default">
              {t('pages.vimeo')}
            </Button>
          ) : null}
          <Button component={Link} to="/admin/courses/new">
            {t('pages.admin.courseNew')}
          </Button>
        </Group>
      </Group>
      {/* A client authors only its community's courses (2004-2006): an empty list is said to be theirs, not the platform's. */}
      {!readsAcademies ? <Text c="dimmed">{t('adminCourses.communityIntro')}</Text> : null}
      <DataTable<AdminCourseListItem>
        queryKey={['admin-courses', filters]}
        fetch={(query) => listAdminCourses(query, filters)}
        columns={columns}
        rowHref={(c) => `/admin/courses/${c.id}/general`}
        defaultSort="updatedAt"
        defaultOrder="desc"
        label={t('pages.admin.courses')}
        filters={
          <>
            <Select
              label={t('adminCourses.type')}
              clearable
              placeholder={t('adminCourses.any')}
              data={TYPES.map((type) => ({ value: String(type), label: t(`courses.types.${type}`) }))}
              value={filters.type === null ? null : String(filters.type)}
              onChange={(value) => set({ type: toNumber(value) })}
            />
            <Select
              label={t('adminCourses.status')}
              clearable
              placeholder={t('adminCourses.notDeleted')}
              data={ADMIN_COURSE_STATUSES.map((status) => ({ value: status, label: t(`adminCourses.statuses.${status}`) }))}
              value={filters.status}
              onChange={(value) => set({ status: (value as AdminCourseStatus | null) ?? null })}
            />
            <Select
              label={t('adminCourses.publication')}
              clearable
              placeholder={t('adminCourses.any')}
              data={[
                { value: 'true', label: t('adminCourses.published') },
                { value: 'false', label: t('adminCourses.unpublished') },
              ]}
              value={filters.published === null ? null : String(filters.published)}
              onChange={(value) => set({ published: value === null ? null : value === 'true' })}
            />
            {readsAcademies ? (
              <Select
                label={t('adminCourses.academy')}
                clearable
                searchable
                placeholder={t('adminCourses.any')}
                data={(academies.data ?? []).map((a) => ({ value: String(a.id), label: a.title }))}
                value={filters.academyId === null ? null : String(filters.academyId)}
                onChange={(value) => set({ academyId: toNumber(value) })}
              />
            ) : null}
            {readsTags ? (
              <Select
                label={t('adminCourses.tag')}
                clearable
                searchable
                placeholder={t('adminCourses.any')}
                data={(tags.data ?? []).map((tag) => ({ value: String(tag.id), label: tag.name }))}
                value={filters.tagId === null ? null : String(filters.tagId)}
                onChange={(value) => set({ tagId: toNumber(value) })}
              />
            ) : null}
          </>
        }
      />
      {readsAcademies ? <AdminAcademiesSection /> : null}
    </Stack>
  );
};
