import type { MoveOn, PackageStandard } from './package-structure.ts';

/**
 * One launch of a package item by a participant (issue 35, decision 0059). The player asks for it
 * with the participant's session; package code then only ever holds the launch's own tokens:
 * - the content token, in the content origin's paths (/p/<token>/...), which serves the package's files;
 * - for cmi5, the fetch token in the launch URL's `fetch`, redeemed once for the auth token the AU
 *   sends to the platform's LRS (`Authorization: Basic <auth token>`).
 * None of them is the platform's session, and each reaches only this launch.
 */
export type PackageLaunch = {
  /** The cmi5 registration (a UUID); also the launch's id. */
  readonly registration: string;
  /** The cmi5 session id of this launch (a UUID). */
  readonly sessionId: string;
  readonly packageId: number;
  readonly courseId: number;
  readonly blockId: number;
  readonly userId: number;
  readonly itemId: string;
  readonly standard: PackageStandard;
  /** cmi5: the AU's activity id (its id in cmi5.xml); SCORM: an IRI under the platform's URL. */
  readonly activityId: string;
  readonly moveOn: MoveOn | null;
  /** 0-1 as cmi5 states it; null: none. */
  readonly masteryScore: number | null;
  readonly launchParameters: string | null;
  readonly createdAt: string;
  readonly expiresAt: string;
};

/** The launches, looked up by the tokens package code holds. */
export type PackageLaunches = {
  byContentToken(token: string): Promise<PackageLaunch | null>;
  /** cmi5 fetch URL: the auth token the first time, null ever after (cmi5 spec §8.2.3). */
  redeemFetchToken(token: string): Promise<string | null>;
  byAuthToken(token: string): Promise<PackageLaunch | null>;
};

/** cmi5 outcomes of an AU's statements that move the block on (cmi5 §9.3), for the enrollment. */
export type Cmi5Verb = 'launched' | 'initialized' | 'completed' | 'passed' | 'failed' | 'abandoned' | 'waived' | 'terminated' | 'satisfied';
export type Cmi5Outcome = {
  readonly verb: Cmi5Verb;
  /** result.score.scaled (-1..1) when given. */
  readonly scaled: number | null;
  /** result.duration in seconds when given. */
  readonly durationSeconds: number | null;
  /** The statement's id: recording the same statement twice changes nothing. */
  readonly statementId: string;
  /** The AU session the statement is of (its cmi5 session id); an earlier session's "abandoned" is not the current launch's. */
  readonly sessionId?: string | null;
};
/** What the LRS tells the courses feature after storing a cmi5 defined statement of a launch. */
export type RecordCmi5Outcome = (launch: PackageLaunch, outcome: Cmi5Outcome) => Promise<void>;

/**
 * Who may see and name a stored package (a block's `packageId`, the editor's view of it): its
 * uploader, and who edits blocks platform-wide (1025). A company's author never reaches another's.
 */
export const mayUsePackage = (can1025: boolean, userId: number, createdBy: number | null) => can1025 || (createdBy !== null && createdBy === userId);
