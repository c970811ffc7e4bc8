import { Progress } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigation } from 'react-router';
import { useMinimumDelay } from '../../lib/use-minimum-delay.ts';

/** A thin bar at the top while a page loads, shown for at least 200 ms so quick loads do not flicker. */
export const NavigationProgress = () => {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const visible = useMinimumDelay(navigation.state !== 'idle');
  if (!visible) return null;
  return (
    <Progress
      value={100}
      animated
      size="xs"
      radius={0}
      aria-label={t('common.loading')}
      style={{ position: 'fixed', top: 0, left: 0, right: 0, zIndex: 1000 }}
    />
  );
};
