import i18next, { type TFunction } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import sl from '../../../locales/sl.json' with { type: 'json' };
import type { BlockRecord } from '../api/courses.ts';
import { itemState, progressOfRecord, progressOfResume, standardText } from './package-items.ts';

const RECORD: BlockRecord = {
  block_id: 1,
  course_id: 1,
  opened: true,
  done: false,
  videoSeconds: 0,
  quizAttempts: 0,
  quizScore: null,
  quizPassed: null,
  quizRoundFrom: 0,
  quizNext: null,
  quizRetryAt: null,
  npsScore: null,
};
const NOTHING = { completion: null, success: null, score: null, location: null, suspendData: null, totalSeconds: 0 };

describe('an item of a package', () => {
  it('is not started, in progress, completed, passed or not passed, the result first', () => {
    expect(itemState(progressOfResume(NOTHING))).toBe('notStarted');
    expect(itemState(progressOfResume({ ...NOTHING, completion: 'not attempted' }))).toBe('notStarted');
    expect(itemState(progressOfResume({ ...NOTHING, location: '2', suspendData: 'stran=2' }))).toBe('inProgress');
    expect(itemState(progressOfResume({ ...NOTHING, completion: 'completed' }))).toBe('completed');
    expect(itemState(progressOfResume({ ...NOTHING, completion: 'completed', success: 'passed', score: 80 }))).toBe('passed');
    expect(itemState(progressOfResume({ ...NOTHING, completion: 'completed', success: 'failed', score: 50 }))).toBe('failed');
    expect(itemState(progressOfResume({ ...NOTHING, completion: 'incomplete', success: 'unknown' }))).toBe('inProgress');
  });

  it("takes the block's record for a package of one item: opened, its last result and score, done", () => {
    expect(itemState(progressOfRecord(undefined))).toBe('notStarted');
    expect(itemState(progressOfRecord(RECORD))).toBe('inProgress');
    const failed = progressOfRecord({ ...RECORD, quizAttempts: 1, quizScore: 50, quizPassed: false });
    expect([itemState(failed), failed.score]).toEqual(['failed', 50]);
    expect(itemState(progressOfRecord({ ...RECORD, done: true }))).toBe('completed');
    expect(itemState(progressOfRecord({ ...RECORD, done: true, quizAttempts: 2, quizScore: 80, quizPassed: true }))).toBe('passed');
  });
});

describe('a package standard', () => {
  let t: TFunction;
  beforeAll(async () => {
    const i18n = i18next.createInstance();
    t = await i18n.init({ lng: 'sl', resources: { sl: { translation: sl } }, interpolation: { escapeValue: false } });
  });

  it('reads as the author knows it', () => {
    expect(standardText(t, 'scorm12', '1.2')).toBe('SCORM 1.2');
    expect(standardText(t, 'scorm2004', '2004 4th Edition')).toBe('SCORM 2004, 4. izdaja');
    expect(standardText(t, 'scorm2004', '2004 3rd Edition')).toBe('SCORM 2004, 3. izdaja');
    expect(standardText(t, 'scorm2004', null)).toBe('SCORM 2004');
    expect(standardText(t, 'cmi5', '1.0')).toBe('cmi5');
  });
});
