import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export type ConsentBadgeState = 'given' | 'outdated' | 'withdrawn' | 'none';

// Outline in dark shades: readable on white (WCAG AA), like the course status badges.
const COLORS: Record<ConsentBadgeState, string> = { given: '#1b6e2f', outdated: 'violet.9', withdrawn: 'red.9', none: 'gray.7' };

export const ConsentBadge = ({ state }: { state: ConsentBadgeState }) => {
  const { t } = useTranslation();
  return (
    <Badge variant="outline" color={COLORS[state]}>
      {t(`consents.status.${state}`)}
    </Badge>
  );
};
