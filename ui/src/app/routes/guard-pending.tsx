import { Center, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** What a guard-only route (/login-as, /redirect/{id}) shows for the moment before it moves on. */
export const GuardPending = () => {
  const { t } = useTranslation();
  return (
    <Center mih="60vh">
      <Loader role="status" aria-label={t('common.loading')} />
    </Center>
  );
};
