import type { LaunchFacts } from '../../domain/lrs/cmi5-rules.ts';
import { agentKey, type JsonObject } from '../../domain/lrs/xapi.ts';
import { learnerAgent } from '../../domain/packages/learner-agent.ts';
import type { PackageLaunch, PackageLaunches, RecordCmi5Outcome } from '../../domain/packages/package-launch.ts';
import type { EventStore } from '../../infrastructure/event-store/event-store.port.ts';
import type { Log } from '../../infrastructure/logging/log.port.ts';
import type { ReadModels } from '../../infrastructure/projections/projection.port.ts';
import type { LrsReadDb } from '../../projections/lrs/lrs.queries.ts';
import { userPlaces } from '../../projections/users/user-admin.queries.ts';

/** What the LRS feature takes from the platform (issue 35 item 4). */
export type LrsDeps = {
  readonly store: EventStore;
  readonly db: LrsReadDb;
  readonly readModels: Pick<ReadModels, 'catchUp'>;
  readonly now: () => Date;
  /** The platform's address: the learner's account home page, and where the AU finds the LRS. */
  readonly publicUrl: string;
  /** The one origin package code runs on: the only one whose scripts may call the LRS (CORS). */
  readonly contentOrigin: string;
  /** Basic credentials of the outside client that may write statements; null: none. */
  readonly lrsClient: { readonly key: string; readonly secret: string } | null;
  readonly packageLaunches: PackageLaunches;
  readonly recordCmi5Outcome: RecordCmi5Outcome;
  readonly log: Log;
};

/** Who asserts the statements of launches and of the platform itself (xAPI §2.4.9 authority). */
export const lmsAuthority = (deps: Pick<LrsDeps, 'publicUrl'>): JsonObject => ({ objectType: 'Agent', account: { homePage: deps.publicUrl, name: 'lms' } });
export const clientAuthority = (deps: Pick<LrsDeps, 'publicUrl'>, key: string): JsonObject => ({
  objectType: 'Agent',
  account: { homePage: deps.publicUrl, name: `client:${key}` },
});

/**
 * cmi5 §9.2: the learner as an Agent with an account on the platform, in the one form the player's
 * launch URL and xAPI out use too (domain/packages/learner-agent.ts), so their statements agree.
 */
export const learnerActor = (deps: Pick<LrsDeps, 'publicUrl'>, userId: number): JsonObject => learnerAgent(deps.publicUrl, userId);

/** A launch as the cmi5 rules see it: its ids, the learner's actor, and where the learner stands now (units, companies). */
export const launchFacts = async (deps: Pick<LrsDeps, 'db' | 'publicUrl'>, launch: PackageLaunch) => {
  const actor = learnerActor(deps, launch.userId);
  const places = (await userPlaces(deps.db, launch.userId)) ?? [];
  const facts: LaunchFacts = {
    registration: launch.registration.toLowerCase(),
    sessionId: launch.sessionId,
    activityId: launch.activityId,
    masteryScore: launch.masteryScore,
    actorKey: agentKey(actor) as string,
    userId: launch.userId,
    courseId: launch.courseId,
    blockId: launch.blockId,
    unitIds: [...new Set(places.map((p) => p.unitId))],
    companyIds: [...new Set(places.map((p) => p.companyId))],
  };
  return { actor, facts };
};
