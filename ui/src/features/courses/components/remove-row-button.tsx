import { ActionIcon, type MantineSpacing, type StyleProp } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';

/** The bin icon that removes one row of a list in a block editor (a question, an answer, a follow-up). */
export const RemoveRowButton = ({ label, onRemove, mt }: { label: string; onRemove: () => void; mt: StyleProp<MantineSpacing> }) => (
  <ActionIcon mt={mt} variant="subtle" color="red.9" aria-label={label} onClick={onRemove}>
    <IconTrash size={16} />
  </ActionIcon>
);

/** The list without the item at `index`. */
export const withoutIndex = <T,>(items: readonly T[], index: number): T[] => items.filter((_, i) => i !== index);
