import { formatDayInput, ljubljanaDay } from '../../../lib/ljubljana-time.ts';

type Interval = { startsAt: string; stopsAt: string };

/**
 * The due date a course card shows: the last day of the interval open now, as people in Slovenia
 * write it ("31. 12. 2026"), in Ljubljana time. An interval ends before its stop (`now < stopsAt`),
 * so a stop at midnight makes the day before the last one. Null when no interval is open: a course
 * without intervals never closes, and one not yet open is not due.
 */
export const dueDay = (intervals: readonly Interval[], now: number) => {
  const open = intervals.find((i) => Date.parse(i.startsAt) <= now && now < Date.parse(i.stopsAt));
  return open ? formatDayInput(ljubljanaDay(new Date(Date.parse(open.stopsAt) - 1).toISOString())) : null;
};

/** A duration in minutes as hours and minutes ("1 h 30 min", "2 h", "45 min"). */
export const durationParts = (minutes: number) => ({ hours: Math.floor(minutes / 60), minutes: minutes % 60 });

/** Progress as a whole percentage of the blocks done (0 when the course has none). */
export const progressPercent = (done: number, total: number) => (total > 0 ? Math.round((Math.min(done, total) / total) * 100) : 0);
