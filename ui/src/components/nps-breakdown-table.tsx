import type { TableProps } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNps, formatNumber } from '../lib/i18n.ts';
import { NPS_LEVEL_COLORS, type NpsLevel } from '../lib/nps-level-colors.ts';
import { numeric } from './column-heads.tsx';
import { FiguresTable } from './figures-table.tsx';

/** One community's NPS answers (a unit, company, community group or profession). */
export type NpsBreakdownRow = {
  id: number;
  name: string;
  answers: number;
  promoters: number;
  neutrals: number;
  detractors: number;
  score: number | null;
  level: NpsLevel;
};

/**
 * The NPS per community as the statistics page and the course report both table it: the community,
 * its answers by category and its score in the level's colour. `name` may make the first cell a link.
 */
export const NpsBreakdownTable = ({
  kindLabel,
  rows,
  name = (row) => row.name,
  ...tableProps
}: {
  kindLabel: string;
  rows: readonly NpsBreakdownRow[];
  name?: (row: NpsBreakdownRow) => ReactNode;
} & TableProps & { 'data-testid'?: string }) => {
  const { t } = useTranslation();
  return (
    <FiguresTable
      {...tableProps}
      columns={[kindLabel, ...numeric((['answers', 'promoters', 'neutrals', 'detractors', 'score'] as const).map((key) => t(`stats.nps.${key}`)))]}
      rows={rows.map((r) => ({
        key: r.id,
        name: name(r),
        figures: [
          ...[r.answers, r.promoters, r.neutrals, r.detractors].map((n) => formatNumber(n)),
          { text: formatNps(r.score), color: NPS_LEVEL_COLORS[r.level], bold: true },
        ],
      }))}
    />
  );
};
