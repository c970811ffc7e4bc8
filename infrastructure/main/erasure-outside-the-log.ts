import type { Outbox } from '../mail/mailer.port.ts';
import { createErasureCompaction } from '../personal-data/erasure-compaction.ts';
import type { Database } from '../postgres/database.ts';
import type { Projection, ReadModels } from '../projections/projection.port.ts';

/**
 * What erasing a person removes outside the event log (decision 0051): the outbox's mail to her, the
 * chambers' files naming her, and, once the read models applied the erasure, the rewritten tables of
 * the read models that hold her and of the platform's own tables that did.
 */
export const erasureOutsideTheLog = (deps: {
  readonly db: Database;
  readonly projections: readonly Projection[];
  readonly outbox: Outbox;
  readonly forgetChamberFiles: (userId: number) => Promise<number>;
  readonly readModels: ReadModels;
}) => {
  const erasedTables = deps.projections.filter((projection) => projection.handles.includes('UserErased')).flatMap((projection) => projection.tables);
  const compactAfterErasure = createErasureCompaction(deps.db.pg, erasedTables, ['public.mail_outbox', 'public.personal_keys']);
  return {
    forgetMail: (addresses: readonly string[]) => deps.outbox.forget(addresses),
    forgetChamberFiles: deps.forgetChamberFiles,
    compact: async () => {
      await deps.readModels.catchUp();
      await compactAfterErasure();
    },
  };
};
