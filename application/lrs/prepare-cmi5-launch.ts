import { randomUUID } from 'node:crypto';
import { lrsRegistrationDecider, lrsRegistrationStream } from '../../domain/lrs/lrs-registration.ts';
import type { JsonObject } from '../../domain/lrs/xapi.ts';
import type { PackageLaunch } from '../../domain/packages/package-launch.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import type { EventMetadata } from '../../infrastructure/event-store/event-store.port.ts';
import { handleCommand } from '../shared/handle-command.ts';
import { type LrsDeps, launchFacts, lmsAuthority } from './lrs.ts';
import { outcomesOf, recordOutcomes } from './store-statements.ts';

/** What the player puts in the AU's launch URL (cmi5 §8.1), and what the platform's LRS holds for the launch. */
export type Cmi5LaunchPrepared = {
  /** The learner as the AU must name them (`actor`). */
  readonly actor: JsonObject;
  /** The LRS's base address (`endpoint`), with a trailing slash. */
  readonly endpoint: string;
  /** The one-time URL the AU posts to for its auth token (`fetch`); null when no fetch token was given. */
  readonly fetchUrl: string | null;
  /** `endpoint=…&fetch=…&actor=…&registration=…&activityId=…`, encoded, to append to the AU's URL after `?` or `&`; null without a fetch token. */
  readonly launchQuery: string | null;
};

export type PrepareCmi5LaunchOptions = {
  /** The fetch token of the launch (`create` of the launch store answers it), for the URL this answers. */
  readonly fetchToken?: string;
  /**
   * The AU's URL without the launch parameters, for the launched statement (cmi5 §9.6.3.4). Report
   * readers read that statement: it must not hold the launch's content token.
   */
  readonly launchUrl?: string | null;
  /** Where the AU sends the learner when it ends (cmi5 §10 returnURL); none by default. */
  readonly returnUrl?: string | null;
  readonly metadata?: EventMetadata;
};

export const fetchUrlOf = (deps: Pick<LrsDeps, 'publicUrl'>, fetchToken: string) => `${deps.publicUrl}/xapi/cmi5/fetch/${encodeURIComponent(fetchToken)}`;

/**
 * Before the player opens a cmi5 AU (cmi5 §10, §9.3.1): writes LMS.LaunchData and stores the LMS's
 * "launched" statement in the registration (and "abandoned" for the learner's previous session of
 * it, if that one never terminated), then answers what the launch URL carries. Preparing the same
 * launch again stores nothing more.
 */
export const prepareCmi5Launch = async (deps: LrsDeps, launch: PackageLaunch, options: PrepareCmi5LaunchOptions = {}): Promise<Cmi5LaunchPrepared> => {
  if (launch.standard !== 'cmi5') throw new DomainError('400', 'Zagon ni zagon paketa cmi5.', { status: 400 });
  const metadata = options.metadata ?? { actorId: launch.userId };
  const { actor, facts } = await launchFacts(deps, launch);
  const result = await handleCommand(deps.store, {
    streamName: lrsRegistrationStream(facts.registration),
    decider: lrsRegistrationDecider,
    command: {
      type: 'PrepareLaunch',
      launch: facts,
      template: {
        actor,
        authority: lmsAuthority(deps),
        publisherId: launch.itemId,
        activityId: launch.activityId,
        registration: facts.registration,
        sessionId: launch.sessionId,
        moveOn: launch.moveOn,
        masteryScore: launch.masteryScore,
        launchParameters: launch.launchParameters,
        launchUrl: options.launchUrl ?? null,
        returnUrl: options.returnUrl ?? null,
      },
      ids: { launched: randomUUID(), abandoned: randomUUID() },
      now: deps.now().toISOString(),
    },
    metadata,
  });
  await recordOutcomes(deps, launch, outcomesOf(result.events));
  const endpoint = `${deps.publicUrl}/xapi/`;
  const fetchUrl = options.fetchToken === undefined ? null : fetchUrlOf(deps, options.fetchToken);
  const launchQuery =
    fetchUrl === null
      ? null
      : new URLSearchParams({
          endpoint,
          fetch: fetchUrl,
          actor: JSON.stringify(actor),
          registration: facts.registration,
          activityId: launch.activityId,
        }).toString();
  return { actor, endpoint, fetchUrl, launchQuery };
};
