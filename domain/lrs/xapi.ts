/**
 * The parts of xAPI 1.0.3 and of the cmi5 profile (Quartz) the platform's LRS reads (issue 35 item 4).
 * Statements are kept as the JSON they are: the LRS checks them with `xapi-validation` and with the
 * cmi5 rules (cmi5-rules.ts), and reads only the few properties named here.
 */
export type JsonObject = { readonly [key: string]: unknown };

/** cmi5 §9.3: the ids of the cmi5 defined verbs (the ADL ones for the AU's verbs, w3id.org for the LMS's). */
export const CMI5_VERBS = {
  launched: 'http://adlnet.gov/expapi/verbs/launched',
  initialized: 'http://adlnet.gov/expapi/verbs/initialized',
  completed: 'http://adlnet.gov/expapi/verbs/completed',
  passed: 'http://adlnet.gov/expapi/verbs/passed',
  failed: 'http://adlnet.gov/expapi/verbs/failed',
  terminated: 'http://adlnet.gov/expapi/verbs/terminated',
  abandoned: 'https://w3id.org/xapi/adl/verbs/abandoned',
  waived: 'https://w3id.org/xapi/adl/verbs/waived',
  satisfied: 'https://w3id.org/xapi/adl/verbs/satisfied',
} as const;
export type Cmi5VerbName = keyof typeof CMI5_VERBS;
export const VOIDED_VERB = 'http://adlnet.gov/expapi/verbs/voided';

/** cmi5 §9.6.2.1 and §9.6.2.2. */
export const CMI5_CATEGORY = 'https://w3id.org/xapi/cmi5/context/categories/cmi5';
export const MOVEON_CATEGORY = 'https://w3id.org/xapi/cmi5/context/categories/moveon';

/** cmi5 §9.6.3 context extensions. */
export const CMI5_EXTENSIONS = {
  sessionId: 'https://w3id.org/xapi/cmi5/context/extensions/sessionid',
  masteryScore: 'https://w3id.org/xapi/cmi5/context/extensions/masteryscore',
  launchMode: 'https://w3id.org/xapi/cmi5/context/extensions/launchmode',
  launchUrl: 'https://w3id.org/xapi/cmi5/context/extensions/launchurl',
  moveOn: 'https://w3id.org/xapi/cmi5/context/extensions/moveon',
  launchParameters: 'https://w3id.org/xapi/cmi5/context/extensions/launchparameters',
} as const;

/** cmi5 §10: the state document the LMS writes before a launch, and §11: the learner preferences profile. */
export const LAUNCH_DATA_STATE_ID = 'LMS.LaunchData';
export const LEARNER_PREFERENCES_PROFILE_ID = 'cmi5LearnerPreferences';

export const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);
const objectAt = (value: unknown, key: string): JsonObject | null => (isObject(value) && isObject(value[key]) ? (value[key] as JsonObject) : null);
const stringAt = (value: unknown, key: string): string | null => (isObject(value) && typeof value[key] === 'string' ? (value[key] as string) : null);

/**
 * An agent's (or identified group's) inverse functional identifier as one string, the key the LRS
 * filters by (xAPI §4.1.2.3: exactly one of mbox, mbox_sha1sum, openid, account); null when it has none.
 */
export const agentKey = (agent: unknown): string | null => {
  if (!isObject(agent)) return null;
  const mbox = stringAt(agent, 'mbox');
  if (mbox) return `mbox:${mbox.toLowerCase()}`;
  const sha1 = stringAt(agent, 'mbox_sha1sum');
  if (sha1) return `mbox_sha1sum:${sha1.toLowerCase()}`;
  const openid = stringAt(agent, 'openid');
  if (openid) return `openid:${openid}`;
  const account = objectAt(agent, 'account');
  const homePage = stringAt(account, 'homePage');
  const name = stringAt(account, 'name');
  return homePage !== null && name !== null ? `account:${homePage}|${name}` : null;
};

/** The ids of a statement's context activities of one kind (category, grouping, parent, other), an object or a list. */
export const contextActivityIds = (statement: JsonObject, kind: 'category' | 'grouping' | 'parent' | 'other'): string[] => {
  const listed = objectAt(objectAt(statement, 'context'), 'contextActivities')?.[kind];
  const items = Array.isArray(listed) ? listed : listed === undefined ? [] : [listed];
  return items.flatMap((item) => {
    const id = stringAt(item, 'id');
    return id === null ? [] : [id];
  });
};

/** What the LRS reads of a statement to file it: who, what verb, which activity, which registration and session, the result. */
export type StatementSummary = {
  readonly verb: string;
  readonly actorKey: string | null;
  /** object.id when the object is an activity. */
  readonly activityId: string | null;
  /** The statement a voiding statement voids. */
  readonly voids: string | null;
  readonly registration: string | null;
  readonly sessionId: string | null;
  readonly scaled: number | null;
  readonly durationSeconds: number | null;
};

export const summarise = (statement: JsonObject): StatementSummary => {
  const verb = stringAt(objectAt(statement, 'verb'), 'id') ?? '';
  const object = objectAt(statement, 'object');
  const objectType = stringAt(object, 'objectType') ?? 'Activity';
  const context = objectAt(statement, 'context');
  const result = objectAt(statement, 'result');
  const scaled = objectAt(result, 'score')?.scaled;
  const duration = stringAt(result, 'duration');
  const sessionId = objectAt(context, 'extensions')?.[CMI5_EXTENSIONS.sessionId];
  return {
    verb,
    actorKey: agentKey(statement.actor),
    activityId: objectType === 'Activity' ? stringAt(object, 'id') : null,
    voids: verb === VOIDED_VERB && objectType === 'StatementRef' ? stringAt(object, 'id') : null,
    registration: stringAt(context, 'registration')?.toLowerCase() ?? null,
    sessionId: typeof sessionId === 'string' ? sessionId : null,
    scaled: typeof scaled === 'number' ? scaled : null,
    durationSeconds: duration === null ? null : durationSeconds(duration),
  };
};

const DURATION =
  /^P(?:(\d+(?:\.\d+)?)Y)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)W)?(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;
/** Seconds of each part of an ISO 8601 duration: a year and a month taken as 365 and 30 days. */
const PART_SECONDS = [365 * 86_400, 30 * 86_400, 7 * 86_400, 86_400, 3600, 60, 1];

/** An ISO 8601 duration (xAPI result.duration, e.g. `PT1M30.5S`) in seconds; null when it is not one. */
export const durationSeconds = (value: string): number | null => {
  const match = DURATION.exec(value);
  if (!match || value === 'P' || value.endsWith('T')) return null;
  let total = 0;
  for (let i = 0; i < PART_SECONDS.length; i++) {
    const part = match[i + 1];
    if (part !== undefined) total += Number(part) * (PART_SECONDS[i] as number);
  }
  return Math.round(total * 100) / 100;
};

/** Seconds as an ISO 8601 duration with centiseconds (xAPI §4.6 asks for at most 0.01 s precision). */
export const isoDuration = (seconds: number): string => {
  const centis = Math.max(0, Math.round(seconds * 100));
  const hours = Math.floor(centis / 360_000);
  const minutes = Math.floor((centis % 360_000) / 6000);
  const rest = (centis % 6000) / 100;
  return `PT${hours ? `${hours}H` : ''}${minutes ? `${minutes}M` : ''}${rest}S`;
};

/**
 * JSON with the keys of every object in order: two statements that differ only in the order of
 * their properties give the same text (the LRS compares a statement sent again with the one it holds).
 */
export const canonicalJson = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isObject(value)) {
    return `{${Object.keys(value)
      .filter((key) => value[key] !== undefined)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
};

/**
 * What two statements with one id must agree on to be the same statement (xAPI §2.2.3 statement
 * comparison): everything but the properties the LRS sets or may set (id, stored, authority,
 * version) and the timestamp it fills in when the client left it out.
 */
export const comparableStatement = (statement: JsonObject): string => {
  const { id: _id, stored: _stored, authority: _authority, version: _version, timestamp: _timestamp, ...rest } = statement;
  return canonicalJson(rest);
};
