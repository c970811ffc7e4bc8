import { describe, expect, it } from 'vitest';
import { INTERACTIONS_MAX, isoDurationSeconds, runtimeOfScormCommit, runtimeReportRule } from './package-runtime.ts';

/*
 * The commits below are what scorm-again 3.4.3 renders (`renderCommitCMI(false)`) right after
 * LMSInitialize / Initialize, captured once; each test changes the fields it is about, so every
 * report is read out of the whole CMI with its empty defaults around it, as the player forwards it.
 */
type Json = Record<string, unknown>;

const scorm12 = (core: Json = {}, rest: Json = {}) => ({
  cmi: {
    suspend_data: '',
    launch_data: '',
    comments: '',
    comments_from_lms: '',
    core: {
      student_id: '',
      student_name: '',
      lesson_location: '',
      credit: '',
      lesson_status: 'not attempted',
      entry: '',
      lesson_mode: 'normal',
      exit: '',
      session_time: '00:00:00',
      score: { raw: '', min: '', max: '100' },
      ...core,
    },
    objectives: {},
    student_data: { mastery_score: '', max_time_allowed: '', time_limit_action: '' },
    student_preference: { audio: '', language: '', speed: '', text: '' },
    interactions: {},
    ...rest,
  },
});

const scorm2004 = (fields: Json = {}) => ({
  cmi: {
    comments_from_learner: {},
    comments_from_lms: {},
    completion_status: 'unknown',
    completion_threshold: '',
    credit: 'credit',
    entry: '',
    exit: '',
    interactions: {},
    launch_data: '',
    learner_id: '',
    learner_name: '',
    learner_preference: { audio_level: '1', language: '', delivery_speed: '1', audio_captioning: '0' },
    location: '',
    max_time_allowed: '',
    mode: 'normal',
    objectives: {},
    progress_measure: '',
    scaled_passing_score: '',
    score: { scaled: '', raw: '', min: '', max: '' },
    session_time: 'PT0H0M0S',
    success_status: 'unknown',
    suspend_data: '',
    time_limit_action: 'continue,no message',
    ...fields,
  },
});

const interaction12 = (id: string, response: string, result: string) => ({
  id,
  time: '',
  type: 'choice',
  weighting: '',
  student_response: response,
  result,
  latency: '',
  objectives: {},
  correct_responses: {},
});

const interaction2004 = (id: string, response: string, result: string, description = '') => ({
  id,
  type: 'choice',
  objectives: {},
  timestamp: '',
  weighting: '',
  learner_response: response,
  result,
  latency: '',
  description,
  correct_responses: {},
});

describe('package runtime: SCORM 1.2 commits', () => {
  it('reads status, score, location, suspend data, session time and interactions of a whole commit', () => {
    const commit = scorm12(
      { lesson_location: 'p3', lesson_status: 'passed', session_time: '00:01:30.5', score: { raw: '8', min: '0', max: '10' } },
      { suspend_data: 'abc', interactions: { '0': interaction12('q1', 'a', 'correct') } },
    );
    expect(runtimeOfScormCommit('scorm12', commit)).toEqual({
      completion: 'completed',
      success: 'passed',
      score: 80,
      location: 'p3',
      suspendData: 'abc',
      sessionSeconds: 90.5,
      interactions: [{ id: 'q1', type: 'choice', response: 'a', result: 'correct', description: null }],
    });
  });

  it('says only what the package set: a fresh commit is "not attempted" and no time; empty strings and the default max are not facts', () => {
    expect(runtimeOfScormCommit('scorm12', scorm12())).toEqual({ completion: 'not attempted', sessionSeconds: 0 });
  });

  it('maps lesson_status: passed and failed are completed with their result, browsed is incomplete, anything else says nothing', () => {
    const status = (lesson_status: string) => {
      const { completion, success } = runtimeOfScormCommit('scorm12', scorm12({ lesson_status }));
      return { completion, success };
    };
    expect(status('passed')).toEqual({ completion: 'completed', success: 'passed' });
    expect(status('failed')).toEqual({ completion: 'completed', success: 'failed' });
    expect(status('completed')).toEqual({ completion: 'completed', success: undefined });
    expect(status('incomplete')).toEqual({ completion: 'incomplete', success: undefined });
    expect(status('browsed')).toEqual({ completion: 'incomplete', success: undefined });
    expect(status('not attempted')).toEqual({ completion: 'not attempted', success: undefined });
    expect(status('')).toEqual({ completion: undefined, success: undefined });
    expect(status('done')).toEqual({ completion: undefined, success: undefined });
  });

  it('takes a raw score against min and max as percent, else as it is, within 0-100 to one decimal', () => {
    const score = (raw: string, min: string, max: string) => runtimeOfScormCommit('scorm12', scorm12({ score: { raw, min, max } })).score;
    expect(score('45', '20', '70')).toBe(50);
    expect(score('8', '', '10')).toBe(80);
    expect(score('2', '0', '3')).toBe(66.7);
    // scorm-again's default max is 100: a raw score alone is percent.
    expect(score('75', '', '100')).toBe(75);
    expect(score('75', '', '')).toBe(75);
    // A range that is no range (max not above min): the raw score as it is.
    expect(score('42', '50', '50')).toBe(42);
    expect(score('120', '0', '100')).toBe(100);
    expect(score('-5', '', '')).toBe(0);
    expect(score('', '0', '100')).toBeUndefined();
    expect(score('osem', '0', '10')).toBeUndefined();
  });

  it('reads session_time as HHHH:MM:SS.SS and ignores a time in another form', () => {
    const seconds = (session_time: string) => runtimeOfScormCommit('scorm12', scorm12({ session_time })).sessionSeconds;
    expect(seconds('0012:30:15.25')).toBe(12 * 3600 + 30 * 60 + 15.25);
    expect(seconds('1:00:00')).toBe(3600);
    expect(seconds('00:00:00')).toBe(0);
    expect(seconds('PT1M')).toBeUndefined();
    expect(seconds('12:3:00')).toBeUndefined();
    expect(seconds('00:01:30.555')).toBeUndefined();
  });

  it('takes the response of a 1.2 interaction from student_response, not learner_response', () => {
    const commit = scorm12({}, { interactions: { '0': { id: 'q1', learner_response: 'x', result: 'wrong' } } });
    expect(runtimeOfScormCommit('scorm12', commit).interactions).toEqual([{ id: 'q1', type: null, response: null, result: 'wrong', description: null }]);
  });
});

describe('package runtime: SCORM 2004 commits', () => {
  it('reads completion, success, score, location, suspend data, session time and interactions of a whole commit', () => {
    const commit = scorm2004({
      completion_status: 'completed',
      success_status: 'passed',
      score: { scaled: '0.85', raw: '17', min: '', max: '20' },
      location: 's2',
      suspend_data: 'xyz',
      session_time: 'PT1M30S',
      interactions: { '0': interaction2004('q1', 'b', 'incorrect', 'Vprašanje') },
    });
    expect(runtimeOfScormCommit('scorm2004', commit)).toEqual({
      completion: 'completed',
      success: 'passed',
      score: 85,
      location: 's2',
      suspendData: 'xyz',
      sessionSeconds: 90,
      interactions: [{ id: 'q1', type: 'choice', response: 'b', result: 'incorrect', description: 'Vprašanje' }],
    });
  });

  it('says only what the package set: a fresh commit is unknown on both statuses and no time', () => {
    expect(runtimeOfScormCommit('scorm2004', scorm2004())).toEqual({ completion: 'unknown', success: 'unknown', sessionSeconds: 0 });
  });

  it('keeps completion and success apart (a failed attempt may be completed) and ignores values outside the vocabulary', () => {
    const statuses = (completion_status: string, success_status: string) => {
      const { completion, success } = runtimeOfScormCommit('scorm2004', scorm2004({ completion_status, success_status }));
      return { completion, success };
    };
    expect(statuses('completed', 'failed')).toEqual({ completion: 'completed', success: 'failed' });
    expect(statuses('incomplete', 'passed')).toEqual({ completion: 'incomplete', success: 'passed' });
    expect(statuses('not attempted', 'unknown')).toEqual({ completion: 'not attempted', success: 'unknown' });
    // SCORM 1.2 words in a 2004 commit are not 2004's.
    expect(statuses('browsed', 'complete')).toEqual({ completion: undefined, success: undefined });
  });

  it('takes the scaled score first, else the raw score against min and max', () => {
    const score = (scaled: string, raw: string, min: string, max: string) =>
      runtimeOfScormCommit('scorm2004', scorm2004({ score: { scaled, raw, min, max } })).score;
    // Scaled and raw disagree: scaled is the package's own percent.
    expect(score('0.5', '17', '', '20')).toBe(50);
    expect(score('0', '17', '', '20')).toBe(0);
    expect(score('', '45', '20', '70')).toBe(50);
    expect(score('', '17', '', '20')).toBe(85);
    expect(score('0.12345', '', '', '')).toBe(12.3);
    // scaled is -1..1: below 0 is 0 %.
    expect(score('-0.4', '', '', '')).toBe(0);
    expect(score('', '', '', '')).toBeUndefined();
  });

  it('reads session_time as an ISO 8601 duration', () => {
    const seconds = (session_time: string) => runtimeOfScormCommit('scorm2004', scorm2004({ session_time })).sessionSeconds;
    expect(seconds('PT1H2M3.5S')).toBe(3723.5);
    expect(seconds('00:01:00')).toBeUndefined();
  });

  it('takes the response of a 2004 interaction from learner_response, not student_response', () => {
    const commit = scorm2004({ interactions: { '0': { id: 'q1', student_response: 'x', result: 'correct' } } });
    expect(runtimeOfScormCommit('scorm2004', commit).interactions).toEqual([{ id: 'q1', type: null, response: null, result: 'correct', description: null }]);
  });
});

describe('package runtime: any commit', () => {
  it('reads interactions from an object by index (as scorm-again renders them) or an array, skipping those without an id; none is no field', () => {
    const one = interaction2004('q1', 'a', 'correct');
    const two = interaction2004('q2', 'b', 'incorrect');
    const ids = (interactions: unknown) => runtimeOfScormCommit('scorm2004', scorm2004({ interactions })).interactions?.map((i) => i.id);
    expect(ids({ '0': one, '1': two })).toEqual(['q1', 'q2']);
    expect(ids([one, two])).toEqual(['q1', 'q2']);
    expect(ids({ '0': { ...one, id: '' }, '1': two })).toEqual(['q2']);
    expect(runtimeOfScormCommit('scorm2004', scorm2004({ interactions: { '0': { ...one, id: '' } } }))).not.toHaveProperty('interactions');
  });

  it("reads interactions given as scorm-again's CMIArray with its childArray", () => {
    const one = interaction2004('q1', 'a', 'correct');
    const report = runtimeOfScormCommit('scorm2004', scorm2004({ interactions: { childArray: [one] } }));
    expect(report.interactions?.map((i) => i.id)).toEqual(['q1']);
  });

  it('reads the CMI with or without its `cmi` wrapper, and an unknown shape as nothing said', () => {
    expect(runtimeOfScormCommit('scorm2004', scorm2004({ location: 's1' }).cmi)).toMatchObject({ location: 's1' });
    expect(runtimeOfScormCommit('scorm12', scorm12({ lesson_location: 'p1' }).cmi)).toMatchObject({ location: 'p1' });
    for (const shape of [null, undefined, 'cmi', 42, [], { cmi: 'x' }, { cmi: [] }]) {
      expect(runtimeOfScormCommit('scorm12', shape)).toEqual({});
      expect(runtimeOfScormCommit('scorm2004', shape)).toEqual({});
    }
  });

  it('cuts what is longer than SCORM 2004 allows instead of refusing the commit, so the report passes its own rule', () => {
    const long = (n: number) => 'x'.repeat(n);
    const many = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [String(i), interaction2004(`q${i}`, long(5000), long(60), long(1200))]));
    const report = runtimeOfScormCommit('scorm2004', scorm2004({ location: long(1001), suspend_data: long(64_001), interactions: many }));
    expect(report.location).toHaveLength(1000);
    expect(report.suspendData).toHaveLength(64_000);
    expect(report.interactions).toHaveLength(INTERACTIONS_MAX);
    expect(report.interactions?.[0]?.response).toHaveLength(4000);
    expect(report.interactions?.[0]?.result).toHaveLength(50);
    expect(report.interactions?.[0]?.description).toHaveLength(1000);
    expect(runtimeReportRule.safeParse(report).success).toBe(true);
    const old = runtimeOfScormCommit('scorm12', scorm12({ lesson_location: long(1001) }, { suspend_data: long(64_001) }));
    expect([old.location?.length, old.suspendData?.length]).toEqual([1000, 64_000]);
  });

  it('keeps a session time beyond the rule (over 10 days) from making the whole report invalid', () => {
    const report = runtimeOfScormCommit('scorm2004', scorm2004({ completion_status: 'completed', session_time: 'P11D' }));
    expect(report.completion).toBe('completed');
    expect(runtimeReportRule.safeParse(report).success).toBe(true);
  });
});

describe('isoDurationSeconds', () => {
  it('adds up the parts of a duration, months (M before T) apart from minutes (M after T)', () => {
    expect(isoDurationSeconds('PT1M30S')).toBe(90);
    expect(isoDurationSeconds('PT0H0M0S')).toBe(0);
    expect(isoDurationSeconds('PT1H')).toBe(3600);
    expect(isoDurationSeconds('PT2.25S')).toBe(2.25);
    expect(isoDurationSeconds('P1DT2H3M4.5S')).toBe(86_400 + 7200 + 180 + 4.5);
    expect(isoDurationSeconds('P1W')).toBe(604_800);
    expect(isoDurationSeconds('P1M')).toBe(30 * 86_400);
    expect(isoDurationSeconds('PT1M')).toBe(60);
    expect(isoDurationSeconds('P1Y')).toBe(365 * 86_400);
  });

  it('refuses what is not a duration: no parts, a T with nothing after it, parts out of order or without a unit, lower case', () => {
    for (const value of ['P', 'PT', 'P1DT', '', 'PT1H30', '1H', 'pt1m', 'PT1S1M', 'PT-5S', 'P1.5', '00:01:30'])
      expect(isoDurationSeconds(value), value).toBeUndefined();
  });

  it('takes only strings and numbers as text: other values are no duration', () => {
    expect(isoDurationSeconds(90)).toBeUndefined();
    expect(isoDurationSeconds(null)).toBeUndefined();
    expect(isoDurationSeconds({ value: 'PT1S' })).toBeUndefined();
  });
});
