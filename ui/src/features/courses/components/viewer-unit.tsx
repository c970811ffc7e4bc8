import { Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { meQuery } from '../../users/api/me.ts';
import { getCommunity } from '../api/courses.ts';

/**
 * The participant's unit beside the course (the viewer loads the user profile and the community,
 * spec §7 GET /communities?filterIds[]=): a failed load is logged (spec §8) and the line is left out.
 */
export const ViewerUnit = () => {
  const { t } = useTranslation();
  const me = useQuery({
    ...meQuery,
    queryFn: async (context) => {
      try {
        return await meQuery.queryFn!(context);
      } catch (error) {
        console.error('Unable to fetch user profile', error);
        throw error;
      }
    },
  });
  const unitId = me.data?.userRoles.find((r) => r.unit_id > 0)?.unit_id ?? null;
  const community = useQuery({ queryKey: ['communities', unitId], queryFn: () => getCommunity(unitId as number), enabled: unitId !== null, retry: false });
  const unit = community.data?.data.length === 1 ? community.data.data[0] : undefined;
  if (!unit) return null;
  return (
    <Text size="sm" c="dimmed" data-testid="viewer-unit">
      {t('courses.yourUnit', { name: unit.company_name ? `${unit.name} (${unit.company_name})` : unit.name })}
    </Text>
  );
};
