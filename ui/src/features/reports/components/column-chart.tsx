import { formatNumber } from '../../../lib/i18n.ts';

export type ColumnChartProps = {
  title: string;
  series: readonly { name: string; color: string }[];
  points: readonly { label: string; values: readonly number[]; color?: string }[];
};

/** Four whole-number steps of 1, 2, 2.5 or 5 x 10^n: the charts count people and answers (as the PDF does). */
const niceMax = (value: number) => {
  const wanted = Math.max(1, value / 4);
  const power = 10 ** Math.floor(Math.log10(wanted));
  const steps = power >= 10 ? [1, 2, 2.5, 5, 10] : [1, 2, 5, 10];
  return (steps.find((s) => s * power >= wanted) ?? 10) * power * 4;
};

const WIDTH = 640;
const HEIGHT = 190;
const AXIS = 34;
const TOP = 8;
const BOTTOM = 22;

/**
 * A column chart drawn as SVG (no chart library: it prints as it shows, like the PDF's charts):
 * a point per label with one bar per series side by side, a scale of four steps, and a legend
 * when there is more than one series.
 */
export const ColumnChart = ({ title, series, points }: ColumnChartProps) => {
  const max = niceMax(Math.max(0, ...points.flatMap((p) => p.values)));
  const plotWidth = WIDTH - AXIS;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const slot = plotWidth / Math.max(1, points.length);
  const bars = Math.max(1, series.length);
  const barWidth = Math.max(1, Math.min(28, (slot * 0.75) / bars));
  // Labels (dates as everywhere: "23. nov. 2026") far enough apart not to overlap: about 5.5 units a character.
  const labelWidth = Math.max(40, ...points.map((p) => p.label.length * 5.5 + 10));
  const every = Math.max(1, Math.ceil(points.length / Math.max(1, Math.floor(plotWidth / labelWidth))));
  const y = (value: number) => TOP + plotHeight - (plotHeight * value) / max;
  const summary = points.map((p) => `${p.label}: ${p.values.map((v) => formatNumber(v)).join(' / ')}`).join('; ');
  return (
    <figure style={{ margin: 0 }}>
      <figcaption style={{ fontWeight: 700, fontSize: 14, marginBottom: 4 }}>{title}</figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} width="100%" role="img" aria-label={`${title}: ${summary}`} style={{ maxWidth: WIDTH, display: 'block' }}>
        {[0, 1, 2, 3, 4].map((i) => (
          <g key={i}>
            <line x1={AXIS} x2={WIDTH} y1={y((max * i) / 4)} y2={y((max * i) / 4)} stroke="#d0d7de" strokeWidth={0.6} />
            <text x={AXIS - 5} y={y((max * i) / 4) + 3.5} fontSize={10} textAnchor="end" fill="#495057">
              {formatNumber((max * i) / 4)}
            </text>
          </g>
        ))}
        {points.map((point, i) => {
          const left = AXIS + i * slot + (slot - barWidth * bars) / 2;
          return (
            <g key={point.label + String(i)}>
              {point.values.map((value, s) =>
                value > 0 ? (
                  <rect
                    key={series[s]?.name ?? s}
                    x={left + s * barWidth}
                    y={y(value)}
                    width={barWidth}
                    height={TOP + plotHeight - y(value)}
                    fill={point.color ?? series[s]?.color ?? '#0b6e69'}
                  />
                ) : null,
              )}
              {i % every === 0 ? (
                <text x={AXIS + i * slot + slot / 2} y={HEIGHT - 6} fontSize={10} textAnchor="middle" fill="#495057">
                  {point.label}
                </text>
              ) : null}
            </g>
          );
        })}
        <line x1={AXIS} x2={WIDTH} y1={TOP + plotHeight} y2={TOP + plotHeight} stroke="#495057" strokeWidth={1} />
      </svg>
      {series.length > 1 ? (
        <div style={{ display: 'flex', gap: 16, fontSize: 13, marginTop: 4 }}>
          {series.map((s) => (
            <span key={s.name} style={{ display: 'inline-flex', alignItems: 'center', gap: 6 }}>
              <span aria-hidden="true" style={{ width: 10, height: 10, background: s.color, display: 'inline-block' }} />
              {s.name}
            </span>
          ))}
        </div>
      ) : null}
    </figure>
  );
};
