import type { ExportRequest } from '../../domain/exports/export.rules.ts';
import { exportDecider, exportNotFound, exportStream } from '../../domain/exports/export.ts';
import { EXPORT_SYSTEM_PERMISSION, exportReach } from '../../domain/exports/export-access.ts';
import { can, type Subject } from '../../domain/permissions/can.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import type { EventMetadata, EventStore } from '../../infrastructure/event-store/event-store.port.ts';
import type { IdAllocator } from '../../infrastructure/ids/id-allocator.port.ts';
import { courseForExport } from '../../projections/exports/export-rows.queries.ts';
import { type ExportsDb, exportFilterOf, exportReadable, getExport, runningExportsOf } from '../../projections/exports/exports.queries.ts';
import { handleCommand } from '../shared/handle-command.ts';

export type ExportsDeps = {
  readonly store: EventStore;
  readonly ids: IdAllocator;
  readonly db: ExportsDb;
  /** How many exports one person may have waiting or computing at once (decision 0049). */
  readonly runningPerPerson: number;
  /** Waits until the read models hold every write so far: the person's last export, asked a moment ago, counts. */
  readonly catchUp: () => Promise<void>;
};

const forbidden = () => new DomainError('403', 'Nimate pravic za to vrsto izvoza.', { status: 403 });
const noCourse = () => new DomainError('404', 'Izobraževanje ne obstaja.', { status: 404, field: 'parameters.courseId' });
const noCompany = () => new DomainError('404', 'Podjetje ne obstaja.', { status: 404, field: 'parameters.companyId' });

/**
 * May the subject start (and so read) this export? A kind it holds system-wide; costs of a company
 * with 2009 there (the accountant's). A company outside the accountant's reach answers 404, as a
 * company that does not exist would (decision 0016); a kind it holds nowhere, 403.
 */
const authorize = async (deps: ExportsDeps, subject: Subject, request: ExportRequest) => {
  if (can(subject, EXPORT_SYSTEM_PERMISSION[request.kind], { kind: 'system' })) return;
  if (request.kind !== 'costs') throw forbidden();
  const filter = await exportFilterOf(deps.db, exportReach(subject));
  if (filter.costCompanyIds.length === 0) throw forbidden();
  if (!filter.costCompanyIds.includes(request.parameters.companyId)) throw noCompany();
};

/**
 * The interval must be one of the course's. That the course and the company exist and are the
 * caller's to name is decided before the request is handled (decision 0047).
 */
const checkInterval = async (db: ExportsDb, request: ExportRequest) => {
  if (request.kind !== 'participants') return;
  const course = await courseForExport(db, request.parameters.courseId);
  if (!course || course.deleted) throw noCourse();
  if (request.parameters.intervalId > course.intervals.length) {
    throw new DomainError('404', 'Termin izobraževanja ne obstaja.', { status: 404, field: 'parameters.intervalId' });
  }
};

/** spec §3, §4: an export is asked for (initiated, in queue); a job computes it (export.job.ts). */
export const requestExport = async (deps: ExportsDeps, subject: Subject, request: ExportRequest, metadata: EventMetadata) => {
  await authorize(deps, subject, request);
  await checkInterval(deps.db, request);
  await deps.catchUp();
  if ((await runningExportsOf(deps.db, subject.userId)) >= deps.runningPerPerson) {
    throw new DomainError('429', 'Vaši izvozi se še pripravljajo. Počakajte, da se končajo, in poskusite znova.', { status: 429, retryAfterSeconds: 30 });
  }
  const exportId = await deps.ids.next('export');
  const result = await handleCommand(deps.store, {
    streamName: exportStream(exportId),
    decider: exportDecider,
    command: { type: 'RequestExport', exportId, kind: request.kind, parameters: request.parameters, requestedBy: subject.userId },
    metadata,
  });
  return { id: exportId, position: result.position };
};

/** An export the subject may read, or 404 (one it may not read does not exist for it). */
export const readableExport = async (db: ExportsDb, subject: Subject, exportId: number) => {
  const found = await getExport(db, exportId);
  if (!found || !exportReadable(await exportFilterOf(db, exportReach(subject)), found.kind, found.parameters)) throw exportNotFound();
  return found;
};
