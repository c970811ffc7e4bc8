import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../../tests/support/decider-spec.ts';
import { fold } from '../shared/decider.ts';
import type { Cmi5LaunchTemplate } from './cmi5-launch.ts';
import type { LaunchFacts } from './cmi5-rules.ts';
import { type LrsRegistrationCommand, type LrsRegistrationEvent, lrsRegistrationDecider, type PreparedStatement } from './lrs-registration.ts';
import { CMI5_CATEGORY, CMI5_EXTENSIONS, CMI5_VERBS, type Cmi5VerbName, isoDuration, type JsonObject, LAUNCH_DATA_STATE_ID, MOVEON_CATEGORY } from './xapi.ts';

const REGISTRATION = '0b0e8d3a-6a55-4c7f-9e38-2b8a3f0f7a11';
const SESSION = 'session-1';
const ACTIVITY = 'https://example.com/au/1';
const actor = { objectType: 'Agent', account: { homePage: 'https://platforma.si', name: '7' } };
const launch: LaunchFacts = {
  registration: REGISTRATION,
  sessionId: SESSION,
  activityId: ACTIVITY,
  masteryScore: 0.8,
  actorKey: 'account:https://platforma.si|7',
  userId: 7,
  courseId: 3,
  blockId: 4,
  unitIds: [2],
  companyIds: [1],
};
const template = (sessionId = SESSION): Cmi5LaunchTemplate => ({
  actor,
  authority: { objectType: 'Agent', account: { homePage: 'https://platforma.si', name: 'lms' } },
  publisherId: ACTIVITY,
  activityId: ACTIVITY,
  registration: REGISTRATION,
  sessionId,
  moveOn: 'CompletedAndPassed',
  masteryScore: 0.8,
  launchParameters: null,
  launchUrl: null,
  returnUrl: null,
});

let n = 0;
/** An AU statement of the launch's session, as the cmi5 library makes one. */
const statement = (
  verb: Cmi5VerbName | string,
  extra: { result?: JsonObject; moveOn?: boolean; defined?: boolean; session?: string; id?: string } = {},
): PreparedStatement => {
  n += 1;
  const id = extra.id ?? `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  const verbId = verb in CMI5_VERBS ? CMI5_VERBS[verb as Cmi5VerbName] : verb;
  const category = [...(extra.defined === false ? [] : [{ id: CMI5_CATEGORY }]), ...(extra.moveOn ? [{ id: MOVEON_CATEGORY }] : [])];
  return {
    id,
    fingerprint: `fp-${id}`,
    stored: new Date(Date.UTC(2026, 0, 1, 10, 0, n)).toISOString(),
    statement: {
      id,
      actor,
      verb: { id: verbId },
      object: { objectType: 'Activity', id: ACTIVITY },
      ...(extra.result ? { result: extra.result } : {}),
      context: {
        registration: REGISTRATION,
        contextActivities: { category },
        extensions: { [CMI5_EXTENSIONS.sessionId]: extra.session ?? SESSION },
      },
    },
  };
};

const prepare = (sessionId = SESSION, now = '2026-01-01T10:00:00.000Z'): LrsRegistrationCommand => ({
  type: 'PrepareLaunch',
  launch: { ...launch, sessionId },
  template: template(sessionId),
  ids: { launched: `launched-${sessionId}`, abandoned: `abandoned-${sessionId}` },
  now,
});
const store = (...statements: PreparedStatement[]): LrsRegistrationCommand => ({ type: 'StoreStatements', launch, statements });
const run = (events: readonly LrsRegistrationEvent[], command: LrsRegistrationCommand) =>
  lrsRegistrationDecider.decide(command, fold(lrsRegistrationDecider, events));
const launched = () => run([], prepare());
const sessionAfter = (...batches: PreparedStatement[][]) => {
  let events = launched();
  for (const batch of batches) events = [...events, ...run(events, store(...batch))];
  return events;
};
const spec = deciderSpec(lrsRegistrationDecider);
const duration = { duration: 'PT1M' };

describe('an LRS registration (cmi5 rules)', () => {
  it('prepares a launch: LMS.LaunchData and the launched statement, once', () => {
    const events = launched();
    expect(events.map((e) => e.type)).toEqual(['LrsStatementStored', 'LrsStateDocumentSaved']);
    const [stored, document] = events;
    expect(stored?.type === 'LrsStatementStored' && stored.data.cmi5Verb).toBe('launched');
    const data = document?.type === 'LrsStateDocumentSaved' ? JSON.parse(document.data.content) : null;
    expect(data).toMatchObject({ launchMode: 'Normal', moveOn: 'CompletedAndPassed', masteryScore: 0.8 });
    expect(data.contextTemplate.extensions[CMI5_EXTENSIONS.sessionId]).toBe(SESSION);
    expect(data.contextTemplate.contextActivities.category).toBeUndefined();
    spec.given(events).when(prepare()).thenExpect([]);
  });

  it('takes the whole session in order and answers the cmi5 verbs', () => {
    const events = sessionAfter([
      statement('initialized'),
      statement('http://adlnet.gov/expapi/verbs/progressed', { defined: false }),
      statement('completed', { result: { completion: true, ...duration }, moveOn: true }),
      statement('passed', { result: { success: true, score: { scaled: 0.9 }, ...duration }, moveOn: true }),
      statement('terminated', { result: duration }),
    ]);
    expect(events.flatMap((e) => (e.type === 'LrsStatementStored' ? [e.data.cmi5Verb] : []))).toEqual([
      'launched',
      'initialized',
      null,
      'completed',
      'passed',
      'terminated',
    ]);
  });

  it('refuses any statement before initialized, and after terminated', () => {
    spec
      .given(launched())
      .when(store(statement('completed', { result: { completion: true, ...duration }, moveOn: true })))
      .thenFails('403');
    spec
      .given(launched())
      .when(store(statement('http://adlnet.gov/expapi/verbs/progressed', { defined: false })))
      .thenFails('403');
    const ended = sessionAfter([statement('initialized'), statement('terminated', { result: duration })]);
    spec
      .given(ended)
      .when(store(statement('http://adlnet.gov/expapi/verbs/progressed', { defined: false })))
      .thenFails('403');
  });

  it('refuses a verb twice in a session, completed twice in a registration, passed and failed together, failed after passed', () => {
    const started = sessionAfter([statement('initialized')]);
    spec
      .given(started)
      .when(store(statement('initialized')))
      .thenFails('403');
    const completed = sessionAfter([statement('initialized'), statement('completed', { result: { completion: true, ...duration }, moveOn: true })]);
    spec
      .given(completed)
      .when(store(statement('completed', { result: { completion: true, ...duration }, moveOn: true })))
      .thenFails('403');
    const failed = sessionAfter([statement('initialized'), statement('failed', { result: { success: false, ...duration }, moveOn: true })]);
    spec
      .given(failed)
      .when(store(statement('passed', { result: { success: true, ...duration }, moveOn: true })))
      .thenFails('403');
    const passed = sessionAfter([statement('initialized'), statement('passed', { result: { success: true, ...duration }, moveOn: true })]);
    spec
      .given(passed)
      .when(store(statement('failed', { result: { success: false, ...duration }, moveOn: true })))
      .thenFails('403');
  });

  it('refuses passed below the mastery score, failed at it, and a missing duration, success or moveOn category', () => {
    const started = sessionAfter([statement('initialized')]);
    spec
      .given(started)
      .when(store(statement('passed', { result: { success: true, score: { scaled: 0.5 }, ...duration }, moveOn: true })))
      .thenFails('403');
    spec
      .given(started)
      .when(store(statement('failed', { result: { success: false, score: { scaled: 0.8 }, ...duration }, moveOn: true })))
      .thenFails('403');
    spec
      .given(started)
      .when(store(statement('completed', { result: { completion: true }, moveOn: true })))
      .thenFails('403');
    spec
      .given(started)
      .when(store(statement('passed', { result: duration, moveOn: true })))
      .thenFails('403');
    spec
      .given(started)
      .when(store(statement('completed', { result: { completion: true, ...duration } })))
      .thenFails('403');
    spec
      .given(started)
      .when(store(statement('terminated', {})))
      .thenFails('403');
    spec
      .given(started)
      .when(store(statement('waived', { result: duration })))
      .thenFails('403');
  });

  it('refuses another session, another actor or registration, and voiding', () => {
    const started = sessionAfter([statement('initialized')]);
    spec
      .given(started)
      .when(store(statement('http://adlnet.gov/expapi/verbs/progressed', { defined: false, session: 'other' })))
      .thenFails('403');
    const other = statement('http://adlnet.gov/expapi/verbs/progressed', { defined: false });
    const foreign = { ...other, statement: { ...other.statement, actor: { ...actor, account: { homePage: 'https://platforma.si', name: '8' } } } };
    spec.given(started).when(store(foreign)).thenFails('403');
    const elsewhere = { ...other, statement: { ...other.statement, context: { ...(other.statement.context as JsonObject), registration: 'another' } } };
    spec.given(started).when(store(elsewhere)).thenFails('403');
    spec
      .given(started)
      .when(store(statement(CMI5_VERBS.launched.replace('launched', 'voided'), { defined: false })))
      .thenFails('403');
  });

  it('takes a statement sent again as it is, and refuses its id with other content (409)', () => {
    const first = statement('initialized');
    const events = sessionAfter([first]);
    spec.given(events).when(store(first)).thenExpect([]);
    spec
      .given(events)
      .when(store({ ...first, fingerprint: 'other' }))
      .thenFails('409');
  });

  it("abandons the learner's previous session that never terminated when a new one is launched", () => {
    const initialized = statement('initialized');
    const events = sessionAfter([initialized]);
    const next = run(events, prepare('session-2', '2026-01-01T11:00:00.000Z'));
    expect(next.map((e) => (e.type === 'LrsStatementStored' ? e.data.cmi5Verb : e.type))).toEqual(['abandoned', 'launched', 'LrsStateDocumentSaved']);
    const abandoned = next[0]?.type === 'LrsStatementStored' ? JSON.parse(next[0].data.statement) : null;
    expect(abandoned.context.extensions[CMI5_EXTENSIONS.sessionId]).toBe(SESSION);
    // From the launch to the session's last statement (cmi5 §9.5.4.2).
    expect(abandoned.result.duration).toBe(isoDuration((Date.parse(initialized.stored) - Date.parse('2026-01-01T10:00:00.000Z')) / 1000));
    // The old session takes nothing more.
    spec
      .given([...events, ...next])
      .when(store(statement('terminated', { result: duration })))
      .thenFails('403');
  });

  it('keeps the AU’s documents, merges JSON on POST, and never lets it change or delete LMS.LaunchData', () => {
    const events = sessionAfter([statement('initialized')]);
    const save = (stateId: string, content: string, merge = false): LrsRegistrationCommand => ({
      type: 'SaveStateDocument',
      launch,
      merge,
      document: { activityId: ACTIVITY, stateId, contentType: 'application/json', content, updatedAt: '2026-01-01T10:05:00.000Z' },
    });
    spec.given(events).when(save(LAUNCH_DATA_STATE_ID, '{}')).thenFails('403');
    const saved = [...events, ...run(events, save('bookmark', '{"page":1}'))];
    const merged = run(saved, save('bookmark', '{"score":2}', true));
    expect(merged[0]?.type === 'LrsStateDocumentSaved' && JSON.parse(merged[0].data.content)).toEqual({ page: 1, score: 2 });
    spec.given(saved).when(save('bookmark', '{"page":1}')).thenExpect([]);
    const deleted = run(saved, { type: 'DeleteStateDocuments', launch, activityId: ACTIVITY, stateId: null });
    expect(deleted).toEqual([
      { type: 'LrsStateDocumentsDeleted', data: { registration: REGISTRATION, userId: 7, activityId: ACTIVITY, stateIds: ['bookmark'] } },
    ]);
    spec.given(saved).when({ type: 'DeleteStateDocuments', launch, activityId: ACTIVITY, stateId: LAUNCH_DATA_STATE_ID }).thenFails('403');
  });
});
