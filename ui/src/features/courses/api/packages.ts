import { api } from '../../../lib/api-client.ts';
import type { StepResult } from './courses.ts';

export type PackageStandard = 'scorm12' | 'scorm2004' | 'cmi5';
export type PackageItem = { id: string; title: string; masteryScore: number | null; moveOn: string | null };

/** An uploaded SCORM or cmi5 package as the server read its manifest (issue 35). */
export type ContentPackage = {
  id: number;
  standard: PackageStandard;
  /** '1.2', '2004 3rd Edition', '2004 4th Edition' or '1.0' (cmi5). */
  version: string;
  title: string;
  items: PackageItem[];
  entries: number;
  size: number;
};

/** What the package saved about an item, to resume it on any device. */
export type ItemResume = {
  completion: string | null;
  success: string | null;
  score: number | null;
  location: string | null;
  suspendData: string | null;
  totalSeconds: number;
};

/** A launch of one item: the URL on the content origin to frame and the state to resume from. */
export type PackageLaunch = {
  standard: PackageStandard;
  registration: string;
  /** This launch's session: commits of an older launch of the item (another tab, another device) are refused. */
  session: string;
  itemId: string;
  url: string;
  contentOrigin: string;
  resume: ItemResume;
};

/**
 * The zip as the raw body. Its type is always application/zip (what the server takes), whatever the
 * browser guessed from the name (Windows says application/x-zip-compressed); the server checks the content.
 */
export const uploadPackage = (file: File) =>
  api<ContentPackage>('POST', '/packages', { query: { name: file.name }, body: new Blob([file], { type: 'application/zip' }) });

export const getPackage = (id: number) => api<ContentPackage>('GET', `/packages/${id}`);

const blockPath = (courseId: number, blockId: number) => `/user-courses/${courseId}/blocks/${blockId}/package`;

export const launchPackageItem = (courseId: number, blockId: number, itemId: string) =>
  api<PackageLaunch>('POST', `${blockPath(courseId, blockId)}/launch`, { body: { itemId } });

/** Where the player sends a SCORM package's commits (scorm-again's lmsCommitUrl), as the API client names it. */
export const packageCommitPath = (courseId: number, blockId: number) => `${blockPath(courseId, blockId)}/commit`;

/** One commit of the package's CMI data; `reportId` is the same when the commit is sent again. */
export const commitPackage = (
  path: string,
  body: { registration: string; session: string; reportId: string; cmi: unknown },
  options: { keepalive?: boolean } = {},
) => api<StepResult>('POST', path, { body, ...(options.keepalive ? { keepalive: true } : {}) });
