import { Button, Divider, Group, Stack } from '@mantine/core';
import { IconBrandFacebook, IconBrandGoogle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { socialStartUrl } from '../api/identity.ts';

/**
 * Sign-in with Google or Facebook (spec §1): a full page load to the provider and back. A provider
 * that is not configured sends the browser back to /prijava with the spec §8 "unavailable" message.
 */
export const SocialButtons = ({ redirect }: { redirect: string }) => {
  const { t } = useTranslation();
  return (
    <Stack gap="sm">
      <Divider label={t('login.or')} labelPosition="center" />
      <Group grow>
        <Button variant="default" leftSection={<IconBrandGoogle size={18} aria-hidden />} component="a" href={socialStartUrl('google', redirect)}>
          {t('login.google')}
        </Button>
        <Button variant="default" leftSection={<IconBrandFacebook size={18} aria-hidden />} component="a" href={socialStartUrl('facebook', redirect)}>
          {t('login.facebook')}
        </Button>
      </Group>
    </Stack>
  );
};
