import { Button, Divider, Stack } from '@mantine/core';
import { IconBrandFacebook, IconBrandGoogle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { socialStartUrl } from '../api/identity.ts';

/**
 * Sign-in with Google or Facebook (spec §1): a full page load to the provider and back. A provider
 * that is not configured sends the browser back to /prijava with the spec §8 "unavailable" message.
 * One under the other, full width: side by side they cut their labels ("Prijava z Googl", issue 33 item 8).
 */
export const SocialButtons = ({ redirect }: { redirect: string }) => {
  const { t } = useTranslation();
  return (
    <Stack gap="sm">
      <Divider label={t('login.or')} labelPosition="center" />
      <Stack gap="xs">
        <Button fullWidth variant="default" leftSection={<IconBrandGoogle size={18} aria-hidden />} component="a" href={socialStartUrl('google', redirect)}>
          {t('login.google')}
        </Button>
        <Button fullWidth variant="default" leftSection={<IconBrandFacebook size={18} aria-hidden />} component="a" href={socialStartUrl('facebook', redirect)}>
          {t('login.facebook')}
        </Button>
      </Stack>
    </Stack>
  );
};
