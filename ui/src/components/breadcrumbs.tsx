import { Anchor, Box, Text } from '@mantine/core';
import { IconChevronRight } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export type Crumb = { label: string; to?: string | undefined };

/**
 * Where a nested page sits (issue 33): "Izobraževanja › <course> › Uspešnost", each step above the
 * page a link, the page itself marked aria-current; a navigation landmark named "Drobtine".
 */
export const Breadcrumbs = ({ items }: { items: readonly Crumb[] }) => {
  const { t } = useTranslation();
  if (items.length === 0) return null;
  return (
    <Box component="nav" aria-label={t('breadcrumbs.label')} mb="xs" data-breadcrumbs>
      <Box component="ol" m={0} p={0} style={{ listStyle: 'none', display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: 4, rowGap: 2 }}>
        {items.map((item, i) => {
          const last = i === items.length - 1;
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: a trail is rebuilt whole for each page; a step's place is its identity.
            <Box component="li" key={i} style={{ display: 'inline-flex', alignItems: 'center', gap: 4, minWidth: 0 }}>
              {i > 0 ? <IconChevronRight size={14} aria-hidden color="var(--mantine-color-gray-7)" /> : null}
              {last || !item.to ? (
                <Text size="sm" c="gray.8" aria-current={last ? 'page' : undefined} style={{ overflowWrap: 'anywhere' }}>
                  {item.label}
                </Text>
              ) : (
                <Anchor component={Link} to={item.to} size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {item.label}
                </Anchor>
              )}
            </Box>
          );
        })}
      </Box>
    </Box>
  );
};
