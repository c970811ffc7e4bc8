import type { Course, CourseBlock } from '../courses/course.ts';
import type { BlockFacts, CourseFacts } from './learning-statements.ts';

const factsOf = (block: CourseBlock): BlockFacts => {
  const fields = block.fields as { kind: string; name?: string; question?: string; questions?: BlockFacts['questions'] };
  return {
    id: block.id,
    kind: fields.kind,
    name: fields.name ?? '',
    ...(fields.kind === 'quiz' && fields.questions
      ? {
          questions: fields.questions.map((q) => ({
            id: q.id,
            text: q.text,
            answers: q.answers.map((a) => ({ id: a.id, text: a.text, correct: a.correct === true })),
          })),
        }
      : {}),
    ...(fields.kind === 'nps' && typeof fields.question === 'string' ? { question: fields.question } : {}),
  };
};

/**
 * What statements name of a course: its title, and each block as it was last (an enrollment may
 * take an older content version, decision 0021, so a block removed since is still named).
 */
export const courseFactsOf = (course: Course): CourseFacts => {
  const blocks = new Map<number, BlockFacts>();
  for (const version of course.contents) for (const block of version) blocks.set(block.id, factsOf(block));
  for (const block of course.blocks) blocks.set(block.id, factsOf(block));
  return { id: course.id, title: course.fields.title, blocks };
};
