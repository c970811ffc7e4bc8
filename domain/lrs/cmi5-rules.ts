import { DomainError } from '../shared/domain-error.ts';
import {
  CMI5_CATEGORY,
  CMI5_VERBS,
  type Cmi5VerbName,
  contextActivityIds,
  isObject,
  type JsonObject,
  MOVEON_CATEGORY,
  type StatementSummary,
  VOIDED_VERB,
} from './xapi.ts';

/**
 * The cmi5 rules (cmi5 spec §9, Quartz) an AU's statements must keep before the platform's LRS
 * stores them. The LMS "SHOULD reject statements that conflict with" §9 (§6.3): the platform rejects
 * them (403) rather than storing and voiding them.
 */

/** The launch a statement is sent under: what the AU was given, and whose learning it is. */
export type LaunchFacts = {
  readonly registration: string;
  readonly sessionId: string;
  readonly activityId: string;
  /** 0-1; null: none. */
  readonly masteryScore: number | null;
  /** The launch's actor as agentKey() gives it. */
  readonly actorKey: string;
  readonly userId: number;
  readonly courseId: number;
  readonly blockId: number;
  readonly unitIds: readonly number[];
  readonly companyIds: readonly number[];
};

/** One AU session of a registration, as its statements left it. */
export type SessionProgress = {
  readonly launchedAt: string;
  /** When the last statement of the session was stored (abandoned's duration runs to it, cmi5 §9.5.4.2). */
  readonly lastAt: string;
  readonly initialized: boolean;
  /** Terminated or abandoned: no statement is taken for it any more (cmi5 §9.3.6, §9.3.8). */
  readonly ended: boolean;
  readonly verbs: readonly Cmi5VerbName[];
};

/** What a registration (one learner, one AU) holds so far that the rules ask about. */
export type RegistrationProgress = {
  readonly sessions: Readonly<Record<string, SessionProgress>>;
  readonly completed: boolean;
  readonly passed: boolean;
};

const refuse = (message: string) => new DomainError('403', message, { status: 403 });
const refuseWith = (message: string): never => {
  throw refuse(message);
};

/** The AU sends these; the others (launched, abandoned, waived, satisfied) only the LMS does (cmi5 §9.3). */
const AU_VERBS: readonly Cmi5VerbName[] = ['initialized', 'completed', 'passed', 'failed', 'terminated'];
/** cmi5 §9.5.4.1: these carry result.duration. */
const WITH_DURATION: readonly Cmi5VerbName[] = ['completed', 'passed', 'failed', 'terminated'];
/** cmi5 §9.6.2.2: these carry result.success or result.completion, and so the moveOn category. */
const MOVE_ON_VERBS: readonly Cmi5VerbName[] = ['completed', 'passed', 'failed'];

export const cmi5VerbOf = (verbId: string): Cmi5VerbName | null =>
  (Object.keys(CMI5_VERBS) as Cmi5VerbName[]).find((name) => CMI5_VERBS[name] === verbId) ?? null;

/** cmi5 §7.1.3: a cmi5 defined statement carries the cmi5 category activity. */
export const isCmi5Defined = (statement: JsonObject) => contextActivityIds(statement, 'category').includes(CMI5_CATEGORY);

const resultOf = (statement: JsonObject): JsonObject => (isObject(statement.result) ? statement.result : {});

/** cmi5 §9.5: which result properties a defined statement must and must not have. */
const checkResult = (verb: Cmi5VerbName, statement: JsonObject, summary: StatementSummary, launch: LaunchFacts) => {
  const result = resultOf(statement);
  if (WITH_DURATION.includes(verb) && summary.durationSeconds === null) refuseWith(`Izjava ${verb} mora navesti trajanje (result.duration).`);
  if (result.score !== undefined && verb !== 'passed' && verb !== 'failed') refuseWith(`Izjava ${verb} ne sme navesti rezultata (result.score).`);
  const success = verb === 'passed' ? true : verb === 'failed' ? false : undefined;
  if (result.success !== success) {
    refuseWith(success === undefined ? `Izjava ${verb} ne sme navesti uspeha (result.success).` : `Izjava ${verb} mora navesti result.success: ${success}.`);
  }
  const completion = verb === 'completed' ? true : undefined;
  if (result.completion !== completion) {
    refuseWith(completion ? 'Izjava completed mora navesti result.completion: true.' : `Izjava ${verb} ne sme navesti dokončanja (result.completion).`);
  }
  const mastery = launch.masteryScore;
  if (mastery !== null && summary.scaled !== null) {
    if (verb === 'passed' && summary.scaled < mastery) refuseWith(`Rezultat ${summary.scaled} je pod pragom za uspeh (${mastery}): izjava passed ni mogoča.`);
    if (verb === 'failed' && summary.scaled >= mastery) refuseWith(`Rezultat ${summary.scaled} dosega prag za uspeh (${mastery}): izjava failed ni mogoča.`);
  }
};

/**
 * Whether a launch may store this statement now, given what its registration holds; answers the
 * statement's cmi5 defined verb (null for a "cmi5 allowed" statement), or throws 403 naming the
 * broken rule.
 */
export const checkLaunchStatement = (
  statement: JsonObject,
  summary: StatementSummary,
  launch: LaunchFacts,
  progress: RegistrationProgress,
): Cmi5VerbName | null => {
  const actor = isObject(statement.actor) ? statement.actor : {};
  if ((actor.objectType ?? 'Agent') !== 'Agent' || summary.actorKey !== launch.actorKey) refuseWith('Akter izjave mora biti udeleženec tega zagona.');
  if (summary.registration !== launch.registration) refuseWith('Izjava mora navesti registracijo tega zagona (context.registration).');
  if (summary.verb === VOIDED_VERB) refuseWith('Vsebina ne sme razveljavljati izjav.');
  if (summary.sessionId !== launch.sessionId) refuseWith('Izjava mora navesti sejo tega zagona (razširitev sessionid).');
  const session = progress.sessions[launch.sessionId];
  if (!session) return refuseWith('Seja tega zagona se ni začela.');
  if (session.ended) refuseWith('Seja je končana: po izjavi terminated ali abandoned izjave niso več mogoče.');
  const defined = isCmi5Defined(statement);
  const verb = defined ? cmi5VerbOf(summary.verb) : null;
  if (!session.initialized && verb !== 'initialized') refuseWith('Prva izjava seje mora biti izjava cmi5 initialized.');
  const moveOn = contextActivityIds(statement, 'category').includes(MOVEON_CATEGORY);
  if (!defined) {
    if (moveOn) refuseWith('Kategorijo moveOn smejo navesti le izjave cmi5 completed, passed in failed.');
    return null;
  }
  if (verb === null) return refuseWith('Izjava s kategorijo cmi5 mora uporabiti glagol cmi5.');
  if (!AU_VERBS.includes(verb)) refuseWith(`Izjavo ${verb} zapiše le platforma.`);
  if (summary.activityId !== launch.activityId) refuseWith('Predmet izjave cmi5 mora biti aktivnost tega zagona (activityId).');
  if (session.verbs.includes(verb)) refuseWith(`Izjava ${verb} je v tej seji že zapisana.`);
  if (verb === 'completed' && progress.completed) refuseWith('Izjava completed je v tej registraciji že zapisana.');
  if (verb === 'passed' && progress.passed) refuseWith('Izjava passed je v tej registraciji že zapisana.');
  if (verb === 'failed' && progress.passed) refuseWith('Izjava failed ne sme slediti izjavi passed.');
  if ((verb === 'passed' && session.verbs.includes('failed')) || (verb === 'failed' && session.verbs.includes('passed'))) {
    refuseWith('V isti seji je mogoča le ena od izjav passed in failed.');
  }
  checkResult(verb, statement, summary, launch);
  if (MOVE_ON_VERBS.includes(verb) !== moveOn) {
    refuseWith(moveOn ? `Izjava ${verb} ne sme navesti kategorije moveOn.` : `Izjava ${verb} mora navesti kategorijo moveOn.`);
  }
  return verb;
};
