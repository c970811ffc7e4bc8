import { z } from 'zod';
import { type QuizBlock, quizOutcomeOf, REVEAL_ANSWERS } from '../../domain/courses/course.rules.ts';
import { blocksAt } from '../../domain/courses/course.ts';
import { type EnrollmentEvent, enrollmentDecider, enrollmentStream } from '../../domain/courses/enrollment.ts';
import { fold } from '../../domain/shared/decider.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import { isCourseVisible } from '../../projections/courses/user-courses.queries.ts';
import type { CoursesDeps } from './courses.deps.ts';
import { loadCourse } from './take-course.ts';

const reviewedQuestion = z.object({
  questionId: z.string(),
  text: z.string(),
  answerId: z.string(),
  /** The chosen answer's text; null when the content no longer has it. */
  answer: z.string().nullable(),
  correct: z.boolean(),
  /** Only where the author's revealAnswers allows it now (decision 0053); null otherwise. */
  rightAnswer: z.string().nullable(),
  explanation: z.string().nullable(),
});

export const quizAttemptsResponse = z.object({
  revealAnswers: z.enum(REVEAL_ANSWERS),
  /** Whether the right answers and explanations are shown now. */
  revealed: z.boolean(),
  attemptsPerSet: z.number(),
  attemptsLeft: z.number(),
  passed: z.boolean(),
  /** After a set's last failed attempt: the course ended as not passed, or new attempts open at retryAt. */
  next: z.enum(['ended', 'wait']).nullable(),
  retryAt: z.string().nullable(),
  /** The author's message and whom to contact, when the course ended as not passed. */
  message: z.string().nullable(),
  contact: z.string().nullable(),
  attempts: z.array(z.object({ attempt: z.number(), score: z.number(), passed: z.boolean(), questions: z.array(reviewedQuestion) })),
});

type Attempt = { score: number; passed: boolean; answers: { questionId: string; answerId: string; correct: boolean }[] };

/**
 * A participant's review of a quiz (issue 33, decision 0053): every attempt with its score and, per
 * question, the chosen answer and whether it was right; the right answer and the author's
 * explanation only as the quiz's revealAnswers allows now: `always`; `afterLast` once the quiz is
 * passed or no attempt is available (the set used up, its wait not over, or the course ended);
 * `never`. Read from the enrollment stream on the content the participant started with (decision
 * 0021). A course the caller may not see answers 404; one not started yet has no attempts.
 */
export const quizAttempts = async (deps: CoursesDeps, userId: number, courseId: number, blockId: number): Promise<z.output<typeof quizAttemptsResponse>> => {
  if (!(await isCourseVisible(deps.db, userId, courseId))) throw new DomainError('404', 'Izobraževanje ne obstaja.', { status: 404 });
  const [course, stream] = await Promise.all([loadCourse(deps, courseId), deps.store.readStream(enrollmentStream(courseId, userId))]);
  const events = stream.events.map((e) => ({ type: e.type, data: e.data }) as EnrollmentEvent);
  const state = fold(enrollmentDecider, events);
  const block = blocksAt(course, state.status === 'none' ? null : state.contentVersion).find((b) => b.id === blockId);
  if (!block) throw new DomainError('404', 'Vsebinski blok ne obstaja.', { status: 404 });
  if (block.fields.kind !== 'quiz') throw new DomainError('400', 'Ta blok ni kviz.', { status: 400 });
  const quiz = block.fields as QuizBlock;
  const outcome = quizOutcomeOf(quiz);

  const attempts = new Map<number, Attempt>();
  const attemptOf = (n: number) => attempts.get(n) ?? (attempts.set(n, { score: 0, passed: false, answers: [] }).get(n) as Attempt);
  for (const event of events) {
    if (!('blockId' in event.data) || event.data.blockId !== blockId) continue;
    if (event.type === 'QuizAnswerSubmitted') attemptOf(event.data.attempt).answers.push(event.data);
    else if (event.type === 'QuizPassed' || event.type === 'QuizFailed')
      Object.assign(attemptOf(event.data.attempt), { score: event.data.score, passed: event.type === 'QuizPassed' });
  }

  const progress = state.status === 'none' ? undefined : state.blocks[blockId];
  const perSet = quiz.retries + 1;
  const passed = progress?.done === true;
  const lock = progress?.quizLock ?? null;
  const now = deps.now();
  const waitOver = lock?.next === 'wait' && now >= new Date(lock.retryAt);
  const used = progress ? progress.quizAttempts - progress.quizRoundFrom : 0;
  const attemptsLeft = passed || lock?.next === 'ended' ? 0 : lock?.next === 'wait' ? (waitOver ? perSet : 0) : Math.max(0, perSet - used);
  // afterLast: once passed, or once the course ended as not passed. Never while a new set may follow (a
  // wait, or a stream from before the rules whose outcome is not recorded yet): every set asks the same
  // questions, so answers read while waiting would pass the next set (review of issue 33).
  const revealed = outcome.revealAnswers === 'always' || (outcome.revealAnswers === 'afterLast' && used > 0 && (passed || lock?.next === 'ended'));
  const ended = lock?.next === 'ended' && outcome.afterLastFail.kind === 'end' ? outcome.afterLastFail : null;

  return {
    revealAnswers: outcome.revealAnswers,
    revealed,
    attemptsPerSet: perSet,
    attemptsLeft,
    passed,
    next: lock?.next ?? null,
    retryAt: lock?.next === 'wait' ? lock.retryAt : null,
    message: ended?.message ?? null,
    contact: ended?.contact ?? null,
    attempts: [...attempts.entries()]
      .sort(([a], [b]) => a - b)
      .map(([attempt, a]) => ({
        attempt,
        score: a.score,
        passed: a.passed,
        questions: quiz.questions.flatMap((q) => {
          const given = a.answers.find((x) => x.questionId === q.id);
          if (!given) return [];
          const right = q.answers.find((x) => x.correct);
          return [
            {
              questionId: q.id,
              text: q.text,
              answerId: given.answerId,
              answer: q.answers.find((x) => x.id === given.answerId)?.text ?? null,
              correct: given.correct,
              rightAnswer: revealed ? (right?.text ?? null) : null,
              explanation: revealed && q.explanation ? q.explanation : null,
            },
          ];
        }),
      })),
  };
};
