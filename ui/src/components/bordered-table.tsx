import { Paper, Table, type TableProps } from '@mantine/core';
import type { ReactNode } from 'react';
import { TableRegion } from './table-region.tsx';

/** A list's striped table in a bordered panel, scrolling sideways inside its labelled region (the exports, the mail log, the import history). */
export const BorderedTable = ({
  label,
  minWidth,
  hidden,
  children,
  ...tableProps
}: {
  /** The region's label. */
  label: string;
  minWidth?: number;
  hidden?: boolean;
  children: ReactNode;
} & TableProps & { 'data-testid'?: string }) => (
  <Paper withBorder radius="md" hidden={hidden}>
    <TableRegion label={label} minWidth={minWidth}>
      <Table striped {...tableProps}>
        {children}
      </Table>
    </TableRegion>
  </Paper>
);
