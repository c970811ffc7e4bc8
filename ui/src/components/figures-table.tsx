import { Table, type TableProps } from '@mantine/core';
import type { ReactNode } from 'react';
import { type ColumnHead, ColumnHeads } from './column-heads.tsx';

/** A figure as its cell shows it: the text, or the text in a colour (an NPS level), bold where it is the row's verdict. */
export type FigureCell = string | { text: string; color: string; bold?: boolean };

/** A row: what it counts (a course, quiz, unit), its figures, and a last cell of links where the table has one. */
export type FiguresRow = { key: string | number; name: ReactNode; figures: readonly FigureCell[]; last?: ReactNode };

/**
 * A striped table of named rows of figures, right-aligned under their headings, as the statistics pages
 * and the course report table what their charts and headline figures count.
 */
export const FiguresTable = ({
  columns,
  rows,
  ...tableProps
}: { columns: readonly ColumnHead[]; rows: readonly FiguresRow[] } & TableProps & { 'data-testid'?: string }) => (
  <Table striped {...tableProps}>
    <ColumnHeads columns={columns} />
    <Table.Tbody>
      {rows.map((row) => (
        <Table.Tr key={row.key}>
          <Table.Td>{row.name}</Table.Td>
          {row.figures.map((figure, i) =>
            typeof figure === 'string' ? (
              // biome-ignore lint/suspicious/noArrayIndexKey: a row's figures are its columns, in a fixed order
              <Table.Td key={i} ta="right">
                {figure}
              </Table.Td>
            ) : (
              // biome-ignore lint/suspicious/noArrayIndexKey: a row's figures are its columns, in a fixed order
              <Table.Td key={i} ta="right" c={figure.color} fw={figure.bold ? 700 : undefined}>
                {figure.text}
              </Table.Td>
            ),
          )}
          {row.last === undefined ? null : <Table.Td>{row.last}</Table.Td>}
        </Table.Tr>
      ))}
    </Table.Tbody>
  </Table>
);
