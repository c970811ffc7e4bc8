import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import type { StepResult } from '../api/courses.ts';

/**
 * One participant action (open, video progress, quiz, NPS): after it the course and its records are
 * read again, and the step that completes the course takes the participant to the completed page.
 */
export const useCourseStep = <I>(courseId: number, action: (input: I) => Promise<StepResult>, options: { silent?: boolean } = {}) => {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: action,
    onSuccess: async (result) => {
      await queryClient.invalidateQueries({ queryKey: ['user-course', courseId] });
      await queryClient.invalidateQueries({ queryKey: ['user-courses'] });
      if (result.completed) navigate(`/izobrazevanja/${courseId}/konec`);
    },
    onError: (error) => {
      if (!options.silent) notifications.show({ color: 'red', message: error.message });
    },
  });
};
