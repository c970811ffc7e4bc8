import { Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export const Logo = ({ compact = false }: { compact?: boolean }) => {
  const { t } = useTranslation();
  return (
    <Group gap="xs" wrap="nowrap">
      <svg width="32" height="32" viewBox="0 0 64 64" aria-hidden="true">
        <rect width="64" height="64" rx="14" fill="#0b6e69" />
        <path d="M27 14h10v13h13v10H37v13H27V37H14V27h13z" fill="#fff" />
      </svg>
      <div>
        <Text fw={700} size="lg" lh={1.1} c="dark">
          {t('app.name')}
        </Text>
        {compact ? null : (
          <Text size="xs" c="dimmed" lh={1.1}>
            {t('app.tagline')}
          </Text>
        )}
      </div>
    </Group>
  );
};
