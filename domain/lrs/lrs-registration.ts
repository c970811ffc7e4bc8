import { z } from 'zod';
import type { Decider } from '../shared/decider.ts';
import { DomainError } from '../shared/domain-error.ts';
import { defineEvent, type EventsOf } from '../shared/event.ts';
import { abandonedStatement, type Cmi5LaunchTemplate, launchDataDocument, launchedStatement } from './cmi5-launch.ts';
import { checkLaunchStatement, type LaunchFacts, type RegistrationProgress, type SessionProgress } from './cmi5-rules.ts';
import type { LrsStatementEvent, StoredStatementData } from './lrs-statement.ts';
import { type Cmi5VerbName, isObject, type JsonObject, LAUNCH_DATA_STATE_ID, summarise } from './xapi.ts';

/**
 * One cmi5 registration (one learner, one AU of a package block) in the platform's LRS: the
 * statements of its sessions, in the order they were stored, and its state documents (cmi5 §10 and
 * whatever the AU keeps). One stream per registration, so the cmi5 ordering rules (cmi5 §9.3) are
 * decided on everything stored before, and two requests of one AU never both pass a rule that
 * only one of them may.
 */
export const lrsRegistrationStream = (registration: string) => `lrs-${registration.toLowerCase()}`;

const documentData = z.object({
  registration: z.string(),
  userId: z.number().int().positive(),
  activityId: z.string(),
  stateId: z.string(),
  contentType: z.string(),
  /** The document's text (JSON or other text), a person's data (decision 0019). */
  content: z.string(),
  updatedAt: z.string(),
});
export type StateDocument = Omit<z.infer<typeof documentData>, 'registration' | 'userId'>;

const ownerIsUser = {
  personal: { fields: ['content'], owner: (data: Readonly<Record<string, unknown>>) => (typeof data.userId === 'number' ? data.userId : null) },
};

export const lrsRegistrationEvents = [
  defineEvent('LrsStateDocumentSaved', documentData, ownerIsUser),
  defineEvent(
    'LrsStateDocumentsDeleted',
    z.object({
      registration: z.string(),
      userId: z.number().int().positive(),
      activityId: z.string(),
      stateIds: z.array(z.string()),
    }),
  ),
] as const;

export type LrsRegistrationEvent = LrsStatementEvent | EventsOf<typeof lrsRegistrationEvents>;

export type LrsRegistrationState =
  | { readonly status: 'new' }
  | (RegistrationProgress & {
      readonly status: 'launched';
      /** Statement id -> what a statement sent again with it must equal. */
      readonly fingerprints: Readonly<Record<string, string>>;
      /** The session launched last, while it has not ended. */
      readonly openSession: string | null;
      /** `<activityId>\n<stateId>` -> the document. */
      readonly documents: Readonly<Record<string, StateDocument>>;
    });

/** A statement the application checked against xAPI and completed (id, stored, authority, version, timestamp). */
export type PreparedStatement = { readonly id: string; readonly fingerprint: string; readonly stored: string; readonly statement: JsonObject };

export type LrsRegistrationCommand =
  /** Before a launch (cmi5 §10): LaunchData and "launched"; an earlier session left open is abandoned first. */
  | {
      readonly type: 'PrepareLaunch';
      readonly launch: LaunchFacts;
      readonly template: Cmi5LaunchTemplate;
      readonly ids: { readonly launched: string; readonly abandoned: string };
      readonly now: string;
    }
  | { readonly type: 'StoreStatements'; readonly launch: LaunchFacts; readonly statements: readonly PreparedStatement[] }
  | { readonly type: 'SaveStateDocument'; readonly launch: LaunchFacts; readonly document: StateDocument; readonly merge: boolean }
  | { readonly type: 'DeleteStateDocuments'; readonly launch: LaunchFacts; readonly activityId: string; readonly stateId: string | null };

export const statementConflict = () => new DomainError('409', 'Izjava s tem id-jem je že shranjena z drugačno vsebino.', { status: 409, field: 'statementId' });
const notLaunched = () => new DomainError('403', 'Seja tega zagona se ni začela.', { status: 403 });
const launchDataIsTheLms = () => new DomainError('403', 'Dokumenta LMS.LaunchData vsebina ne sme spreminjati.', { status: 403, field: 'stateId' });

const documentKey = (activityId: string, stateId: string) => `${activityId}\n${stateId}`;

const ENDS: readonly Cmi5VerbName[] = ['terminated', 'abandoned'];

const evolveStatement = (state: LrsRegistrationState, d: StoredStatementData): LrsRegistrationState => {
  const base =
    state.status === 'launched'
      ? state
      : { status: 'launched' as const, fingerprints: {}, sessions: {}, openSession: null, documents: {}, completed: false, passed: false };
  const sessions = { ...base.sessions };
  let openSession = base.openSession;
  const verb = d.cmi5Verb;
  if (d.sessionId !== null) {
    const previous = sessions[d.sessionId];
    if (verb === 'launched' && !previous) {
      sessions[d.sessionId] = { launchedAt: d.stored, lastAt: d.stored, initialized: false, ended: false, verbs: ['launched'] };
      openSession = d.sessionId;
    } else if (previous) {
      const ended = previous.ended || (verb !== null && ENDS.includes(verb));
      const next: SessionProgress = {
        ...previous,
        lastAt: d.stored,
        initialized: previous.initialized || verb === 'initialized',
        ended,
        verbs: verb === null ? previous.verbs : [...previous.verbs, verb],
      };
      sessions[d.sessionId] = next;
      if (ended && openSession === d.sessionId) openSession = null;
    }
  }
  return {
    ...base,
    fingerprints: { ...base.fingerprints, [d.statementId]: d.fingerprint },
    sessions,
    openSession,
    completed: base.completed || verb === 'completed',
    passed: base.passed || verb === 'passed',
  };
};

export const evolveLrsRegistration = (state: LrsRegistrationState, event: LrsRegistrationEvent): LrsRegistrationState => {
  switch (event.type) {
    case 'LrsStatementStored':
      return evolveStatement(state, event.data);
    case 'LrsStateDocumentSaved': {
      if (state.status !== 'launched') return state;
      const { registration: _r, userId: _u, ...document } = event.data;
      return { ...state, documents: { ...state.documents, [documentKey(document.activityId, document.stateId)]: document } };
    }
    case 'LrsStateDocumentsDeleted': {
      if (state.status !== 'launched') return state;
      const documents = { ...state.documents };
      for (const stateId of event.data.stateIds) delete documents[documentKey(event.data.activityId, stateId)];
      return { ...state, documents };
    }
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
};

const statementEvent = (
  launch: LaunchFacts,
  source: 'lms' | 'launch',
  prepared: PreparedStatement,
  cmi5Verb: Cmi5VerbName | null,
): Extract<LrsRegistrationEvent, { type: 'LrsStatementStored' }> => {
  const summary = summarise(prepared.statement);
  return {
    type: 'LrsStatementStored',
    data: {
      statementId: prepared.id,
      source,
      registration: launch.registration,
      sessionId: summary.sessionId,
      userId: launch.userId,
      courseId: launch.courseId,
      blockId: launch.blockId,
      unitIds: [...launch.unitIds],
      companyIds: [...launch.companyIds],
      verb: summary.verb,
      actorKey: summary.actorKey,
      activityId: summary.activityId,
      voids: summary.voids,
      cmi5Verb,
      scaled: summary.scaled,
      durationSeconds: summary.durationSeconds,
      fingerprint: prepared.fingerprint,
      stored: prepared.stored,
      statement: JSON.stringify(prepared.statement),
    },
  };
};

const decidePrepareLaunch = (command: Extract<LrsRegistrationCommand, { type: 'PrepareLaunch' }>, state: LrsRegistrationState): LrsRegistrationEvent[] => {
  const { launch, template, ids, now } = command;
  // The same launch prepared again (a retried request) changes nothing.
  if (state.status === 'launched' && state.sessions[launch.sessionId]) return [];
  const events: LrsRegistrationEvent[] = [];
  const open = state.status === 'launched' && state.openSession ? { id: state.openSession, session: state.sessions[state.openSession] } : null;
  if (open?.session) {
    const seconds = (Date.parse(open.session.lastAt) - Date.parse(open.session.launchedAt)) / 1000;
    const statement = abandonedStatement(template, ids.abandoned, now, { sessionId: open.id, seconds });
    events.push(statementEvent(launch, 'lms', { id: ids.abandoned, fingerprint: 'lms', stored: now, statement }, 'abandoned'));
  }
  // A millisecond after the abandoned one, so the two keep their order when read by `stored`.
  const at = open?.session ? new Date(Date.parse(now) + 1).toISOString() : now;
  events.push(
    statementEvent(launch, 'lms', { id: ids.launched, fingerprint: 'lms', stored: at, statement: launchedStatement(template, ids.launched, at) }, 'launched'),
  );
  events.push({
    type: 'LrsStateDocumentSaved',
    data: {
      registration: launch.registration,
      userId: launch.userId,
      activityId: launch.activityId,
      stateId: LAUNCH_DATA_STATE_ID,
      contentType: 'application/json',
      content: JSON.stringify(launchDataDocument(template)),
      updatedAt: now,
    },
  });
  return events;
};

/**
 * A batch of an AU's statements, all or none (xAPI §2.1.2 for POST): each is decided on the state
 * the ones before it left, so `[initialized, completed]` in one request is taken in that order. A
 * statement already stored (a retry) is left as it is; one whose id is taken by other content is a 409.
 */
const decideStoreStatements = (command: Extract<LrsRegistrationCommand, { type: 'StoreStatements' }>, state: LrsRegistrationState): LrsRegistrationEvent[] => {
  if (state.status !== 'launched') throw notLaunched();
  let current: LrsRegistrationState = state;
  const events: LrsRegistrationEvent[] = [];
  for (const prepared of command.statements) {
    if (current.status !== 'launched') throw notLaunched();
    const known = current.fingerprints[prepared.id];
    if (known !== undefined) {
      if (known === prepared.fingerprint) continue;
      throw statementConflict();
    }
    const verb = checkLaunchStatement(prepared.statement, summarise(prepared.statement), command.launch, current);
    const event = statementEvent(command.launch, 'launch', prepared, verb);
    events.push(event);
    current = evolveLrsRegistration(current, event);
  }
  return events;
};

/** The session of a launch must be going (launched, not ended) for its AU to keep documents. */
const sessionGoing = (state: LrsRegistrationState, launch: LaunchFacts) => {
  if (state.status !== 'launched' || !state.sessions[launch.sessionId]) throw notLaunched();
  if (state.sessions[launch.sessionId]?.ended) throw new DomainError('403', 'Seja je končana.', { status: 403 });
  return state;
};

const decideSaveDocument = (command: Extract<LrsRegistrationCommand, { type: 'SaveStateDocument' }>, state: LrsRegistrationState): LrsRegistrationEvent[] => {
  const going = sessionGoing(state, command.launch);
  const { document, launch } = command;
  if (document.stateId === LAUNCH_DATA_STATE_ID) throw launchDataIsTheLms();
  const existing = going.documents[documentKey(document.activityId, document.stateId)];
  let next = document;
  // xAPI §2.5: POST merges the top-level properties of two JSON objects; anything else is refused.
  if (command.merge && existing) {
    const parse = (text: string, type: string) => {
      if (!type.startsWith('application/json')) return null;
      try {
        const value: unknown = JSON.parse(text);
        return isObject(value) ? value : null;
      } catch {
        return null;
      }
    };
    const before = parse(existing.content, existing.contentType);
    const after = parse(document.content, document.contentType);
    if (!before || !after) throw new DomainError('400', 'Združiti je mogoče le dokumenta JSON, ki sta objekta.', { status: 400 });
    next = { ...document, contentType: 'application/json', content: JSON.stringify({ ...before, ...after }) };
  }
  if (existing && existing.content === next.content && existing.contentType === next.contentType) return [];
  return [{ type: 'LrsStateDocumentSaved', data: { registration: launch.registration, userId: launch.userId, ...next } }];
};

const decideDeleteDocuments = (
  command: Extract<LrsRegistrationCommand, { type: 'DeleteStateDocuments' }>,
  state: LrsRegistrationState,
): LrsRegistrationEvent[] => {
  const going = sessionGoing(state, command.launch);
  if (command.stateId === LAUNCH_DATA_STATE_ID) throw launchDataIsTheLms();
  const stateIds = Object.values(going.documents)
    .filter((d) => d.activityId === command.activityId && d.stateId !== LAUNCH_DATA_STATE_ID && (command.stateId === null || d.stateId === command.stateId))
    .map((d) => d.stateId);
  if (stateIds.length === 0) return [];
  return [
    {
      type: 'LrsStateDocumentsDeleted',
      data: { registration: command.launch.registration, userId: command.launch.userId, activityId: command.activityId, stateIds },
    },
  ];
};

export const decideLrsRegistration = (command: LrsRegistrationCommand, state: LrsRegistrationState): LrsRegistrationEvent[] => {
  switch (command.type) {
    case 'PrepareLaunch':
      return decidePrepareLaunch(command, state);
    case 'StoreStatements':
      return decideStoreStatements(command, state);
    case 'SaveStateDocument':
      return decideSaveDocument(command, state);
    case 'DeleteStateDocuments':
      return decideDeleteDocuments(command, state);
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
};

export const lrsRegistrationDecider: Decider<LrsRegistrationCommand, LrsRegistrationEvent, LrsRegistrationState> = {
  initialState: { status: 'new' },
  evolve: evolveLrsRegistration,
  decide: decideLrsRegistration,
};

/** The registration's documents of one activity, as the AU reads them (stateId order). */
export const documentsOf = (state: LrsRegistrationState, activityId: string): StateDocument[] =>
  state.status === 'launched'
    ? Object.values(state.documents)
        .filter((d) => d.activityId === activityId)
        .sort((a, b) => (a.stateId < b.stateId ? -1 : 1))
    : [];
