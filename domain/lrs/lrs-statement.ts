import { z } from 'zod';
import { defineEvent, type EventsOf } from '../shared/event.ts';
import { CMI5_VERBS, type Cmi5VerbName } from './xapi.ts';

/**
 * A statement the platform's LRS stored (issue 35 item 4): the statement itself as JSON text, and
 * what the LRS reads of it to file it (verb, actor, activity, registration, session) and, for a
 * launch, whose learning it is (user, course, block, and where the person stood then: the units and
 * companies of their roles, so a manager's reach is judged as it was, decision 0050).
 *
 * The same event is stored in a registration's stream (`lrs-<registration>`, statements of a cmi5
 * launch and the LMS's own) and in a statement's own stream (`lrsstatement-<id>`, statements an
 * outside client writes). The statement is a person's data (decision 0019): encrypted with the
 * learner's key, so an erasure leaves a placeholder where it was.
 */
export const STATEMENT_SOURCES = ['lms', 'launch', 'client'] as const;
export type StatementSource = (typeof STATEMENT_SOURCES)[number];

const cmi5VerbName = z.enum(Object.keys(CMI5_VERBS) as [Cmi5VerbName, ...Cmi5VerbName[]]);
const id = z.number().int().positive();

export const storedStatementData = z.object({
  statementId: z.string().min(1).max(64),
  source: z.enum(STATEMENT_SOURCES),
  registration: z.string().nullable(),
  sessionId: z.string().nullable(),
  userId: id.nullable(),
  courseId: id.nullable(),
  blockId: id.nullable(),
  unitIds: z.array(z.number().int().nonnegative()),
  companyIds: z.array(id),
  verb: z.string(),
  actorKey: z.string().nullable(),
  activityId: z.string().nullable(),
  voids: z.string().nullable(),
  /** The cmi5 defined verb, when the statement is a cmi5 defined statement of a launch (or the LMS's). */
  cmi5Verb: cmi5VerbName.nullable(),
  scaled: z.number().nullable(),
  durationSeconds: z.number().nullable(),
  /** What a statement sent again with this id must equal (xAPI statement comparison); `lms` for the platform's own. */
  fingerprint: z.string(),
  /** When the LRS stored it (ISO 8601, UTC), as its `stored` property says. */
  stored: z.string(),
  /** The statement as stored (with id, stored, authority, version, timestamp), JSON text. */
  statement: z.string(),
});
export type StoredStatementData = z.infer<typeof storedStatementData>;

export const lrsStatementEvents = [
  defineEvent('LrsStatementStored', storedStatementData, {
    personal: { fields: ['statement'], owner: (data) => (typeof data.userId === 'number' ? data.userId : null) },
  }),
] as const;
export type LrsStatementEvent = EventsOf<typeof lrsStatementEvents>;
