import { describe, expect, it } from 'vitest';
import { addPlayed, type Played, watchedSeconds } from './watched-time.ts';

/** Positions as a player reports them, about four a second; each step is added to what was played. */
const play = (positions: number[], played: Played = []) => {
  let result = played;
  for (let i = 1; i < positions.length; i++) result = addPlayed(result, positions[i - 1] as number, positions[i] as number);
  return result;
};

describe('watched time of a video (issue 33 item 8)', () => {
  it('counts what was played, not where the player stands: a seek to the end adds nothing', () => {
    const played = play([0, 0.25, 0.5, 0.75, 1, 120]);
    expect(watchedSeconds(played)).toBe(1);
  });

  it('counts a part watched twice once, and parts apart each', () => {
    const first = play([0, 1, 2, 3]);
    const again = play([1, 2, 3, 4], first);
    const later = play([50, 51], again);
    expect(watchedSeconds(later)).toBe(5);
  });

  it('counts playback at 2× speed, and nothing for going back', () => {
    expect(watchedSeconds(play([10, 10.5, 11, 11.5, 12]))).toBe(2);
    expect(watchedSeconds(play([30, 5]))).toBe(0);
  });
});
