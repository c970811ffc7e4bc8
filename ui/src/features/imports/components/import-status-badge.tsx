import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ImportStatus } from '../api/imports.ts';

// Dark shades: readable on white (WCAG AA), like the mail log's badges.
const STATUS_COLOUR: Record<ImportStatus, string> = { blocked: 'red.9', ready: 'blue.9', running: 'blue.9', completed: '#1b6e2f', failed: 'red.9' };

/** An import's state as a badge, in the panel and the history. */
export const StatusBadge = ({ status }: { status: ImportStatus }) => {
  const { t } = useTranslation();
  return (
    <Badge variant="outline" color={STATUS_COLOUR[status]} data-testid="import-status">
      {t(`imports.status.${status}`)}
    </Badge>
  );
};
