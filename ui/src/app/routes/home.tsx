import { Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useMe } from '../../features/users/api/me.ts';

export const HomePage = () => {
  const { t } = useTranslation();
  const me = useMe();
  if (!me.data) return null;
  return (
    <Paper withBorder p="xl" radius="md">
      <Stack gap="sm">
        <Title order={1} size="h2">
          {t('home.welcome', { name: me.data.fullName })}
        </Title>
        <Text>{t('home.intro')}</Text>
        <Text fw={600} size="sm">
          {t('home.roles')}
        </Text>
        <Group gap="xs">
          {me.data.roles.map((role) => (
            <Badge key={`${role.id}-${role.unit_id}`} variant="outline" color="brand.8">
              {t(`roles.${role.id}`)}
              {role.unit_name ? ` · ${role.unit_name}` : role.company_name ? ` · ${role.company_name}` : ''}
            </Badge>
          ))}
        </Group>
      </Stack>
    </Paper>
  );
};
