/**
 * Dates and times people type, in Slovenian order and 24-hour time, read as wall-clock time in
 * Europe/Ljubljana whatever the browser's zone or language (issue 18 item 4). Instants travel as
 * UTC ISO strings (`…Z`), calendar days as `YYYY-MM-DD`. The same arithmetic as the backend's
 * domain/shared/ljubljana-time.ts, which the UI may not import (DESIGN §2).
 */
const WALL = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/Ljubljana',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

type Wall = { year: number; month: number; day: number; hour: number; minute: number; second: number };

const pad = (n: number) => String(n).padStart(2, '0');

/** The Ljubljana wall clock of an instant. */
export const ljubljanaWall = (at: Date): Wall => {
  const parts = Object.fromEntries(WALL.formatToParts(at).map((p) => [p.type, p.value]));
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
};

const wallMs = (w: Wall) => Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);

/**
 * The instant a Ljubljana wall-clock time names. The offset is +1 or +2 hours: guess with the offset
 * at the wall time read as UTC, then correct once. A time the spring change skips (2:30 on the last
 * Sunday of March) comes out an hour later; one the autumn change repeats is its second (winter) occurrence.
 */
export const fromLjubljanaWall = (w: Wall): Date => {
  const wall = wallMs(w);
  let instant = wall - (wallMs(ljubljanaWall(new Date(wall))) - wall);
  instant = wall - (wallMs(ljubljanaWall(new Date(instant))) - instant);
  return new Date(instant);
};

const isRealDay = (year: number, month: number, day: number) => {
  const d = new Date(Date.UTC(year, month - 1, day));
  return year >= 1000 && year <= 9999 && d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
};

const SLOVENIAN_DAY = /^(\d{1,2})\.\s*(\d{1,2})\.\s*(\d{4})$/;
const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{1,2})[:.](\d{2})(?::(\d{2}))?$/;

const parseDayParts = (text: string) => {
  const sl = SLOVENIAN_DAY.exec(text);
  const iso = sl ? null : ISO_DAY.exec(text);
  const [year, month, day] = sl ? [Number(sl[3]), Number(sl[2]), Number(sl[1])] : iso ? [Number(iso[1]), Number(iso[2]), Number(iso[3])] : [0, 0, 0];
  return isRealDay(year, month, day) ? { year, month, day } : null;
};

/** `YYYY-MM-DD` as people in Slovenia write it: `23. 11. 2026`. */
export const formatDayInput = (day: string | null | undefined) => {
  const match = day ? ISO_DAY.exec(day) : null;
  return match ? `${Number(match[3])}. ${Number(match[2])}. ${match[1]}` : '';
};

/** `23. 11. 2026` (also `23.11.2026` or `2026-11-23`) as `YYYY-MM-DD`, or null when it is no real day. */
export const parseDayInput = (text: string) => {
  const parts = parseDayParts(text.trim());
  return parts ? `${parts.year}-${pad(parts.month)}-${pad(parts.day)}` : null;
};

/** An instant as Ljubljana wall-clock text: `23. 11. 2026 10:00` (24-hour time). */
export const formatDateTimeInput = (iso: string | null | undefined) => {
  if (!iso) return '';
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  const w = ljubljanaWall(at);
  return `${w.day}. ${w.month}. ${w.year} ${pad(w.hour)}:${pad(w.minute)}${w.second ? `:${pad(w.second)}` : ''}`;
};

/**
 * `23. 11. 2026 10:00` (a comma or `T` between date and time, `2026-11-23 10:00`, `10.00` and
 * seconds accepted too) read as Ljubljana wall-clock time, as a UTC ISO instant; null when it is
 * not a whole, real date and 24-hour time.
 */
export const parseDateTimeInput = (text: string) => {
  const match = /^(.+?)(?:\s*,\s*|\s+|T)(\d{1,2}[:.]\d{2}(?::\d{2})?)$/.exec(text.trim());
  if (!match) return null;
  const day = parseDayParts((match[1] ?? '').trim());
  const time = TIME.exec(match[2] ?? '');
  if (!day || !time) return null;
  const [hour, minute, second] = [Number(time[1]), Number(time[2]), Number(time[3] ?? 0)];
  if (hour > 23 || minute > 59 || second > 59) return null;
  return fromLjubljanaWall({ ...day, hour, minute, second }).toISOString();
};

/** The Ljubljana calendar day (`YYYY-MM-DD`) of an instant. */
export const ljubljanaDay = (iso: string) => {
  const w = ljubljanaWall(new Date(iso));
  return `${w.year}-${pad(w.month)}-${pad(w.day)}`;
};
