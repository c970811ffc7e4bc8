import { BackendTerminatedError, ConnectionError, StatementTimeoutError, UniqueIntegrityConstraintViolationError } from 'slonik';
import { describe, expect, it } from 'vitest';
import { failureOf } from './read-routing.ts';

/** Which errors of a replica's query send it to the primary instead (decision 0067), as pg and slonik raise them. */
describe('failureOf', () => {
  const pgError = (code: string, message: string) => Object.assign(new Error(message), { code });

  it('sends a write on a standby to the primary', () => {
    expect(failureOf(pgError('25006', 'cannot execute INSERT in a read-only transaction'))).toBe('write');
  });

  it('sends a query cancelled by a recovery conflict to the primary', () => {
    expect(failureOf(pgError('40001', 'canceling statement due to conflict with recovery'))).toBe('conflict');
  });

  it('takes an unreachable, stopping or starting replica for down, also wrapped by slonik or in an AggregateError', () => {
    expect(failureOf(pgError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5433'))).toBe('down');
    expect(failureOf(new AggregateError([pgError('ECONNREFUSED', 'connect ECONNREFUSED ::1:5433')]))).toBe('down');
    expect(failureOf(new Error('Connection terminated unexpectedly'))).toBe('down');
    expect(failureOf(pgError('57P03', 'the database system is starting up'))).toBe('down');
    expect(failureOf(pgError('08006', 'connection failure'))).toBe('down');
    expect(failureOf(new BackendTerminatedError(pgError('57P01', 'terminating connection due to administrator command') as never))).toBe('down');
    expect(failureOf(new ConnectionError('Failed to connect', { cause: pgError('ECONNRESET', 'read ECONNRESET') }))).toBe('down');
  });

  it('takes a replica pool with no connection free in time for busy, not for a dead replica', () => {
    expect(failureOf(new Error('timeout exceeded when trying to connect'))).toBe('busy');
    expect(failureOf(new Error('Connection terminated due to connection timeout'))).toBe('down');
  });

  it('takes a statement past the replica’s timeout, or one with no answer, for timeout; a cancel asked for stays the query’s', () => {
    expect(failureOf(pgError('57014', 'canceling statement due to statement timeout'))).toBe('timeout');
    expect(failureOf(new StatementTimeoutError(pgError('57014', 'canceling statement due to statement timeout') as never))).toBe('timeout');
    expect(failureOf(new Error('Query read timeout'))).toBe('timeout');
    expect(failureOf(pgError('57014', 'canceling statement due to user request'))).toBeNull();
  });

  it('leaves a query’s own errors to the query', () => {
    expect(failureOf(pgError('42P01', 'relation "rm.nothing" does not exist'))).toBeNull();
    expect(failureOf(new UniqueIntegrityConstraintViolationError(pgError('23505', 'duplicate key') as never))).toBeNull();
    expect(failureOf(null)).toBeNull();
  });
});
