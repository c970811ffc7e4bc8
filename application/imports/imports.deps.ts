import type { AdminUserFields } from '../../domain/users/user-admin.rules.ts';
import type { EventMetadata, EventStore } from '../../infrastructure/event-store/event-store.port.ts';
import type { FileStore } from '../../infrastructure/files/file-store.port.ts';
import type { IdAllocator } from '../../infrastructure/ids/id-allocator.port.ts';
import type { Log } from '../../infrastructure/logging/log.port.ts';
import type { Spreadsheet } from '../../infrastructure/reports/spreadsheet.port.ts';
import type { WorkbookReader } from '../../infrastructure/xlsx/workbook-reader.port.ts';
import type { ImportReadDb } from '../../projections/imports/imports.queries.ts';

/**
 * How an import makes and changes users: the users feature's own slices (the admin's user creation
 * with its username and e-mail claims, the admin's edit, the welcome mail), wired in by the
 * composition root so the two features stay apart.
 */
export type ImportUsers = {
  readonly create: (fields: AdminUserFields & { sendWelcome: boolean }, metadata: EventMetadata) => Promise<{ id: number }>;
  readonly update: (userId: number, fields: AdminUserFields, metadata: EventMetadata) => Promise<unknown>;
  readonly sendWelcome: (userId: number, metadata: EventMetadata) => Promise<unknown>;
};

export type ImportDeps = {
  readonly store: EventStore;
  readonly ids: IdAllocator;
  readonly db: ImportReadDb;
  readonly files: FileStore;
  readonly workbooks: WorkbookReader;
  readonly spreadsheet: Spreadsheet;
  readonly users: ImportUsers;
  readonly log: Log;
  /**
   * Waits (bounded) until the users and organisation read models hold every stored event, so a
   * precheck right after an import sees the users it made.
   */
  readonly catchUp?: () => Promise<void>;
};
