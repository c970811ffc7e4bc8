import { Alert, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../lib/api-client.ts';

/** The RX courses (type 1) the texts link to, as the server's filter of readers finds the links (issue 36). */
export const linkedRxCourses = (texts: readonly string[], signal?: AbortSignal) =>
  api<{ items: { id: number; title: string }[] }>('POST', '/linked-rx-courses', { body: { texts }, ...(signal ? { signal } : {}) }).then((r) => r.items);

/**
 * The news and newsletter editors' warning (issue 36, decision 0062): a text that links an RX course
 * reaches only the professions that may prescribe or supply medicines; everyone else is not sent it
 * at all. Asked of the server a moment after the author stops typing, so the warning finds the
 * links exactly as the readers' filter does (written plainly, with character references or escaped).
 */
export const RxLinkWarning = ({ texts }: { texts: readonly (string | null | undefined)[] }) => {
  const { t } = useTranslation();
  // As one string, so an equal list typed again is the same value (an array would be new at every render).
  const [key] = useDebouncedValue(JSON.stringify(texts.map((text) => text ?? '').filter((text) => /\d/.test(text))), 400);
  const debounced = JSON.parse(key) as string[];
  const rx = useQuery({
    queryKey: ['linked-rx-courses', key],
    queryFn: ({ signal }) => linkedRxCourses(debounced, signal),
    enabled: debounced.length > 0,
    staleTime: 30_000,
    retry: false,
  });
  const courses = debounced.length > 0 ? (rx.data ?? []) : [];
  if (courses.length === 0) return null;
  return (
    <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} aria-hidden />} data-testid="rx-link-warning" role="status">
      <Text size="sm" fw={600}>
        {t('rxLinks.warning')}
      </Text>
      <Text size="sm">{t('rxLinks.courses', { titles: courses.map((c) => `${c.title} (#${c.id})`).join(', ') })}</Text>
      <Text size="sm">{t('rxLinks.withheld')}</Text>
    </Alert>
  );
};
