import { describe, expect, it } from 'vitest';
import { publishingGaps } from './publishing-gaps.ts';

describe('publishing gaps (spec §4)', () => {
  const complete = { notificationsEnabled: true, blockKinds: ['video', 'quiz', 'nps'], public: false, audienceCount: 2, tagCount: 1 };

  it('flags nothing on a course that has everything', () => {
    expect(publishingGaps(complete)).toEqual([]);
  });

  it('flags each thing a course lacks, in the spec order', () => {
    expect(publishingGaps({ notificationsEnabled: false, blockKinds: ['article'], public: false, audienceCount: 0, tagCount: 0 })).toEqual([
      'notifications',
      'nps',
      'participants',
      'quiz',
      'tags',
      'video',
    ]);
    expect(publishingGaps({ ...complete, blockKinds: ['video', 'nps'] })).toEqual(['quiz']);
  });

  it('counts a public course as having its participants: everyone', () => {
    expect(publishingGaps({ ...complete, public: true, audienceCount: 0 })).toEqual([]);
  });

  it('asks no quiz of informative content (type 5, decision 0062)', () => {
    expect(publishingGaps({ ...complete, blockKinds: ['video', 'nps'], type: 5 })).toEqual([]);
    expect(publishingGaps({ ...complete, blockKinds: ['video', 'nps'], type: 3 })).toEqual(['quiz']);
  });
});
