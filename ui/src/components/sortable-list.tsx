import { ActionIcon, Group, Paper } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconGripVertical } from '@tabler/icons-react';
import { type ReactNode, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A list whose rows are reordered by dragging the handle or by the up and down buttons (the
 * buttons serve the keyboard and screen readers; dragging serves the mouse). `onMove(from, to)`
 * gets indexes in the list as shown. A row moved by its button keeps the focus on its buttons.
 */
export const SortableList = <T,>(props: {
  items: readonly T[];
  itemKey: (item: T) => string | number;
  /** The row's name for the buttons' labels, e.g. "Vprašanje 2". */
  itemLabel: (item: T, index: number) => string;
  onMove: (from: number, to: number) => void;
  children: (item: T, index: number) => ReactNode;
  disabled?: boolean;
  testId?: string;
}) => {
  const { t } = useTranslation();
  const [dragged, setDragged] = useState<number | null>(null);
  const [over, setOver] = useState<number | null>(null);
  const list = useRef<HTMLDivElement | null>(null);
  const move = (from: number, to: number) => {
    if (to < 0 || to >= props.items.length || from === to) return;
    props.onMove(from, to);
  };
  /**
   * Moved by a button: React moves the row's element (which takes the focus off it) or disables the
   * pressed button at either end, and the focus would fall to the page's body. It follows the row:
   * the same button if it can move it further, else the other one.
   */
  const moveByButton = (from: number, to: number, direction: 'up' | 'down') => {
    const key = String(props.itemKey(props.items[from] as T));
    move(from, to);
    requestAnimationFrame(() => {
      const row = [...(list.current?.querySelectorAll<HTMLElement>('[data-sortable-key]') ?? [])].find((r) => r.dataset.sortableKey === key);
      const buttons = [...(row?.querySelectorAll<HTMLButtonElement>('button[data-move]') ?? [])].filter((b) => !b.disabled);
      (buttons.find((b) => b.dataset.move === direction) ?? buttons[0])?.focus();
    });
  };
  return (
    <div data-testid={props.testId} ref={list}>
      {props.items.map((item, index) => (
        <Paper
          key={props.itemKey(item)}
          withBorder
          radius="sm"
          p="xs"
          mb="xs"
          data-testid="sortable-row"
          data-sortable-key={String(props.itemKey(item))}
          draggable={!props.disabled}
          onDragStart={(event) => {
            setDragged(index);
            event.dataTransfer.effectAllowed = 'move';
            event.dataTransfer.setData('text/plain', String(index));
          }}
          onDragOver={(event) => {
            if (dragged === null) return;
            event.preventDefault();
            setOver(index);
          }}
          onDragLeave={() => setOver((o) => (o === index ? null : o))}
          onDrop={(event) => {
            event.preventDefault();
            const from = dragged ?? Number(event.dataTransfer.getData('text/plain'));
            setDragged(null);
            setOver(null);
            if (Number.isInteger(from)) move(from, index);
          }}
          onDragEnd={() => {
            setDragged(null);
            setOver(null);
          }}
          style={over === index && dragged !== index ? { outline: '2px dashed var(--mantine-color-teal-7)' } : undefined}
        >
          <Group wrap="nowrap" align="flex-start" gap="xs">
            <Group gap={0} wrap="nowrap" pt={4}>
              <IconGripVertical size={16} aria-hidden style={{ cursor: props.disabled ? 'default' : 'grab', color: 'var(--mantine-color-gray-6)' }} />
              <ActionIcon
                variant="subtle"
                color="gray.8"
                size="sm"
                disabled={props.disabled || index === 0}
                aria-label={t('sortable.up', { name: props.itemLabel(item, index) })}
                data-move="up"
                onClick={() => moveByButton(index, index - 1, 'up')}
              >
                <IconArrowUp size={14} />
              </ActionIcon>
              <ActionIcon
                variant="subtle"
                color="gray.8"
                size="sm"
                disabled={props.disabled || index === props.items.length - 1}
                aria-label={t('sortable.down', { name: props.itemLabel(item, index) })}
                data-move="down"
                onClick={() => moveByButton(index, index + 1, 'down')}
              >
                <IconArrowDown size={14} />
              </ActionIcon>
            </Group>
            <div style={{ flex: 1, minWidth: 0 }}>{props.children(item, index)}</div>
          </Group>
        </Paper>
      ))}
    </div>
  );
};

/** The list with one item moved, for the caller's state. */
export const moved = <T,>(list: readonly T[], from: number, to: number): T[] => {
  const copy = [...list];
  const [item] = copy.splice(from, 1);
  copy.splice(to, 0, item as T);
  return copy;
};
