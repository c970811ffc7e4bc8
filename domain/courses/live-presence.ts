/**
 * A live webinar's presence checks (spec §4 "Live page: waiting for confirmation of presence
 * (countdown in seconds), missed, or recorded"; issue 17 item 5). While the webinar runs, the
 * platform asks each attendee to confirm presence at fixed moments: 5 minutes after the start and
 * then every 15 minutes until the end; each check stays open PRESENCE_WINDOW_SECONDS, counted down
 * on the page; one not confirmed in time is missed. An attendee who confirmed at least half of the
 * checks attended (decision 0028).
 */
export const FIRST_CHECK_AFTER_MS = 5 * 60 * 1000;
export const CHECK_EVERY_MS = 15 * 60 * 1000;
export const PRESENCE_WINDOW_SECONDS = 90;
/** The share of checks an attendee must confirm to have attended. */
export const ATTENDANCE_SHARE = 0.5;

export type LiveWindow = { readonly startsAt: string; readonly stopsAt: string };
export type PresenceCheck = { readonly index: number; readonly opensAt: Date; readonly closesAt: Date };

/** The checks of a webinar, in order (at least one, even for a webinar shorter than 5 minutes: at its start). */
export const presenceChecks = (live: LiveWindow): PresenceCheck[] => {
  const start = new Date(live.startsAt).getTime();
  const stop = new Date(live.stopsAt).getTime();
  const window = PRESENCE_WINDOW_SECONDS * 1000;
  const checks: PresenceCheck[] = [];
  for (let at = start + FIRST_CHECK_AFTER_MS; at + window <= stop; at += CHECK_EVERY_MS) {
    checks.push({ index: checks.length, opensAt: new Date(at), closesAt: new Date(at + window) });
  }
  if (checks.length === 0) checks.push({ index: 0, opensAt: new Date(start), closesAt: new Date(Math.min(start + window, stop)) });
  return checks;
};

/** Where a webinar stands for the live page at a moment. */
export const livePhase = (live: LiveWindow, now: Date): 'upcoming' | 'live' | 'ended' =>
  now < new Date(live.startsAt) ? 'upcoming' : now < new Date(live.stopsAt) ? 'live' : 'ended';

/** The check open at `now`, if any. */
export const openCheck = (live: LiveWindow, now: Date) => presenceChecks(live).find((c) => c.opensAt <= now && now < c.closesAt) ?? null;

/** Whether the confirmed checks make the attendee present at the webinar. */
export const attended = (live: LiveWindow, confirmed: readonly number[]) => {
  const total = presenceChecks(live).length;
  return new Set(confirmed).size >= Math.ceil(total * ATTENDANCE_SHARE);
};
