/**
 * The part of an xAPI 1.0.3 statement (https://github.com/adlnet/xAPI-Spec/blob/1.0.3/xAPI-Data.md)
 * the platform writes: an agent identified by an account, a verb, an activity, and where known a
 * result and a context. What the LRS adds (stored, authority, version) is left to it.
 */
export type LanguageMap = Readonly<Record<string, string>>;

export type XapiAgent = {
  readonly objectType: 'Agent';
  /** The platform's own opaque name of the person: never an e-mail or a name (personal data stays here). */
  readonly account: { readonly homePage: string; readonly name: string };
};

export type XapiVerb = { readonly id: string; readonly display: LanguageMap };

export type XapiInteractionComponent = { readonly id: string; readonly description: LanguageMap };

export type XapiActivityDefinition = {
  readonly name?: LanguageMap;
  readonly description?: LanguageMap;
  readonly type?: string;
  readonly interactionType?: 'choice' | 'numeric';
  readonly choices?: readonly XapiInteractionComponent[];
  readonly correctResponsesPattern?: readonly string[];
  readonly extensions?: Readonly<Record<string, unknown>>;
};

export type XapiActivity = { readonly objectType: 'Activity'; readonly id: string; readonly definition?: XapiActivityDefinition };

export type XapiResult = {
  readonly score?: { readonly scaled?: number; readonly raw?: number; readonly min?: number; readonly max?: number };
  readonly success?: boolean;
  readonly completion?: boolean;
  readonly response?: string;
  /** ISO 8601 duration, e.g. `PT42.5S`. */
  readonly duration?: string;
  readonly extensions?: Readonly<Record<string, unknown>>;
};

export type XapiContext = {
  readonly registration?: string;
  readonly contextActivities?: {
    readonly parent?: readonly XapiActivity[];
    readonly grouping?: readonly XapiActivity[];
    readonly category?: readonly XapiActivity[];
  };
  readonly platform?: string;
  readonly language?: string;
  readonly extensions?: Readonly<Record<string, unknown>>;
};

export type XapiStatement = {
  readonly id: string;
  readonly actor: XapiAgent;
  readonly verb: XapiVerb;
  readonly object: XapiActivity;
  readonly result?: XapiResult;
  readonly context?: XapiContext;
  /** When it happened: the event's time, not the time it was sent. */
  readonly timestamp: string;
};

const ADL = 'http://adlnet.gov/expapi/verbs';

/**
 * The verbs the platform states (decision 0061). ADL's where ADL has one; a certificate is `earned`
 * from the registry most LRSs know (ADL has no verb for an award). Video progress is ADL
 * `experienced` with the video profile's extensions rather than the profile's `played`/`paused`
 * verbs: the platform records how far a person watched, not the player's sessions those verbs
 * describe (and the profile requires a session id and times the platform does not have).
 */
export const VERBS = {
  attempted: { id: `${ADL}/attempted`, display: { 'en-US': 'attempted', 'sl-SI': 'začel' } },
  experienced: { id: `${ADL}/experienced`, display: { 'en-US': 'experienced', 'sl-SI': 'ogledal si je' } },
  completed: { id: `${ADL}/completed`, display: { 'en-US': 'completed', 'sl-SI': 'zaključil' } },
  passed: { id: `${ADL}/passed`, display: { 'en-US': 'passed', 'sl-SI': 'opravil' } },
  failed: { id: `${ADL}/failed`, display: { 'en-US': 'failed', 'sl-SI': 'ni opravil' } },
  answered: { id: `${ADL}/answered`, display: { 'en-US': 'answered', 'sl-SI': 'odgovoril' } },
  attended: { id: `${ADL}/attended`, display: { 'en-US': 'attended', 'sl-SI': 'bil prisoten' } },
  earned: { id: 'http://id.tincanapi.com/verb/earned', display: { 'en-US': 'earned', 'sl-SI': 'prejel' } },
} as const satisfies Record<string, XapiVerb>;

export type VerbKey = keyof typeof VERBS;

/** ADL activity types (and the video profile's for videos). */
export const ACTIVITY_TYPES = {
  course: 'http://adlnet.gov/expapi/activities/course',
  module: 'http://adlnet.gov/expapi/activities/module',
  assessment: 'http://adlnet.gov/expapi/activities/assessment',
  interaction: 'http://adlnet.gov/expapi/activities/cmi.interaction',
  meeting: 'http://adlnet.gov/expapi/activities/meeting',
  video: 'https://w3id.org/xapi/video/activity-type/video',
} as const;
