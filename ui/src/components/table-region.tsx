import { Group, Text } from '@mantine/core';
import { IconArrowsHorizontal } from '@tabler/icons-react';
import { type ReactNode, useId, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Whether the element's content is wider than the element (it scrolls sideways). */
export const overflowsSideways = (element: { scrollWidth: number; clientWidth: number }) => element.scrollWidth > element.clientWidth + 1;

/**
 * A table that may be wider than the screen (issue 33: phone tables were cut with no hint). It scrolls
 * sideways inside its own labelled region; while it does, the region is in the Tab order (so a keyboard
 * scrolls it with the arrow keys, axe `scrollable-region-focusable`) and a visible hint says so. A table
 * that fits shows neither, so desktop pages keep their Tab order.
 */
export const TableRegion = ({
  label,
  minWidth,
  maxHeight,
  children,
}: {
  label: string;
  /** The width below which the table scrolls instead of squeezing its columns. */
  minWidth?: number;
  /** A long list scrolls inside this height too. */
  maxHeight?: number;
  children: ReactNode;
}) => {
  const { t } = useTranslation();
  const hint = useId();
  const ref = useRef<HTMLElement>(null);
  const [overflows, setOverflows] = useState(false);
  const [scrolls, setScrolls] = useState(false);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => {
      setOverflows(overflowsSideways(element));
      setScrolls(element.scrollHeight > element.clientHeight + 1);
    };
    measure();
    // The region resizes with the screen, its table with its rows (data arriving, a page of a list).
    const resize = new ResizeObserver(measure);
    const observeContent = () => {
      resize.disconnect();
      resize.observe(element);
      for (const child of element.querySelectorAll(':scope > *, table')) resize.observe(child);
      measure();
    };
    observeContent();
    const mutations = new MutationObserver(observeContent);
    mutations.observe(element, { childList: true });
    return () => {
      resize.disconnect();
      mutations.disconnect();
    };
  }, []);
  return (
    <div>
      {overflows ? (
        <Group gap={6} mb={6} wrap="nowrap" data-testid="table-scroll-hint">
          <IconArrowsHorizontal size={16} aria-hidden />
          <Text size="sm" c="gray.7" id={hint}>
            {t('table.scrollHint')}
          </Text>
        </Group>
      ) : null}
      {/* A labelled section is a region landmark. */}
      <section
        ref={ref}
        aria-label={label}
        aria-describedby={overflows ? hint : undefined}
        tabIndex={overflows || scrolls ? 0 : undefined}
        data-table-region
        data-overflows={overflows || undefined}
        style={{ overflowX: 'auto', outlineOffset: 2, ...(maxHeight ? { maxHeight, overflowY: 'auto' } : {}) }}
      >
        {minWidth ? <div style={{ minWidth }}>{children}</div> : children}
      </section>
    </div>
  );
};
