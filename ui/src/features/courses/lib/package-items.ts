import type { TFunction } from 'i18next';
import type { BlockRecord } from '../api/courses.ts';
import type { ItemResume, PackageStandard } from '../api/packages.ts';

/** What an item's state is shown from: its completion, result and score (percent), and whether it was ever begun. */
export type ItemProgress = { completion: string | null; success: string | null; score: number | null; started: boolean };

/** Whether the participant has been in the item before (then a SCO is told to resume). */
export const startedBefore = (resume: ItemResume) =>
  resume.location !== null ||
  resume.suspendData !== null ||
  (resume.completion !== null && resume.completion !== 'not attempted') ||
  resume.success !== null ||
  resume.score !== null ||
  resume.totalSeconds > 0;

/** What the participant sees of an item of a package: not started, in progress, completed, passed or not passed. */
export type ItemState = 'notStarted' | 'inProgress' | 'completed' | 'passed' | 'failed';

/** The result first (passed, not passed), then completion, then whether it was ever begun. */
export const itemState = (progress: ItemProgress): ItemState => {
  if (progress.success === 'passed') return 'passed';
  if (progress.success === 'failed') return 'failed';
  if (progress.completion === 'completed') return 'completed';
  return progress.started ? 'inProgress' : 'notStarted';
};

/** An item's progress as a launch resumes it. */
export const progressOfResume = (resume: ItemResume): ItemProgress => ({
  completion: resume.completion,
  success: resume.success === 'unknown' ? null : resume.success,
  score: resume.score,
  started: startedBefore(resume),
});

/**
 * An item's progress from the block's record, before this visit launched it: the record holds the
 * block's (its last result, done, opened), which is the item's when the package has one item.
 */
export const progressOfRecord = (record: BlockRecord | undefined): ItemProgress => ({
  completion: record?.done ? 'completed' : null,
  success: record && record.quizAttempts > 0 && record.quizPassed !== null ? (record.quizPassed ? 'passed' : 'failed') : null,
  score: record && record.quizAttempts > 0 ? record.quizScore : null,
  started: record?.opened === true,
});

/** "SCORM 1.2", "SCORM 2004, 4. izdaja", "cmi5". */
export const standardText = (t: TFunction, standard: PackageStandard, version: string | null) => {
  if (standard === 'scorm2004') {
    const edition = /^2004 (\d)/.exec(version ?? '')?.[1];
    return edition ? t('blocks.package.standards.scorm2004Edition', { edition }) : t('blocks.package.standards.scorm2004');
  }
  return t(`blocks.package.standards.${standard}`);
};
