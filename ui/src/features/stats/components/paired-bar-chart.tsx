import type { ReactElement } from 'react';
import { Bar, BarChart, CartesianGrid, LabelList, Legend, ResponsiveContainer, Tooltip, XAxis } from 'recharts';
import { CHART_MARGIN, labelsFit, valueLabels, xAxisTitle } from './chart-labels.ts';

type Series = { key: string; name: string };

/**
 * Two bars side by side for each item (a course's started and completed, a quiz's success and first-attempt
 * rate), as the success pages chart them; the chart is one image, its figures stand in the table below it.
 */
export const PairedBarChart = ({
  label,
  xTitle,
  data,
  series,
  format,
  yAxis,
}: {
  label: string;
  xTitle: string;
  data: readonly ({ name: string } & Record<string, string | number>)[];
  series: readonly [Series, Series];
  format: (value: number) => string;
  /** The y axis of the figures (a recharts YAxis: counts or percent). */
  yAxis: ReactElement;
}) => (
  <div style={{ width: '100%', height: 260 }} role="img" aria-label={label}>
    <ResponsiveContainer>
      <BarChart data={[...data]} margin={CHART_MARGIN}>
        <CartesianGrid strokeDasharray="3 3" />
        <XAxis dataKey="name" label={xAxisTitle(xTitle)} />
        {yAxis}
        <Tooltip formatter={(value) => format(Number(value))} />
        <Legend verticalAlign="top" />
        {series.map((s, i) => (
          <Bar key={s.key} dataKey={s.key} name={s.name} fill={i === 0 ? '#0b6e69' : '#5f3dc4'} isAnimationActive={false}>
            {labelsFit(data.length * 2) ? <LabelList dataKey={s.key} {...valueLabels(format)} /> : null}
          </Bar>
        ))}
      </BarChart>
    </ResponsiveContainer>
  </div>
);
