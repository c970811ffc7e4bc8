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

const pointsFormat = new Intl.NumberFormat('sl-SI', { maximumFractionDigits: 1 });
/** Credit points as people read them: 1, 2,5 (whole ones without ",0"). */
export const points = (value: number) => pointsFormat.format(value);
/**
 * What a credit-points text needs: the points shown and the count its plural form follows, the same
 * number rounded as shown (1 kreditna točka, 2 kreditni točki, 3 kreditne točke, 5 kreditnih točk;
 * a decimal takes the few form, as Intl.PluralRules('sl') says: 1,5 kreditne točke).
 */
export const pointsCount = (value: number) => ({ points: points(value), count: Math.round(value * 10) / 10 });
