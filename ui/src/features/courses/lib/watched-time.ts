/**
 * Watched time of a video (issue 33 item 8: seeking to the end counted as watched): the total of the
 * ranges actually played, each second once, whatever was skipped. A file video keeps its own record
 * (`played`); the Vimeo player only says where it is, so its steps are gathered here.
 */
export type Played = readonly (readonly [number, number])[];

/** The longest step between two position reports that is still playback (about 4 a second, at most 2×), not a jump. */
const MAX_STEP_SECONDS = 1.5;

/** Adds the step from `from` to `to` when it is playback; a jump (a seek) or going back adds nothing. */
export const addPlayed = (played: Played, from: number, to: number): Played => {
  if (!(to > from) || to - from > MAX_STEP_SECONDS) return played;
  const ranges = [...played, [from, to] as const].sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [start, end] of ranges) {
    const last = merged.at(-1);
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
};

export const watchedSeconds = (played: Played) => played.reduce((sum, [start, end]) => sum + (end - start), 0);

/** The seconds a media element has played (its `played` ranges, merged by the browser). */
export const playedSeconds = (ranges: TimeRanges) => {
  let sum = 0;
  for (let i = 0; i < ranges.length; i++) sum += ranges.end(i) - ranges.start(i);
  return sum;
};
