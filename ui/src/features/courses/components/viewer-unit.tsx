import { Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { getCommunity } from '../api/courses.ts';

/**
 * The participant's unit beside the course (spec §7 GET /communities?filterIds[]=): accepted only
 * when exactly one unit matches; a failed load is logged (spec §8) and the line is left out.
 */
export const ViewerUnit = ({ unitId }: { unitId: number | null }) => {
  const { t } = useTranslation();
  const community = useQuery({ queryKey: ['communities', unitId], queryFn: () => getCommunity(unitId as number), enabled: unitId !== null, retry: false });
  const unit = community.data?.data.length === 1 ? community.data.data[0] : undefined;
  if (!unit) return null;
  return (
    <Text size="sm" c="dimmed" data-testid="viewer-unit">
      {t('courses.yourUnit', { name: unit.company_name ? `${unit.name} (${unit.company_name})` : unit.name })}
    </Text>
  );
};
