import { describe, it } from 'vitest';
import { deciderSpec } from '../../tests/support/decider-spec.ts';
import { importDecider } from './user-import.decide.ts';
import { IMPORT_MESSAGES } from './user-import.rules.ts';
import type { ImportEvent, RowResult } from './user-import.ts';

const spec = deciderSpec(importDecider);
const uploaded = (problemCount = 0, rows = 3): ImportEvent => ({
  type: 'UserImportUploaded',
  data: { importId: 7, fileId: 2, fileName: 'a.xlsx', rows, problems: [], problemCount, existing: 0 },
});
const started: ImportEvent = { type: 'UserImportStarted', data: { sendWelcome: true } };
const result = (row: number, outcome: RowResult['outcome'] = 'created'): RowResult => ({
  row,
  outcome,
  userId: outcome === 'failed' ? null : row * 10,
  message: null,
});
const processed = (from: number, ...results: RowResult[]): ImportEvent => ({ type: 'UserImportRowsProcessed', data: { from, results } });

describe('users import decider', () => {
  it('starts a clean import, with or without the welcome mail', () => {
    spec
      .given([uploaded()])
      .when({ type: 'Start', sendWelcome: false })
      .thenExpect([{ type: 'UserImportStarted', data: { sendWelcome: false } }]);
  });

  it('refuses to start while the precheck found problems (spec §8: blocked until fixed)', () => {
    spec
      .given([uploaded(2)])
      .when({ type: 'Start', sendWelcome: true })
      .thenFails('422', IMPORT_MESSAGES.blocked);
  });

  it('starting a started import again does nothing; a failed one goes on with its first choice', () => {
    spec.given([uploaded(), started]).when({ type: 'Start', sendWelcome: false }).thenExpect([]);
    spec
      .given([uploaded(), started, processed(0, result(2)), { type: 'UserImportFailed', data: { message: 'x' } }])
      .when({ type: 'Start', sendWelcome: false })
      .thenExpect([{ type: 'UserImportStarted', data: { sendWelcome: true } }]);
  });

  it('records batches in order, and a batch recorded already (a job run again) not twice', () => {
    spec
      .given([uploaded(), started])
      .when({ type: 'RecordRows', from: 0, results: [result(2), result(3)] })
      .thenExpect([processed(0, result(2), result(3))]);
    spec
      .given([uploaded(), started, processed(0, result(2), result(3))])
      .when({ type: 'RecordRows', from: 0, results: [result(2), result(3)] })
      .thenExpect([]);
    spec
      .given([uploaded(), started])
      .when({ type: 'RecordRows', from: 1, results: [result(3)] })
      .thenFails('409');
    spec
      .given([uploaded()])
      .when({ type: 'RecordRows', from: 0, results: [result(2)] })
      .thenExpect([]);
  });

  it('completes with the counts of every row once all are recorded', () => {
    spec
      .given([uploaded(), started, processed(0, result(2), result(3, 'skipped')), processed(2, result(4, 'failed'))])
      .when({ type: 'Complete' })
      .thenExpect([{ type: 'UserImportCompleted', data: { created: 1, updated: 0, skipped: 1, failed: 1 } }]);
    spec
      .given([uploaded(), started, processed(0, result(2))])
      .when({ type: 'Complete' })
      .thenFails('409');
  });

  it('is uploaded once', () => {
    spec
      .given([uploaded()])
      .when({ type: 'Upload', importId: 7, fileId: 2, fileName: 'a.xlsx', rows: 3, problems: [], problemCount: 0, existing: 0 })
      .thenExpect([]);
  });
});
