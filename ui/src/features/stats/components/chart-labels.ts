/**
 * What every statistics chart says beside its bars (issue 33: /stroski showed a single bar with no
 * axis titles or values): a title on each axis and the value on each bar or point while they fit. The
 * same figures stand in a table below each chart for screen readers (the chart itself is one image).
 */

/** Axis titles and value labels in Mantine's gray 7: 7.5:1 on white. */
const INK = '#495057';

/** Room around the plot for the axis titles and the values above the bars. */
export const CHART_MARGIN = { top: 22, right: 12, bottom: 22, left: 12 };

/** The title under an x axis. */
export const xAxisTitle = (value: string) => ({ value, position: 'insideBottom' as const, offset: -16, fill: INK, fontSize: 12 });

/** The title beside a y axis (turned, as axis titles read), on its left or (a second axis) its right. */
export const yAxisTitle = (value: string, side: 'left' | 'right' = 'left') => ({
  value,
  angle: side === 'left' ? -90 : 90,
  position: side === 'left' ? ('insideLeft' as const) : ('insideRight' as const),
  style: { textAnchor: 'middle' as const },
  fill: INK,
  fontSize: 12,
});

/**
 * Props of a recharts LabelList: each bar's or point's value, written with `format`; with `skipZero`
 * an empty bar of a count carries none (twelve months of three series stay readable).
 */
export const valueLabels = (format: (value: number) => string, position: 'top' | 'right' = 'top', skipZero = false) => ({
  position,
  fill: INK,
  fontSize: 11,
  formatter: (value: unknown) => (typeof value === 'number' && !(skipZero && value === 0) ? format(value) : ''),
});

/** Values are written on the chart while there are this few bars or points (a year of months); beyond that the table holds them. */
export const labelsFit = (points: number) => points <= 12;
