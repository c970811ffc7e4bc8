import { describe, expect, it } from 'vitest';
import { countNps, npsCategory, summariseNps } from './nps.ts';

describe('NPS (spec §9)', () => {
  it('puts the boundaries 6, 7, 8, 9 where the spec says', () => {
    expect([0, 6, 7, 8, 9, 10].map(npsCategory)).toEqual(['detractor', 'detractor', 'neutral', 'neutral', 'promoter', 'promoter']);
  });

  it('has no score without answers (not a score of 0)', () => {
    expect(summariseNps(countNps([]))).toEqual({ promoters: 0, neutrals: 0, detractors: 0, answers: 0, score: null, grade: 'none', level: 'none' });
  });

  it('is -100 when everyone is a detractor and 100 when everyone is a promoter', () => {
    expect(summariseNps(countNps([0, 3, 6])).score).toBe(-100);
    expect(summariseNps(countNps([9, 10])).score).toBe(100);
    expect(summariseNps(countNps([7, 8])).score).toBe(0);
  });

  it('is % promoters minus % detractors, to one decimal', () => {
    // 2 promoters, 1 neutral, 1 detractor: 50 - 25 = 25.
    expect(summariseNps(countNps([10, 9, 7, 6]))).toMatchObject({
      promoters: 2,
      neutrals: 1,
      detractors: 1,
      answers: 4,
      score: 25,
      grade: 'poor',
      level: 'low',
    });
    // 1 of 3: 33.3.
    expect(summariseNps(countNps([9, 8, 7])).score).toBe(33.3);
  });

  it('grades above 30 good, above 50 very good, above 70 excellent (the bounds themselves fall below)', () => {
    const grade = (promoters: number, of: number) => summariseNps({ promoters, neutrals: of - promoters, detractors: 0 });
    expect(grade(3, 10)).toMatchObject({ score: 30, grade: 'poor', level: 'low' });
    expect(grade(31, 100)).toMatchObject({ grade: 'good', level: 'medium' });
    expect(grade(5, 10)).toMatchObject({ score: 50, grade: 'good', level: 'medium' });
    expect(grade(51, 100)).toMatchObject({ grade: 'veryGood', level: 'high' });
    expect(grade(7, 10)).toMatchObject({ score: 70, grade: 'veryGood' });
    expect(grade(71, 100)).toMatchObject({ grade: 'excellent', level: 'high' });
  });
});
