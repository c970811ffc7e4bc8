/**
 * Times are stored in UTC and shown in Europe/Ljubljana (spec §1, DESIGN §3). Periods of whole days
 * are days as people in Slovenia count them: from D1 to D2 runs from the midnight starting D1 to the
 * midnight ending D2 in Ljubljana, whatever the server's own time zone, across summer time changes.
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

/** The Ljubljana wall clock of an instant, as a Date whose UTC fields hold it. */
export const ljubljanaWallClock = (at: Date): Date => {
  const parts = Object.fromEntries(WALL.formatToParts(at).map((p) => [p.type, p.value]));
  return new Date(
    Date.UTC(
      Number(parts.year),
      Number(parts.month) - 1,
      Number(parts.day),
      Number(parts.hour),
      Number(parts.minute),
      Number(parts.second),
      at.getUTCMilliseconds(),
    ),
  );
};

/** The instant a Ljubljana day (`YYYY-MM-DD`) begins. */
export const ljubljanaDayStart = (day: string): Date => {
  const wall = Date.parse(`${day}T00:00:00Z`);
  // The offset is +1 or +2 hours; guess with the offset at the wall time, then correct once.
  let instant = wall - (ljubljanaWallClock(new Date(wall)).getTime() - wall);
  instant = wall - (ljubljanaWallClock(new Date(instant)).getTime() - instant);
  return new Date(instant);
};

/** The day after `day`. */
export const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** A period of whole Ljubljana days, both ends included: [start of `from`, start of the day after `to`). */
export const ljubljanaPeriod = (from: string, to: string) => ({ start: ljubljanaDayStart(from), end: ljubljanaDayStart(nextDay(to)) });
