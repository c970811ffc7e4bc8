import { sql } from 'slonik';
import { z } from 'zod';
import type { StatsDb } from './stats.queries.ts';

const answerRow = z.object({
  item_id: z.string(),
  question_id: z.string(),
  type: z.string().nullable(),
  description: z.string().nullable(),
  answered: z.number(),
  correct: z.number(),
  wrong: z.number(),
});
const responseRow = z.object({ item_id: z.string(), question_id: z.string(), response: z.string(), count: z.number() });

/** How many different answers a question lists: the most given ones. */
const TOP_RESPONSES = 5;

/**
 * Per question of a package block: how many participants answered, how many right and wrong (as the
 * package judged it: SCORM `correct`, `wrong`/`incorrect`), and the answers given most.
 */
export const packageAnswers = async (db: StatsDb, courseId: number, blockId: number) => {
  const questions = await db.any(sql.type(answerRow)`
    select item_id, question_id, max(type) as type, max(description) as description, count(*)::int as answered,
           count(*) filter (where result = 'correct')::int as correct,
           count(*) filter (where result in ('wrong', 'incorrect'))::int as wrong
      from rm.package_answers
     where course_id = ${courseId} and block_id = ${blockId}
     group by item_id, question_id
     order by item_id, question_id`);
  const responses = await db.any(sql.type(responseRow)`
        select item_id, question_id, response, count from (
          select item_id, question_id, response, count(*)::int as count,
                 row_number() over (partition by item_id, question_id order by count(*) desc, response) as rank
            from rm.package_answers
           where course_id = ${courseId} and block_id = ${blockId} and response is not null and response <> ''
           group by item_id, question_id, response) ranked
         where rank <= ${TOP_RESPONSES}
         order by item_id, question_id, count desc, response`);
  return questions.map((q) => ({
    itemId: q.item_id,
    questionId: q.question_id,
    type: q.type,
    description: q.description,
    answered: q.answered,
    correct: q.correct,
    wrong: q.wrong,
    responses: responses.filter((r) => r.item_id === q.item_id && r.question_id === q.question_id).map((r) => ({ response: r.response, count: r.count })),
  }));
};

/** A course that exists and is not deleted. */
export const courseExists = async (db: StatsDb, courseId: number) =>
  (await db.maybeOneFirst(sql.type(z.object({ one: z.number() }))`select 1 as one from rm.courses where id = ${courseId} and status <> 'deleted'`)) !== null;
