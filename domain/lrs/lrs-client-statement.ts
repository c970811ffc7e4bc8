import type { Decider } from '../shared/decider.ts';
import { statementConflict } from './lrs-registration.ts';
import type { LrsStatementEvent, StoredStatementData } from './lrs-statement.ts';

/**
 * A statement an outside client (Basic credentials `LRS_CLIENT_KEY`:`LRS_CLIENT_SECRET`) wrote: a
 * stream of its own per statement id, so storing it is idempotent under any concurrency. Of two
 * writers of one id at once, one appends; the other's append conflicts, it reads the stream again
 * and finds the statement there: the same content is a success that stores nothing, other content
 * is a 409 (xAPI §2.1.3: a statement, once stored, never changes).
 */
export const lrsClientStatementStream = (statementId: string) => `lrsstatement-${statementId.toLowerCase()}`;

export type LrsClientStatementState = { readonly status: 'none' } | { readonly status: 'stored'; readonly fingerprint: string };
export type LrsClientStatementCommand = { readonly type: 'StoreClientStatement'; readonly data: StoredStatementData };

export const lrsClientStatementDecider: Decider<LrsClientStatementCommand, LrsStatementEvent, LrsClientStatementState> = {
  initialState: { status: 'none' },
  evolve: (_state, event) => ({ status: 'stored', fingerprint: event.data.fingerprint }),
  decide: (command, state) => {
    if (state.status === 'none') return [{ type: 'LrsStatementStored', data: command.data }];
    if (state.fingerprint === command.data.fingerprint) return [];
    throw statementConflict();
  },
};
