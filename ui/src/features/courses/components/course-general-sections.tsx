import { Chip, Grid, Group, Select, Stack, Switch, TagsInput, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { LIVE_ROLES, REMINDER_WEEKS, WEEK_DAYS } from '../../../../../domain/courses/course.rules.ts';
import { DateTimeField } from '../../../components/date-fields.tsx';
import type { CourseInput } from '../api/admin-courses.ts';

type Errors = Record<string, string | undefined>;
type Set = <K extends keyof CourseInput>(key: K, value: CourseInput[K]) => void;
type SectionProps = { values: CourseInput; errors: Errors; set: Set };

/** The first message under a field path (a list's item errors included). */
const firstError = (errors: Errors, path: string) =>
  errors[path] ?? Object.entries(errors).find(([key, message]) => key.startsWith(`${path}.`) && message)?.[1];

/**
 * spec §9 reminders: to those who have not finished, every 1, 2, 3 or 4 weeks on the chosen days
 * (sending them is the notifications' work).
 */
export const ReminderFields = ({ values, errors, set }: SectionProps) => {
  const { t } = useTranslation();
  const reminder = values.reminder ?? null;
  return (
    <Stack gap={6}>
      <Switch
        label={t('adminCourses.form.reminder')}
        checked={reminder !== null}
        onChange={(x) => set('reminder', x.currentTarget.checked ? { everyWeeks: 1, days: [1] } : null)}
      />
      {reminder ? (
        <Group align="flex-end" gap="lg">
          <Select
            label={t('adminCourses.form.reminderEvery')}
            allowDeselect={false}
            w={200}
            data={REMINDER_WEEKS.map((n) => ({ value: String(n), label: t('adminCourses.form.weeks', { count: n }) }))}
            value={String(reminder.everyWeeks)}
            onChange={(x) => set('reminder', { ...reminder, everyWeeks: Number(x) as (typeof REMINDER_WEEKS)[number] })}
            error={errors['reminder.everyWeeks']}
          />
          <Stack gap={4}>
            <Text size="sm" fw={500} id="reminder-days">
              {t('adminCourses.form.reminderDays')}
            </Text>
            <Chip.Group
              multiple
              value={(reminder.days ?? []).map(String)}
              onChange={(days) => set('reminder', { ...reminder, days: days.map(Number) as (typeof WEEK_DAYS)[number][] })}
            >
              <Group gap={4} role="group" aria-labelledby="reminder-days">
                {WEEK_DAYS.map((day) => (
                  <Chip key={day} value={String(day)} size="xs">
                    {t(`adminCourses.form.day${day}`)}
                  </Chip>
                ))}
              </Group>
            </Chip.Group>
            {firstError(errors, 'reminder.days') ? (
              <Text size="xs" c="red.8" role="alert">
                {firstError(errors, 'reminder.days')}
              </Text>
            ) : null}
          </Stack>
        </Group>
      ) : null}
    </Stack>
  );
};

/**
 * spec §3 live webinar fields of a live course (type 8): the room, its start and stop, and who hosts,
 * interprets, moderates and presents (by e-mail); attendees are the course's participants.
 */
export const LiveFields = ({ values, errors, set }: SectionProps) => {
  const { t } = useTranslation();
  const live = values.live ?? null;
  const empty = { roomId: '', startsAt: '', stopsAt: '', roles: { host: [], interpreter: [], moderator: [], presenter: [] } };
  return (
    <Stack gap="xs" data-testid="live-fields">
      <Title order={2} size="h5">
        {t('adminCourses.form.live')}
      </Title>
      <Switch label={t('adminCourses.form.liveOn')} checked={live !== null} onChange={(x) => set('live', x.currentTarget.checked ? empty : null)} />
      {live ? (
        <Grid>
          <Grid.Col span={{ base: 12, md: 4 }}>
            <TextInput
              label={t('adminCourses.form.roomId')}
              withAsterisk
              value={live.roomId}
              onChange={(x) => set('live', { ...live, roomId: x.currentTarget.value })}
              error={errors['live.roomId']}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 6, md: 4 }}>
            <DateTimeField
              label={t('adminCourses.form.liveStartsAt')}
              withAsterisk
              value={live.startsAt}
              onChange={(iso) => set('live', { ...live, startsAt: iso ?? '' })}
              error={errors['live.startsAt']}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 6, md: 4 }}>
            <DateTimeField
              label={t('adminCourses.form.liveStopsAt')}
              withAsterisk
              value={live.stopsAt}
              onChange={(iso) => set('live', { ...live, stopsAt: iso ?? '' })}
              error={errors['live.stopsAt']}
            />
          </Grid.Col>
          {LIVE_ROLES.map((role) => (
            <Grid.Col key={role} span={{ base: 12, md: 6 }}>
              <TagsInput
                label={t(`adminCourses.form.liveRoles.${role}`)}
                description={t('adminCourses.form.emailsHint')}
                value={live.roles?.[role] ?? []}
                onChange={(emails) =>
                  set('live', { ...live, roles: { host: [], interpreter: [], moderator: [], presenter: [], ...live.roles, [role]: emails } })
                }
                error={firstError(errors, `live.roles.${role}`)}
              />
            </Grid.Col>
          ))}
        </Grid>
      ) : null}
    </Stack>
  );
};

/** Notification e-mails, the course-level Vimeo and Typeform ids and the campaign package (spec §3). */
export const MoreCourseFields = ({ values, errors, set }: SectionProps) => {
  const { t } = useTranslation();
  return (
    <Grid>
      <Grid.Col span={{ base: 12, md: 6 }}>
        <Select
          label={t('adminCourses.form.campaignPackage')}
          allowDeselect={false}
          data={[0, 1, 2, 3].map((n) => ({ value: String(n), label: t(`adminCourses.form.package${n}`) }))}
          value={String(values.campaignPackage ?? 0)}
          onChange={(x) => set('campaignPackage', Number(x) as 0 | 1 | 2 | 3)}
          error={errors.campaignPackage}
        />
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 6 }}>
        <TagsInput
          label={t('adminCourses.form.notificationEmails')}
          description={t('adminCourses.form.emailsHint')}
          value={values.notificationEmails ?? []}
          onChange={(emails) => set('notificationEmails', emails)}
          error={firstError(errors, 'notificationEmails')}
        />
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 6 }}>
        <TextInput
          label={t('adminCourses.form.vimeoId')}
          description={t('adminCourses.form.vimeoIdHint')}
          inputMode="numeric"
          value={values.vimeoId ?? ''}
          onChange={(x) => set('vimeoId', x.currentTarget.value)}
          error={errors.vimeoId}
        />
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 6 }}>
        <TextInput
          label={t('adminCourses.form.typeformId')}
          value={values.typeformId ?? ''}
          onChange={(x) => set('typeformId', x.currentTarget.value)}
          error={errors.typeformId}
        />
      </Grid.Col>
    </Grid>
  );
};
