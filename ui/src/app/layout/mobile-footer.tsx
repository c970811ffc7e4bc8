import { Box, Text, UnstyledButton } from '@mantine/core';
import { IconArchive, IconCircleCheck, IconHome, IconNews, IconSchool, IconSearch, IconSparkles, IconStars } from '@tabler/icons-react';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { CurrentUser } from '../../features/users/api/me.ts';
import { hidingBarProps } from '../../lib/use-scroll-direction.ts';
import { footerLinks } from './menu-model.ts';

const ICONS: Record<string, ComponentType<{ size?: number; 'aria-hidden'?: boolean }>> = {
  home: IconHome,
  courses: IconSchool,
  academies: IconStars,
  new: IconSparkles,
  completed: IconCircleCheck,
  archived: IconArchive,
  search: IconSearch,
  news: IconNews,
};

/** spec §2 mobile footer; hides (inert) while scrolling down below 768 px, like the header; only the links the user may open. */
export const MobileFooter = ({ hidden, user }: { hidden: boolean; user: CurrentUser }) => {
  const { t } = useTranslation();
  return (
    <Box
      component="footer"
      data-testid="mobile-footer"
      {...hidingBarProps(hidden)}
      style={{
        position: 'fixed',
        bottom: 0,
        left: 0,
        right: 0,
        zIndex: 100,
        background: 'var(--mantine-color-white)',
        borderTop: '1px solid var(--mantine-color-gray-3)',
        transform: hidden ? 'translateY(100%)' : 'translateY(0)',
        transition: 'transform 200ms ease',
      }}
    >
      <nav aria-label={t('footer.label')}>
        <div className="mobile-footer-links">
          {footerLinks(user).map((link) => {
            const Icon = ICONS[link.key] ?? IconHome;
            return (
              <UnstyledButton key={link.key} component={Link} to={link.to as string} data-footer={link.key}>
                <Icon size={20} aria-hidden />
                <Text size="11px" lh={1.2}>
                  {t(link.label)}
                </Text>
              </UnstyledButton>
            );
          })}
        </div>
      </nav>
    </Box>
  );
};
