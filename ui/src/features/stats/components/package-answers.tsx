import { Stack, Text, Title } from '@mantine/core';
import { useQueries } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { numeric } from '../../../components/column-heads.tsx';
import { FiguresTable } from '../../../components/figures-table.tsx';
import { TableRegion } from '../../../components/table-region.tsx';
import { formatNumber } from '../../../lib/i18n.ts';
import { packageAnswersQuery } from '../api/stats.ts';

/**
 * The per-question view of a course's package blocks (issue 35): for each block with results whose
 * package reports its questions, what participants answered. Quizzes and packages without
 * interactions have none and show nothing here.
 */
export const PackageAnswers = ({ courseId, blockIds }: { courseId: number; blockIds: readonly number[] }) => {
  const { t } = useTranslation();
  const results = useQueries({ queries: blockIds.map((blockId) => packageAnswersQuery(courseId, blockId)) });
  const blocks = blockIds.map((blockId, i) => ({ blockId, items: results[i]?.data?.items ?? [] })).filter((b) => b.items.length > 0);
  if (blocks.length === 0) return null;
  return (
    <Stack gap="md">
      <Title order={3}>{t('stats.answers.title')}</Title>
      {blocks.map((block, n) => (
        <TableRegion key={block.blockId} label={`${t('stats.answers.title')} ${n + 1}`}>
          <FiguresTable
            data-testid="package-answers"
            columns={[
              t('stats.answers.question'),
              ...numeric([t('stats.answers.answered'), t('stats.answers.correct'), t('stats.answers.wrong')]),
              t('stats.answers.responses'),
            ]}
            rows={block.items.map((q) => ({
              key: `${q.itemId}/${q.questionId}`,
              name: (
                <>
                  <Text size="sm">{q.description ?? q.questionId}</Text>
                  {q.description ? (
                    <Text size="xs" c="dimmed">
                      {q.questionId}
                    </Text>
                  ) : null}
                </>
              ),
              figures: [formatNumber(q.answered), formatNumber(q.correct), formatNumber(q.wrong)],
              last: q.responses.length === 0 ? '—' : q.responses.map((r) => `${r.response} (${formatNumber(r.count)})`).join(', '),
            }))}
          />
        </TableRegion>
      ))}
    </Stack>
  );
};
