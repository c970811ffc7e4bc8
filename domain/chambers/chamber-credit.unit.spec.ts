import { describe, expect, it } from 'vitest';
import { fold } from '../shared/decider.ts';
import { type ChamberCreditCommand, type ChamberCreditEvent, chamberCreditDecider, chamberCreditReference } from './chamber-credit.ts';

const earn: ChamberCreditCommand = {
  type: 'EarnChamberCredit',
  courseId: 7,
  userId: 42,
  chamber: 1,
  points: 2.5,
  earnedAt: '2026-11-25T08:00:00.000Z',
  courseExternalId: 'LZS-17',
};

/** Runs commands one after another on the state their events leave; every event in order. */
const run = (commands: ChamberCreditCommand[]) => {
  const events: ChamberCreditEvent[] = [];
  for (const command of commands) events.push(...chamberCreditDecider.decide(command, fold(chamberCreditDecider, events)));
  return { events, state: fold(chamberCreditDecider, events) };
};

describe('chamber credit (decision 0030)', () => {
  it('is earned once, however often the completion is seen', () => {
    const { events } = run([earn, earn, { ...earn, points: 9 }]);
    expect(events.map((e) => e.type)).toEqual(['ChamberCreditEarned']);
  });

  it('counts refused attempts and keeps the receipt and time of the acknowledgment', () => {
    const { events, state } = run([
      earn,
      { type: 'FailChamberCreditReport', reason: 'Zbornica je odgovorila s stanjem 503.' },
      { type: 'FailChamberCreditReport', reason: 'Zbornica ni dosegljiva (TimeoutError).' },
      { type: 'ConfirmChamberCreditReported', receipt: 'LZS-9', reportedAt: '2026-11-25T08:05:00.000Z' },
    ]);
    expect(events.map((e) => ('attempt' in e.data ? e.data.attempt : null))).toEqual([null, 1, 2, 3]);
    expect(state).toMatchObject({ status: 'reported', attempts: 3, receipt: 'LZS-9', earnedAt: earn.earnedAt, reportedAt: '2026-11-25T08:05:00.000Z' });
  });

  it('changes nothing once acknowledged: no second report, failure or hold', () => {
    const { events } = run([
      earn,
      { type: 'ConfirmChamberCreditReported', receipt: 'A', reportedAt: '2026-11-25T08:05:00.000Z' },
      { type: 'ConfirmChamberCreditReported', receipt: 'B', reportedAt: '2026-11-25T09:05:00.000Z' },
      { type: 'FailChamberCreditReport', reason: 'x' },
      { type: 'HoldChamberCredit', reason: 'missing-number' },
    ]);
    expect(events.map((e) => e.type)).toEqual(['ChamberCreditEarned', 'ChamberCreditReported']);
  });

  it('holds a credit once while the number is missing, and nothing is decided for a credit never earned', () => {
    const held = run([earn, { type: 'HoldChamberCredit', reason: 'missing-number' }, { type: 'HoldChamberCredit', reason: 'missing-number' }]);
    expect(held.events.map((e) => e.type)).toEqual(['ChamberCreditEarned', 'ChamberCreditHeld']);
    expect(held.state).toMatchObject({ status: 'pending', held: 'missing-number' });
    expect(
      run([
        { type: 'HoldChamberCredit', reason: 'missing-number' },
        { type: 'FailChamberCreditReport', reason: 'x' },
      ]).events,
    ).toEqual([]);
  });

  it('files every attempt under one reference per person and course', () => {
    expect(chamberCreditReference(7, 42)).toBe('medilearn-7-42');
  });
});
