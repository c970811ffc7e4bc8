import { COURSE_TYPE } from './course-types.rules.ts';

/**
 * spec §4: a course is flagged incomplete for publishing when it lacks notifications, an NPS survey,
 * participants, a quiz, tags or a video. The flags warn; publishing stays the author's decision.
 */
export const PUBLISHING_GAPS = ['notifications', 'nps', 'participants', 'quiz', 'tags', 'video'] as const;
export type PublishingGap = (typeof PUBLISHING_GAPS)[number];

export type PublishingFacts = {
  readonly notificationsEnabled: boolean;
  readonly blockKinds: readonly string[];
  /** A public course is for everyone; otherwise someone must be targeted. */
  readonly public: boolean;
  readonly audienceCount: number;
  readonly tagCount: number;
  /** spec §3 course type: informative content (5) needs no quiz (decision 0062), so lacking one is no gap. */
  readonly type?: number;
};

export const publishingGaps = (course: PublishingFacts): PublishingGap[] =>
  PUBLISHING_GAPS.filter((gap) => {
    switch (gap) {
      case 'notifications':
        return !course.notificationsEnabled;
      case 'nps':
        return !course.blockKinds.includes('nps');
      case 'participants':
        return !course.public && course.audienceCount === 0;
      case 'quiz':
        return course.type !== COURSE_TYPE.informative && !course.blockKinds.includes('quiz');
      case 'tags':
        return course.tagCount === 0;
      case 'video':
        return !course.blockKinds.includes('video');
      default: {
        const unreachable: never = gap;
        return unreachable;
      }
    }
  });
