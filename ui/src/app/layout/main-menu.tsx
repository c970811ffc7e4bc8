import { Button, Menu, NavLink, Stack } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink as RouterNavLink } from 'react-router';
import type { MenuItem } from './menu-model.ts';

/**
 * The entries are inline blocks in a balanced text block: a menu longer than the row (an admin's, 8
 * entries, wider than the header's 1320 px column) wraps to rows of even length inside the header
 * instead of widening the page and pushing the user menu off the screen (a keyboard walk of
 * 2026-11-27: 1368 px at 1280), and not to one lone entry on a second row. Every entry stays in the
 * header in reading and Tab order; a participant's short menu stays one row.
 */
const LIST_STYLE = { listStyle: 'none', margin: 0, padding: 0, textWrap: 'balance', lineHeight: 0 } as const;
const ENTRY_STYLE = { display: 'inline-block', margin: '1px 2px 1px 0', verticalAlign: 'middle' } as const;

/** The main menu on wide screens: links, and drop-downs for groups. */
export const DesktopMenu = ({ items }: { items: readonly MenuItem[] }) => {
  const { t } = useTranslation();
  return (
    // biome-ignore lint/a11y/noRedundantRoles: Safari drops a list's role under list-style none; the role keeps it a list for VoiceOver.
    <ul role="list" style={LIST_STYLE}>
      {items.map((item) =>
        item.children ? (
          <li key={item.key} style={ENTRY_STYLE}>
            {/* Opened, the focus goes to the first link (a named item), not to Mantine's unnamed placeholder (issue 33 item 5). */}
            <Menu position="bottom-start" withinPortal withInitialFocusPlaceholder={false}>
              <Menu.Target>
                <Button variant="subtle" color="dark" size="compact-md" rightSection={<IconChevronDown size={14} aria-hidden />} data-menu={item.key}>
                  {t(item.label)}
                </Button>
              </Menu.Target>
              <Menu.Dropdown aria-label={t(item.label)}>
                {item.children.map((child, index) => (
                  <Menu.Item key={child.key} component={Link} to={child.to as string} data-menu={child.key} data-autofocus={index === 0 ? true : undefined}>
                    {t(child.label)}
                  </Menu.Item>
                ))}
              </Menu.Dropdown>
            </Menu>
          </li>
        ) : (
          <li key={item.key} style={ENTRY_STYLE}>
            <Button component={RouterNavLink} to={item.to as string} variant="subtle" color="dark" size="compact-md" data-menu={item.key}>
              {t(item.label)}
            </Button>
          </li>
        ),
      )}
    </ul>
  );
};

/** The same menu as a list, for the mobile drawer. */
export const StackedMenu = ({ items, onNavigate }: { items: readonly MenuItem[]; onNavigate: () => void }) => {
  const { t } = useTranslation();
  return (
    <Stack gap={0}>
      {items.map((item) =>
        item.children ? (
          <NavLink key={item.key} label={t(item.label)} defaultOpened data-menu={item.key}>
            {item.children.map((child) => (
              <NavLink key={child.key} component={Link} to={child.to as string} label={t(child.label)} onClick={onNavigate} data-menu={child.key} />
            ))}
          </NavLink>
        ) : (
          <NavLink key={item.key} component={Link} to={item.to as string} label={t(item.label)} onClick={onNavigate} data-menu={item.key} />
        ),
      )}
    </Stack>
  );
};
