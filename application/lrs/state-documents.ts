import { createHash } from 'node:crypto';
import {
  documentsOf,
  type LrsRegistrationEvent,
  lrsRegistrationDecider,
  lrsRegistrationStream,
  type StateDocument,
} from '../../domain/lrs/lrs-registration.ts';
import { agentKey } from '../../domain/lrs/xapi.ts';
import type { PackageLaunch } from '../../domain/packages/package-launch.ts';
import { fold } from '../../domain/shared/decider.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import type { EventMetadata } from '../../infrastructure/event-store/event-store.port.ts';
import { handleCommand } from '../shared/handle-command.ts';
import { type LrsDeps, launchFacts } from './lrs.ts';

/** The query of the State resource (xAPI §2.5, cmi5 §10), as the AU sends it. */
export type StateQuery = {
  readonly activityId: string;
  /** The agent parameter, JSON text. */
  readonly agent: string;
  readonly registration?: string | undefined;
  readonly stateId?: string | undefined;
  readonly since?: string | undefined;
};

const refuse = (message: string, field: string) => new DomainError('403', message, { status: 403, field });

export const parseJsonParameter = (text: string, field: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    throw new DomainError('400', `Parameter ${field} ni veljaven JSON.`, { status: 400, field });
  }
};

/**
 * A launch keeps the documents of its own registration and learner only (the auth token reaches that
 * launch and nothing else): another agent or registration is refused.
 */
const ownDocuments = async (deps: LrsDeps, launch: PackageLaunch, query: StateQuery) => {
  const { facts } = await launchFacts(deps, launch);
  if (agentKey(parseJsonParameter(query.agent, 'agent')) !== facts.actorKey) throw refuse('Zagon dosega le dokumente svojega udeleženca.', 'agent');
  if (query.registration?.toLowerCase() !== facts.registration) throw refuse('Zagon dosega le dokumente svoje registracije.', 'registration');
  return facts;
};

/** The ETag of a document (xAPI §2.5.3 concurrency): its content's SHA-1, quoted. */
export const etagOf = (document: StateDocument) => `"${createHash('sha1').update(document.contentType).update('\n').update(document.content).digest('hex')}"`;

/**
 * GET: one document (null when there is none) or the ids of the activity's documents. Read from the
 * registration's own stream, not a read model: the AU reads LMS.LaunchData a moment after the
 * platform wrote it, in another request, and must find it.
 */
export const readStateDocuments = async (deps: LrsDeps, launch: PackageLaunch, query: StateQuery) => {
  const facts = await ownDocuments(deps, launch, query);
  const read = await deps.store.readStream(lrsRegistrationStream(facts.registration));
  const state = fold(
    lrsRegistrationDecider,
    read.events.map((e) => ({ type: e.type, data: e.data }) as LrsRegistrationEvent),
  );
  const documents = documentsOf(state, query.activityId);
  if (query.stateId !== undefined) return { kind: 'one' as const, document: documents.find((d) => d.stateId === query.stateId) ?? null };
  const since = query.since === undefined ? null : Date.parse(query.since);
  return { kind: 'ids' as const, ids: documents.filter((d) => since === null || Date.parse(d.updatedAt) > since).map((d) => d.stateId) };
};

/** PUT (replace) or POST (merge JSON objects) one document of the launch's registration. */
export const saveStateDocument = async (
  deps: LrsDeps,
  launch: PackageLaunch,
  query: StateQuery,
  body: { contentType: string; content: string },
  options: { merge: boolean; metadata: EventMetadata },
) => {
  if (query.stateId === undefined) throw new DomainError('400', 'Parameter stateId je obvezen.', { status: 400, field: 'stateId' });
  const facts = await ownDocuments(deps, launch, query);
  const result = await handleCommand(deps.store, {
    streamName: lrsRegistrationStream(facts.registration),
    decider: lrsRegistrationDecider,
    command: {
      type: 'SaveStateDocument',
      launch: facts,
      merge: options.merge,
      document: {
        activityId: query.activityId,
        stateId: query.stateId,
        contentType: body.contentType,
        content: body.content,
        updatedAt: deps.now().toISOString(),
      },
    },
    metadata: options.metadata,
  });
  return result.position;
};

/** DELETE one document, or every document of the activity (but LMS.LaunchData, which is the LMS's). */
export const deleteStateDocuments = async (deps: LrsDeps, launch: PackageLaunch, query: StateQuery, metadata: EventMetadata) => {
  const facts = await ownDocuments(deps, launch, query);
  const result = await handleCommand(deps.store, {
    streamName: lrsRegistrationStream(facts.registration),
    decider: lrsRegistrationDecider,
    command: { type: 'DeleteStateDocuments', launch: facts, activityId: query.activityId, stateId: query.stateId ?? null },
    metadata,
  });
  return result.position;
};
