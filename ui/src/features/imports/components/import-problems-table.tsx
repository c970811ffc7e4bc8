import { Alert, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { IMPORT_COLUMNS, IMPORT_MESSAGES } from '../../../../../domain/imports/user-import.rules.ts';
import { TableRegion } from '../../../components/table-region.tsx';
import { formatNumber } from '../../../lib/i18n.ts';
import type { ImportDetail } from '../api/imports.ts';

const HEADER_OF = Object.fromEntries(IMPORT_COLUMNS.map((c) => [c.key, c.header])) as Record<string, string>;

/** The precheck's problems, by row and column, as the server words them (spec §8). */
export const ProblemsTable = ({ detail }: { detail: ImportDetail }) => {
  const { t } = useTranslation();
  return (
    <Stack gap="xs">
      <Alert color="red" title={IMPORT_MESSAGES.blocked}>
        {t('imports.problems', { count: detail.problemCount, n: formatNumber(detail.problemCount) })}
        {detail.problemCount > detail.problems.length
          ? ` ${t('imports.problemsShown', { shown: formatNumber(detail.problems.length), count: detail.problems.length })}`
          : ''}
      </Alert>
      <TableRegion label={t('imports.problemsTable')} maxHeight={480}>
        <Table striped aria-label={t('imports.problemsTable')} data-testid="import-problems">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('imports.row')}</Table.Th>
              <Table.Th>{t('imports.column')}</Table.Th>
              <Table.Th>{t('imports.problem')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {detail.problems.map((problem, index) => (
              // A row may have several problems in one column: the position in the list tells them apart.
              // biome-ignore lint/suspicious/noArrayIndexKey: the list never reorders.
              <Table.Tr key={index} data-row={problem.row}>
                <Table.Td>{problem.row}</Table.Td>
                <Table.Td>{problem.column ? HEADER_OF[problem.column] : '–'}</Table.Td>
                <Table.Td>{problem.message}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </TableRegion>
      <Text size="sm">{t('imports.fixAndUpload')}</Text>
    </Stack>
  );
};
