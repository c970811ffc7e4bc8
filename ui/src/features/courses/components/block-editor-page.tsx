import { Center, Loader, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ConfirmButton } from '../../../components/confirm-button.tsx';
import { type AuthoredBlock, type BlockKind, listAuthoredBlocks, removeBlock } from '../api/admin-blocks.ts';
import { EMPTY_NPS, NpsBlockForm } from './nps-block-form.tsx';
import { EMPTY_PACKAGE, PackageBlockForm } from './package-block-form.tsx';
import { EMPTY_QUIZ, QuizBlockForm } from './quiz-block-form.tsx';
import {
  ArticleBlockForm,
  EMPTY_ARTICLE,
  EMPTY_INTERACTR,
  EMPTY_POINTS,
  EMPTY_TEXT_FILE,
  EMPTY_TYPEFORM,
  InteractrBlockForm,
  PointsBlockForm,
  TextFileBlockForm,
  TypeformBlockForm,
} from './simple-block-forms.tsx';
import { EMPTY_VIDEO, VideoBlockForm } from './video-block-form.tsx';

/** The path segment of each kind's "new" page: spec §2 names quiz, video, typeform, nps and points; article and text file follow them. */
export const NEW_BLOCK_SEGMENT: Record<BlockKind, string> = {
  quiz: 'quiz',
  video: 'video',
  typeform: 'typeform',
  nps: 'nps',
  points: 'points',
  article: 'article',
  textFile: 'text-file',
  interactr: 'interactr',
  package: 'package',
};
export const kindOfSegment = (segment: string): BlockKind | null =>
  (Object.entries(NEW_BLOCK_SEGMENT).find(([, s]) => s === segment)?.[0] as BlockKind | undefined) ?? null;

const DeleteBlock = ({ courseId, block }: { courseId: number; block: AuthoredBlock }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => removeBlock(courseId, block.id),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['admin-courses'] });
      await queryClient.invalidateQueries({ queryKey: ['admin-blocks', courseId] });
      notifications.show({ color: 'teal', message: t('blocks.removed') });
      navigate(`/admin/courses/${courseId}/general`);
    },
    onError: (error) => notifications.show({ color: 'red', message: error.message || t('form.deleteFailed') }),
  });
  return (
    <ConfirmButton
      label={t('blocks.remove')}
      question={t('blocks.removeQuestion', { name: block.name })}
      pending={remove.isPending}
      onConfirm={() => remove.mutateAsync().catch(() => undefined)}
    />
  );
};

/**
 * /admin/courses/{id}/blocks/{kind}/new and /admin/courses/{id}/blocks/{blockId} (spec §2): the
 * editor of one block, by its kind. A new block is added at the end of the course's content.
 */
export const BlockEditorPage = ({ courseId, kind, blockId }: { courseId: number; kind: BlockKind | null; blockId: number | null }) => {
  const { t } = useTranslation();
  const blocks = useQuery({ queryKey: ['admin-blocks', courseId], queryFn: () => listAuthoredBlocks(courseId), enabled: blockId !== null });
  if (blockId !== null && blocks.isPending)
    return (
      <Center py="xl">
        <Loader role="status" aria-label={t('common.loading')} />
      </Center>
    );
  const block = blockId === null ? null : (blocks.data?.find((b) => b.id === blockId) ?? null);
  const chosen = block?.kind ?? kind;
  if ((blockId !== null && !block) || !chosen) return <Text>{t('blocks.notFound')}</Text>;

  const title = block ? t('blocks.editTitle', { kind: t(`blocks.kinds.${chosen}`), name: block.name }) : t(`blocks.newTitle.${chosen}`);
  const key = `${courseId}-${blockId ?? chosen}`;
  const common = {
    title,
    target: { courseId, blockId },
    backTo: `/admin/courses/${courseId}/general`,
    actions: block ? <DeleteBlock courseId={courseId} block={block} /> : undefined,
  };
  const fields = block?.fields;
  switch (chosen) {
    case 'quiz':
      return <QuizBlockForm key={key} {...common} initial={fields?.kind === 'quiz' ? fields : EMPTY_QUIZ} />;
    case 'nps':
      return <NpsBlockForm key={key} {...common} initial={fields?.kind === 'nps' ? fields : EMPTY_NPS} />;
    case 'video':
      return <VideoBlockForm key={key} {...common} initial={fields?.kind === 'video' ? fields : EMPTY_VIDEO} />;
    case 'points':
      return <PointsBlockForm key={key} {...common} initial={fields?.kind === 'points' ? fields : EMPTY_POINTS} />;
    case 'article':
      return <ArticleBlockForm key={key} {...common} initial={fields?.kind === 'article' ? fields : EMPTY_ARTICLE} />;
    case 'textFile':
      return <TextFileBlockForm key={key} {...common} initial={fields?.kind === 'textFile' ? fields : EMPTY_TEXT_FILE} />;
    case 'typeform':
      return <TypeformBlockForm key={key} {...common} initial={fields?.kind === 'typeform' ? fields : EMPTY_TYPEFORM} />;
    case 'interactr':
      return <InteractrBlockForm key={key} {...common} initial={fields?.kind === 'interactr' ? fields : EMPTY_INTERACTR} />;
    case 'package':
      return <PackageBlockForm key={key} {...common} initial={fields?.kind === 'package' ? fields : EMPTY_PACKAGE} />;
    default: {
      const unreachable: never = chosen;
      return unreachable;
    }
  }
};
