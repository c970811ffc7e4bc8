import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../../tests/support/decider-spec.ts';
import { ROLE } from '../permissions/roles.ts';
import { fold } from '../shared/decider.ts';
import { ljubljanaDayStart, ljubljanaPeriod, ljubljanaWallClock } from '../shared/ljubljana-time.ts';
import { EXPORT_FIELDS_REQUIRED, EXPORT_KIND_REQUIRED, EXPORT_PERIOD_ORDER, exportRequestRule } from './export.rules.ts';
import { type ExportEvent, exportDecider, progressStep } from './export.ts';
import { exportReach } from './export-access.ts';

const messages = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

const spec = deciderSpec(exportDecider);
const requested: ExportEvent = {
  type: 'ExportRequested',
  data: { exportId: 3, kind: 'nps', parameters: { courseId: 5, from: '2026-01-01', to: '2026-01-31' }, requestedBy: 9 },
};
const started: ExportEvent = { type: 'ExportStarted', data: { attempt: 1 } };
const finished: ExportEvent = { type: 'ExportFinished', data: { fileId: 12, rows: 4, bytes: 6000 } };

describe('export rules (spec §5, §8: every field is required)', () => {
  it('accepts each kind with its parameters', () => {
    for (const request of [
      { kind: 'users', parameters: { companyId: 0, status: 'all' } },
      { kind: 'participants', parameters: { courseId: 4, intervalId: 0 } },
      { kind: 'nps', parameters: { courseId: 4, from: '2026-03-01', to: '2026-03-01' } },
      { kind: 'costs', parameters: { companyId: 2, from: '2026-01-01', to: '2026-12-31' } },
      { kind: 'consents', parameters: { companyId: 0, from: '2025-01-01', to: '2026-12-31' } },
    ]) {
      expect(exportRequestRule.safeParse(request).success, request.kind).toBe(true);
    }
  });

  it('answers a missing or empty field with the message of spec §8, on that field', () => {
    expect(messages(exportRequestRule.safeParse({ kind: 'nps', parameters: { courseId: 4 } }))).toEqual({
      'parameters.from': EXPORT_FIELDS_REQUIRED,
      'parameters.to': EXPORT_FIELDS_REQUIRED,
    });
    expect(messages(exportRequestRule.safeParse({ kind: 'costs', parameters: { companyId: null, from: '', to: '2026-01-01' } }))).toEqual({
      'parameters.companyId': EXPORT_FIELDS_REQUIRED,
      'parameters.from': EXPORT_FIELDS_REQUIRED,
    });
    expect(messages(exportRequestRule.safeParse({ kind: 'users' }))).toEqual({ parameters: EXPORT_FIELDS_REQUIRED });
    expect(messages(exportRequestRule.safeParse({ parameters: {} }))).toEqual({ kind: EXPORT_KIND_REQUIRED });
    expect(EXPORT_FIELDS_REQUIRED).toBe('Za izvoz morajo biti izpolnjena vsa polja.');
  });

  it('wants real days, the end not before the start, and no unknown parameter', () => {
    expect(messages(exportRequestRule.safeParse({ kind: 'nps', parameters: { courseId: 4, from: '2026-02-30', to: '2026-03-01' } }))).toEqual({
      'parameters.from': 'Vnesite veljaven datum.',
    });
    expect(messages(exportRequestRule.safeParse({ kind: 'nps', parameters: { courseId: 4, from: '2026-03-02', to: '2026-03-01' } }))).toEqual({
      'parameters.to': EXPORT_PERIOD_ORDER,
    });
    expect(exportRequestRule.safeParse({ kind: 'users', parameters: { companyId: 0, status: 'all', extra: 1 } }).success).toBe(false);
  });
});

describe('export record (spec §3, §4)', () => {
  it('is asked for once', () => {
    spec
      .given([])
      .when({ type: 'RequestExport', exportId: 3, kind: 'nps', parameters: { courseId: 5, from: '2026-01-01', to: '2026-01-31' }, requestedBy: 9 })
      .thenExpect([requested]);
    spec
      .given([requested])
      .when({ type: 'RequestExport', exportId: 3, kind: 'users', parameters: { companyId: 0, status: 'all' }, requestedBy: 9 })
      .thenFails('409');
  });

  it('goes initiated, computing (again after a crash), finished; a late or repeated run changes nothing', () => {
    expect(fold(exportDecider, [requested]).status).toBe('initiated');
    spec.given([requested]).when({ type: 'StartExport', attempt: 1 }).thenExpect([started]);
    spec
      .given([requested, started])
      .when({ type: 'StartExport', attempt: 2 })
      .thenExpect([{ type: 'ExportStarted', data: { attempt: 2 } }]);
    spec
      .given([requested, started])
      .when({ type: 'ReportExportProgress', done: 5, total: 10 })
      .thenExpect([{ type: 'ExportProgressed', data: { done: 5, total: 10 } }]);
    expect(fold(exportDecider, [requested, started, { type: 'ExportProgressed', data: { done: 5, total: 10 } }])).toMatchObject({
      status: 'computing',
      done: 5,
      total: 10,
    });
    spec.given([requested, started]).when({ type: 'FinishExport', fileId: 12, rows: 4, bytes: 6000 }).thenExpect([finished]);
    spec.given([requested, started, finished]).when({ type: 'StartExport', attempt: 3 }).thenExpect([]);
    spec.given([requested, started, finished]).when({ type: 'FinishExport', fileId: 13, rows: 4, bytes: 6000 }).thenExpect([]);
    spec.given([requested, started, finished]).when({ type: 'FailExport', reason: 'Napaka.' }).thenExpect([]);
    spec.given([requested]).when({ type: 'FinishExport', fileId: 12, rows: 4, bytes: 6000 }).thenExpect([]);
  });

  it('fails with a reason, and stays failed', () => {
    const failed: ExportEvent = { type: 'ExportFailed', data: { reason: 'Izobraževanje ne obstaja več.' } };
    spec.given([requested, started]).when({ type: 'FailExport', reason: 'Izobraževanje ne obstaja več.' }).thenExpect([failed]);
    expect(fold(exportDecider, [requested, started, failed])).toMatchObject({ status: 'error', reason: 'Izobraževanje ne obstaja več.' });
    spec.given([requested, started, failed]).when({ type: 'StartExport', attempt: 2 }).thenExpect([]);
  });

  it('discards a finished file once', () => {
    const discarded: ExportEvent = { type: 'ExportFileDiscarded', data: { fileId: 12, reason: 'izbris' } };
    spec.given([requested, started, finished]).when({ type: 'DiscardExportFile', reason: 'izbris' }).thenExpect([discarded]);
    spec.given([requested, started, finished, discarded]).when({ type: 'DiscardExportFile', reason: 'izbris' }).thenExpect([]);
    expect(fold(exportDecider, [requested, started, finished, discarded])).toMatchObject({ status: 'finished', fileId: null });
  });

  it('records progress in tenths', () => {
    expect(progressStep(0, 0, 0)).toBeNull();
    expect(progressStep(5, 100, 0)).toBeNull();
    expect(progressStep(10, 100, 0)).toBe(1);
    expect(progressStep(55, 100, 1)).toBe(5);
    expect(progressStep(55, 100, 5)).toBeNull();
    expect(progressStep(100, 100, 9)).toBe(10);
  });
});

describe('who reads which export (decision 0026)', () => {
  it('follows the permission of the page that shows the same data', () => {
    expect(exportReach({ userId: 1, roles: [{ roleId: ROLE.admin, unitId: 0, companyId: null }] }).kinds).toEqual([
      'users',
      'participants',
      'nps',
      'costs',
      'consents',
      'chambers',
    ]);
    expect(exportReach({ userId: 1, roles: [{ roleId: ROLE.editor, unitId: 0, companyId: null }] }).kinds).toEqual([
      'users',
      'participants',
      'nps',
      'chambers',
    ]);
    expect(exportReach({ userId: 1, roles: [{ roleId: ROLE.auditor, unitId: 0, companyId: null }] }).kinds).toEqual(['consents']);
    const accountant = exportReach({ userId: 1, roles: [{ roleId: ROLE.accountant, unitId: 4, companyId: 2 }] });
    expect(accountant).toEqual({ kinds: [], costs: { unitIds: [4], companyIds: [] } });
    expect(exportReach({ userId: 1, roles: [{ roleId: ROLE.manager, unitId: 4, companyId: 2 }] })).toEqual({
      kinds: [],
      costs: { unitIds: [], companyIds: [] },
    });
  });
});

describe('Ljubljana days', () => {
  it('start at local midnight in winter and in summer', () => {
    expect(ljubljanaDayStart('2026-01-15').toISOString()).toBe('2026-01-14T23:00:00.000Z');
    expect(ljubljanaDayStart('2026-07-15').toISOString()).toBe('2026-07-14T22:00:00.000Z');
    // The days of the clock changes.
    expect(ljubljanaDayStart('2026-03-29').toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(ljubljanaDayStart('2026-10-25').toISOString()).toBe('2026-10-24T22:00:00.000Z');
    expect(ljubljanaPeriod('2026-03-29', '2026-03-29')).toEqual({
      start: new Date('2026-03-28T23:00:00.000Z'),
      end: new Date('2026-03-29T22:00:00.000Z'),
    });
    expect(ljubljanaWallClock(new Date('2026-07-14T22:30:00.000Z')).toISOString()).toBe('2026-07-15T00:30:00.000Z');
  });
});
