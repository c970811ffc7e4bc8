import { Badge, Progress, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { CourseStatus } from '../api/courses.ts';

const COLORS: Record<CourseStatus, string> = {
  active: 'brand.8',
  completed: '#1b6e2f', // green.9 is just under 4.5:1 on white
  archived: 'gray.7',
  expired: 'red.9',
  reserved: 'violet.9',
  deleted: 'gray.7',
};

/** spec §4 badge states: completed, archived, expired, reserved, active. */
export const StatusBadge = ({ status }: { status: CourseStatus }) => {
  const { t } = useTranslation();
  return (
    <Badge variant="outline" color={COLORS[status]} data-status={status}>
      {t(`courses.status.${status}`)}
    </Badge>
  );
};

export const CourseProgress = ({ done, total }: { done: number; total: number }) => {
  const { t } = useTranslation();
  if (total === 0) return null;
  return (
    <div>
      <Progress value={(done / total) * 100} size="sm" aria-label={t('courses.progress', { done, total })} />
      <Text size="xs" c="dimmed" mt={4}>
        {t('courses.progress', { done, total })}
      </Text>
    </div>
  );
};

export const points = (value: number) => new Intl.NumberFormat('sl-SI', { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(value);
