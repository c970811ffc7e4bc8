import type { MoveOn } from '../packages/package-structure.ts';
import { CMI5_CATEGORY, CMI5_EXTENSIONS, CMI5_VERBS, type Cmi5VerbName, isoDuration, type JsonObject } from './xapi.ts';

/**
 * What the LMS writes before it launches an AU (cmi5 §10, §9.3.1): the LMS.LaunchData state
 * document and the "launched" statement, and, when the learner's previous session of the
 * registration never terminated, the "abandoned" statement that closes it (§9.3.6).
 */
export type Cmi5LaunchTemplate = {
  /** The learner as the AU names them (cmi5 §9.2: an Agent with an account). */
  readonly actor: JsonObject;
  /** Who asserts the LMS's statements (the platform). */
  readonly authority: JsonObject;
  /** The AU's id in cmi5.xml (cmi5 §9.6.2.3: the publisher id, in contextActivities.grouping). */
  readonly publisherId: string;
  readonly activityId: string;
  readonly registration: string;
  readonly sessionId: string;
  readonly moveOn: MoveOn | null;
  readonly masteryScore: number | null;
  readonly launchParameters: string | null;
  /** The AU's URL without the launch parameters (cmi5 §9.6.3.4); null when the caller did not say. */
  readonly launchUrl: string | null;
  /** Where the AU sends the learner when it ends (cmi5 §10 returnURL); null: none. */
  readonly returnUrl: string | null;
};

const VERB_DISPLAY: Record<Cmi5VerbName, string> = {
  launched: 'Launched',
  initialized: 'Initialized',
  completed: 'Completed',
  passed: 'Passed',
  failed: 'Failed',
  terminated: 'Terminated',
  abandoned: 'Abandoned',
  waived: 'Waived',
  satisfied: 'Satisfied',
};

const grouping = (t: Cmi5LaunchTemplate) => [{ objectType: 'Activity', id: t.publisherId }];

/**
 * cmi5 §10: the context every statement of the session starts from. It holds the session id and the
 * publisher id only: the cmi5 category belongs to cmi5 defined statements alone (§7.1.3), which the
 * AU adds itself; in the template it would make every "cmi5 allowed" statement look defined.
 */
export const contextTemplate = (t: Cmi5LaunchTemplate) => ({
  contextActivities: { grouping: grouping(t) },
  extensions: { [CMI5_EXTENSIONS.sessionId]: t.sessionId },
});

/** cmi5 §10 LMS.LaunchData. The platform launches in Normal mode only (no browse or review). */
export const launchDataDocument = (t: Cmi5LaunchTemplate): JsonObject => ({
  contextTemplate: contextTemplate(t),
  launchMode: 'Normal',
  moveOn: t.moveOn ?? 'NotApplicable',
  ...(t.masteryScore === null ? {} : { masteryScore: t.masteryScore }),
  ...(t.launchParameters === null ? {} : { launchParameters: t.launchParameters }),
  ...(t.returnUrl === null ? {} : { returnURL: t.returnUrl }),
});

const lmsStatement = (
  t: Cmi5LaunchTemplate,
  verb: Cmi5VerbName,
  id: string,
  at: string,
  sessionId: string,
  extra: { context?: JsonObject; result?: JsonObject },
) => ({
  id,
  actor: t.actor,
  verb: { id: CMI5_VERBS[verb], display: { 'en-US': VERB_DISPLAY[verb] } },
  object: { objectType: 'Activity', id: t.activityId },
  ...(extra.result ? { result: extra.result } : {}),
  context: {
    registration: t.registration,
    contextActivities: { category: [{ objectType: 'Activity', id: CMI5_CATEGORY }], grouping: grouping(t) },
    extensions: { [CMI5_EXTENSIONS.sessionId]: sessionId, ...(extra.context ?? {}) },
  },
  timestamp: at,
  stored: at,
  authority: t.authority,
  version: '1.0.0',
});

/** cmi5 §9.3.1 with the context extensions §9.6.3.2-7 ask of a "launched" statement. */
export const launchedStatement = (t: Cmi5LaunchTemplate, id: string, at: string): JsonObject =>
  lmsStatement(t, 'launched', id, at, t.sessionId, {
    context: {
      [CMI5_EXTENSIONS.launchMode]: 'Normal',
      [CMI5_EXTENSIONS.moveOn]: t.moveOn ?? 'NotApplicable',
      ...(t.masteryScore === null ? {} : { [CMI5_EXTENSIONS.masteryScore]: t.masteryScore }),
      ...(t.launchParameters === null ? {} : { [CMI5_EXTENSIONS.launchParameters]: t.launchParameters }),
      ...(t.launchUrl === null ? {} : { [CMI5_EXTENSIONS.launchUrl]: t.launchUrl }),
    },
  });

/** cmi5 §9.3.6: an earlier session that never terminated, closed with the time from its launch to its last statement (§9.5.4.2). */
export const abandonedStatement = (t: Cmi5LaunchTemplate, id: string, at: string, session: { sessionId: string; seconds: number }): JsonObject =>
  lmsStatement(t, 'abandoned', id, at, session.sessionId, { result: { duration: isoDuration(session.seconds) } });
