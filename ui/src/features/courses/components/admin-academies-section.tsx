import { Anchor, Badge, Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { TableRegion } from '../../../components/table-region.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { listAdminAcademies } from '../api/admin-academies.ts';

/** Academies on the course list (issue 15): each links to its general page; "Nova akademija" starts one. */
export const AdminAcademiesSection = () => {
  const { t } = useTranslation();
  const academies = useQuery({ queryKey: ['academies', 'admin-list'], queryFn: listAdminAcademies });
  const items = academies.data ?? [];
  // Academies are the platform's authors' work (1018): a community's client authoring its own courses does not see the section.
  if (academies.error instanceof ApiError && academies.error.status === 403) return null;
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="academies-heading">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h3" id="academies-heading">
            {t('academies.admin.section')}
          </Title>
          <Button component={Link} to="/admin/academies/new" variant="default">
            {t('pages.admin.academyNew')}
          </Button>
        </Group>
        {academies.isError ? (
          <Text c="red.9">{t('academies.listLoadFailed')}</Text>
        ) : academies.isSuccess && items.length === 0 ? (
          <Text c="dimmed">{t('academies.admin.none')}</Text>
        ) : (
          <TableRegion label={t('academies.admin.table')}>
            <Table aria-label={t('academies.admin.section')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('adminCourses.title')}</Table.Th>
                  <Table.Th>{t('academies.admin.courses')}</Table.Th>
                  <Table.Th>{t('adminCourses.publication')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((academy) => (
                  <Table.Tr key={academy.id}>
                    <Table.Td>
                      <Anchor component={Link} to={`/admin/academies/${academy.id}/general`}>
                        {academy.title}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{t('home.coursesCount', { count: academy.courseIds.length })}</Table.Td>
                    <Table.Td>
                      <Badge variant="outline" color={academy.published ? '#1b6e2f' : '#495057'}>
                        {t(academy.published ? 'academies.admin.published' : 'academies.admin.unpublished')}
                      </Badge>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </TableRegion>
        )}
      </Stack>
    </Paper>
  );
};
