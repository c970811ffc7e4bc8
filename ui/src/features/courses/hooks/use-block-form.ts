import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import { useZodForm } from '../../../lib/use-zod-form.ts';
import { addBlock, type BlockInput, updateBlock } from '../api/admin-blocks.ts';

export type BlockTarget = { courseId: number; blockId: number | null };

/**
 * A block editor's form: validated by the block kind's own rule from the domain (the API's
 * messages, in Slovenian), saved as a new block at the end of the course or as a change of the
 * block; the server's field errors land on their fields. A new block returns to the course's
 * content list, where it now shows.
 */
export const useBlockForm = <Schema extends z.ZodType>(rule: Schema, initial: z.input<Schema>, target: BlockTarget) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const form = useZodForm(rule, initial);
  const save = useMutation({
    mutationFn: (block: BlockInput) => (target.blockId === null ? addBlock(target.courseId, block) : updateBlock(target.courseId, target.blockId, block)),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['admin-courses'] });
      await queryClient.invalidateQueries({ queryKey: ['admin-blocks', target.courseId] });
      notifications.show({ color: 'teal', message: t(target.blockId === null ? 'blocks.added' : 'form.saved') });
      if (target.blockId === null) navigate(`/admin/courses/${target.courseId}/general`);
    },
    onError: (error) => {
      const message = form.serverErrors(error);
      notifications.show({ color: 'red', message: message ?? t('validation.form') });
    },
  });
  return {
    form,
    submitting: save.isPending,
    submit: () => {
      const parsed = form.validate();
      if (parsed) save.mutate(parsed as unknown as BlockInput);
      else notifications.show({ color: 'red', message: t('validation.form') });
    },
  };
};
