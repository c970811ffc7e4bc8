import { Table, VisuallyHidden } from '@mantine/core';

/** A column of figures: its heading is right-aligned like them. */
type NumericHead = { numeric: string };

/** A column whose heading only a screen reader reads (a column of buttons, which say what they do). */
type UnseenHead = { unseen: string };

/** A column's heading: its label, or a figures column's (see `numeric`), or one seen by no eye. */
export type ColumnHead = string | NumericHead | UnseenHead;

/** Headings of columns of figures. */
export const numeric = (labels: readonly string[]): NumericHead[] => labels.map((label) => ({ numeric: label }));

/** The heading row of a table, from its columns' labels (`scope="col"` where the table also heads its rows). */
export const ColumnHeads = ({ columns, scope }: { columns: readonly ColumnHead[]; scope?: 'col' }) => (
  <Table.Thead>
    <Table.Tr>
      {columns.map((column) =>
        typeof column === 'string' ? (
          <Table.Th key={column} scope={scope}>
            {column}
          </Table.Th>
        ) : 'unseen' in column ? (
          <Table.Th key={column.unseen} scope={scope}>
            <VisuallyHidden>{column.unseen}</VisuallyHidden>
          </Table.Th>
        ) : (
          <Table.Th key={column.numeric} scope={scope} ta="right">
            {column.numeric}
          </Table.Th>
        ),
      )}
    </Table.Tr>
  </Table.Thead>
);
