import { z } from 'zod';

/**
 * What a package reports about one of its items, as the enrollment records it (issue 35 item 3):
 * the same few facts whatever the standard said them in (SCORM 1.2 cmi.core.*, SCORM 2004 cmi.*,
 * cmi5 statements). Each field is present only when the report says it. Scores are percent (0-100).
 */
export const COMPLETION = ['completed', 'incomplete', 'not attempted', 'unknown'] as const;
export const SUCCESS = ['passed', 'failed', 'unknown'] as const;

/** SCORM 2004's limits (SCORM 1.2 allows less; more from a package is cut, not refused). */
const SUSPEND_DATA_MAX = 64_000;
/** The longest session time taken; a package claiming more is taken at this (cut, like the other fields). */
const SESSION_SECONDS_MAX = 10 * 24 * 3600;
const LOCATION_MAX = 1000;
export const INTERACTIONS_MAX = 250;

export const interactionRule = z.object({
  id: z.string().max(4000),
  type: z.string().max(50).nullable(),
  response: z.string().max(4000).nullable(),
  result: z.string().max(50).nullable(),
  description: z.string().max(1000).nullable(),
});
export type Interaction = z.output<typeof interactionRule>;

export const runtimeReportRule = z.object({
  completion: z.enum(COMPLETION).optional(),
  success: z.enum(SUCCESS).optional(),
  score: z.number().min(0).max(100).optional(),
  location: z.string().max(LOCATION_MAX).optional(),
  suspendData: z.string().max(SUSPEND_DATA_MAX).optional(),
  /** This session's time, in seconds. */
  sessionSeconds: z
    .number()
    .min(0)
    .max(10 * 24 * 3600)
    .optional(),
  interactions: z.array(interactionRule).max(INTERACTIONS_MAX).optional(),
});
export type RuntimeReport = z.output<typeof runtimeReportRule>;

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined);
const num = (v: unknown): number | undefined => {
  const s = str(v);
  if (s === undefined || s.trim() === '') return undefined;
  const n = Number(s);
  return Number.isFinite(n) ? n : undefined;
};
const clamp = (n: number) => Math.min(100, Math.max(0, Math.round(n * 10) / 10));

/** SCORM 1.2 CMITimespan `HHHH:MM:SS.SS`. */
const scorm12Seconds = (v: unknown) => {
  const m = /^(\d{1,4}):(\d{2}):(\d{2}(?:\.\d{1,2})?)$/.exec(str(v) ?? '');
  return m ? Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]) : undefined;
};
/** ISO 8601 durations (SCORM 2004 timeinterval, xAPI result.duration): `P[nD]T[nH][nM][n.nS]`. */
export const isoDurationSeconds = (v: unknown) => {
  const m =
    /^P(?:(\d+(?:\.\d+)?)Y)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)W)?(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(
      str(v) ?? '',
    );
  if (!m || (str(v) ?? '') === 'P' || (str(v) ?? '').endsWith('T')) return undefined;
  const [, y, mo, w, d, h, mi, s] = m.map((x) => Number(x ?? 0));
  return (y ?? 0) * 31_536_000 + (mo ?? 0) * 2_592_000 + (w ?? 0) * 604_800 + (d ?? 0) * 86_400 + (h ?? 0) * 3600 + (mi ?? 0) * 60 + (s ?? 0);
};

/** A raw score as percent: against min and max when the package gives a range, else as it is. */
const percent = (raw: number | undefined, min: number | undefined, max: number | undefined) => {
  if (raw === undefined) return undefined;
  if (max !== undefined && max > (min ?? 0)) return clamp(((raw - (min ?? 0)) / (max - (min ?? 0))) * 100);
  return clamp(raw);
};

const interactionsOf = (value: unknown, response: 'student_response' | 'learner_response'): Interaction[] | undefined => {
  // scorm-again renders a CMIArray by index ({ "0": {...} }); its own object keeps them in `childArray`.
  const children = (value as { childArray?: unknown } | null)?.childArray;
  const list = Array.isArray(value) ? value : Array.isArray(children) ? children : Object.values(obj(value));
  const out: Interaction[] = [];
  for (const entry of list.slice(0, INTERACTIONS_MAX)) {
    const i = obj(entry);
    const id = str(i.id);
    if (!id) continue;
    out.push({
      id: id.slice(0, 4000),
      type: str(i.type)?.slice(0, 50) || null,
      response: str(i[response])?.slice(0, 4000) ?? null,
      result: str(i.result)?.slice(0, 50) || null,
      description: str(i.description)?.slice(0, 1000) || null,
    });
  }
  return out.length > 0 ? out : undefined;
};

const cut = (v: string | undefined, max: number) => (v === undefined ? undefined : v.slice(0, max));

/** SCORM 1.2's `{ cmi: { core: {...}, suspend_data, interactions } }` as scorm-again commits it. */
const fromScorm12 = (cmi: Json): RuntimeReport => {
  const core = obj(cmi.core);
  const status = str(core.lesson_status);
  const score = obj(core.score);
  const report: RuntimeReport = {
    location: cut(str(core.lesson_location), LOCATION_MAX),
    suspendData: cut(str(cmi.suspend_data), SUSPEND_DATA_MAX),
    score: percent(num(score.raw), num(score.min), num(score.max)),
    sessionSeconds: scorm12Seconds(core.session_time),
    interactions: interactionsOf(cmi.interactions, 'student_response'),
  };
  if (status === 'passed' || status === 'failed') return { ...report, completion: 'completed', success: status };
  if (status === 'completed') return { ...report, completion: 'completed' };
  if (status === 'incomplete' || status === 'browsed') return { ...report, completion: 'incomplete' };
  if (status === 'not attempted') return { ...report, completion: 'not attempted' };
  return report;
};

/** SCORM 2004's `{ cmi: { completion_status, success_status, score, location, ... } }`. */
const fromScorm2004 = (cmi: Json): RuntimeReport => {
  const completion = str(cmi.completion_status);
  const success = str(cmi.success_status);
  const score = obj(cmi.score);
  const scaled = num(score.scaled);
  return {
    completion: (COMPLETION as readonly string[]).includes(completion ?? '') ? (completion as RuntimeReport['completion']) : undefined,
    success: (SUCCESS as readonly string[]).includes(success ?? '') ? (success as RuntimeReport['success']) : undefined,
    score: scaled !== undefined ? clamp(scaled * 100) : percent(num(score.raw), num(score.min), num(score.max)),
    location: cut(str(cmi.location), LOCATION_MAX),
    suspendData: cut(str(cmi.suspend_data), SUSPEND_DATA_MAX),
    sessionSeconds: isoDurationSeconds(cmi.session_time),
    interactions: interactionsOf(cmi.interactions, 'learner_response'),
  };
};

/** Without the fields a report does not state (undefined), so an event carries only what was said; session time cut to its limit. */
const stated = (report: RuntimeReport): RuntimeReport => {
  const kept = Object.fromEntries(Object.entries(report).filter(([, v]) => v !== undefined && v !== '')) as RuntimeReport;
  return kept.sessionSeconds === undefined ? kept : { ...kept, sessionSeconds: Math.min(kept.sessionSeconds, SESSION_SECONDS_MAX) };
};

/** A SCORM commit (the CMI object scorm-again renders) as a runtime report. Unknown shapes say nothing. */
export const runtimeOfScormCommit = (standard: 'scorm12' | 'scorm2004', commit: unknown): RuntimeReport => {
  const cmi = obj(obj(commit).cmi ?? commit);
  return stated(standard === 'scorm12' ? fromScorm12(cmi) : fromScorm2004(cmi));
};

/** The interactions a PackageReported event holds (JSON text), or null when it holds none or they were erased. */
export const interactionsOfEvent = (text: string | null | undefined): Interaction[] | null => {
  if (!text) return null;
  try {
    const parsed = z.array(interactionRule).safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
};
