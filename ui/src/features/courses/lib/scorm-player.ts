import type { IHttpService, ResultObject, Settings } from 'scorm-again';
import type CrossFrameLMSType from 'scorm-again/cross-frame-lms';
import * as crossFrameLms from 'scorm-again/cross-frame-lms';
import type Scorm12APIType from 'scorm-again/scorm12';
import type Scorm2004APIType from 'scorm-again/scorm2004';
import { ApiError } from '../../../lib/api-client.ts';
import type { ItemResume, PackageLaunch } from '../api/packages.ts';
import { type ItemProgress, startedBefore } from './package-items.ts';

// scorm-again 3.4.3's subpath typings declare a default export, while its ES modules export each
// class by name (the README's `import { Scorm12API } from 'scorm-again/scorm12'`): the named export, typed as the class.
const { CrossFrameLMS } = crossFrameLms as unknown as { CrossFrameLMS: typeof CrossFrameLMSType };

/** The runtime of one standard, loaded when an item of it is launched (each is a few hundred kB the course pages need not carry). */
const scormApiClass = async (standard: ScormStandard) =>
  standard === 'scorm12'
    ? ((await import('scorm-again/scorm12')) as unknown as { Scorm12API: typeof Scorm12APIType }).Scorm12API
    : ((await import('scorm-again/scorm2004')) as unknown as { Scorm2004API: typeof Scorm2004APIType }).Scorm2004API;

type ScormStandard = 'scorm12' | 'scorm2004';
type Json = Record<string, unknown>;

/** What a commit sends: the launch and its session (a newer launch elsewhere makes this one's commits refused), the commit's own id (the same on every retry), and the CMI as scorm-again renders it. */
export type CommitBody = { registration: string; session: string; reportId: string; cmi: unknown };
export type CommitSender<R> = (url: string, body: CommitBody, options: { keepalive: boolean }) => Promise<R>;

/** Waits before each retry of a commit the network lost; after the last the commit is given up (the next one carries the same state). */
export const RETRY_DELAYS_MS = [1_000, 2_000, 4_000, 8_000, 16_000] as const;

/** A commit is sent again when it did not arrive or the server could not take it now, never when the server refused it. */
export const retryable = (error: unknown) => !(error instanceof ApiError) || error.status >= 500 || error.status === 429;

const SCORM_TRUE = 'true';
/** scorm-again's "general commit failure" (SCORM 2004 391; 1.2 has only 101). */
const COMMIT_FAILED = 101;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * scorm-again's HTTP service (IHttpService) for the platform: it answers the SCO at once (commits
 * must not block it) and sends the commit through the app's API client, which adds the
 * participant's token (so the content origin never sees it). Commits go one after another, in the
 * order the SCO made them: an older state never lands after a newer one. A commit the network lost
 * is sent again with the same reportId, so the server records it once. A terminating commit, and
 * every commit once the page is going away, is sent with keepalive so it outlives the page.
 */
export const createCommitService = <R>(options: {
  registration: string;
  session: string;
  send: CommitSender<R>;
  newId?: () => string;
  wait?: (ms: number) => Promise<void>;
  onCommitted?: (result: R, cmi: unknown) => void;
  onFailed?: (error: unknown) => void;
}) => {
  const newId = options.newId ?? (() => crypto.randomUUID());
  const wait = options.wait ?? sleep;
  let queue: Promise<void> = Promise.resolve();
  let leaving = false;

  const deliver = async (url: string, body: CommitBody, keepalive: boolean, listeners: (name: string, element?: string, value?: unknown) => void) => {
    for (let attempt = 0; ; attempt++) {
      try {
        const result = await options.send(url, body, { keepalive: keepalive || leaving });
        listeners('CommitSuccess');
        options.onCommitted?.(result, body.cmi);
        return;
      } catch (error) {
        const delay = RETRY_DELAYS_MS[attempt];
        if (delay === undefined || !retryable(error)) {
          listeners('CommitError', undefined, COMMIT_FAILED);
          options.onFailed?.(error);
          return;
        }
        await wait(delay);
      }
    }
  };

  const service: IHttpService = {
    processHttpRequest(url, params, immediate, _apiLog, processListeners): ResultObject {
      const body: CommitBody = { registration: options.registration, session: options.session, reportId: newId(), cmi: params };
      queue = queue.then(() => deliver(url, body, immediate, processListeners));
      return { result: SCORM_TRUE, errorCode: 0 };
    },
    updateSettings() {},
  };
  return {
    service,
    /** Resolves when every commit made so far was sent or given up. */
    settled: () => queue,
    /** The page is going away: what is still to send goes with keepalive. */
    leave: () => {
      leaving = true;
    },
  };
};

const SCORM12_STATUS = ['passed', 'failed', 'completed', 'incomplete', 'browsed', 'not attempted'];

/** SCORM 1.2's lesson_status for what the package saved: the result first, then completion. */
const lessonStatus = (resume: ItemResume) => {
  if (resume.success === 'passed' || resume.success === 'failed') return resume.success;
  return resume.completion && SCORM12_STATUS.includes(resume.completion) ? resume.completion : null;
};

/** Seconds as SCORM 1.2's CMITimespan (HH[HH]:MM:SS) and SCORM 2004's ISO 8601 duration. */
const timespan12 = (seconds: number) => {
  const whole = Math.min(Math.floor(seconds), 9999 * 3600 + 3599);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(Math.floor(whole / 3600))}:${two(Math.floor((whole % 3600) / 60))}:${two(whole % 60)}`;
};
const duration2004 = (seconds: number) => `PT${Math.floor(seconds)}S`;

/**
 * The CMI the API starts with (scorm-again's loadFromJSON, before the SCO initialises): what the
 * package saved, as it left it on any device (location, suspend data, status, score, time so far),
 * entry "resume" when there is something to resume, and the manifest's mastery score.
 */
export const resumeCmi = (standard: ScormStandard, resume: ItemResume, masteryScore: number | null): Json => {
  const entry = startedBefore(resume) ? 'resume' : 'ab-initio';
  const given = <T>(value: T | null | undefined, json: (v: T) => Json): Json => (value === null || value === undefined ? {} : json(value));
  if (standard === 'scorm12') {
    return {
      core: {
        entry,
        ...given(resume.location, (v) => ({ lesson_location: v })),
        ...given(lessonStatus(resume), (v) => ({ lesson_status: v })),
        ...given(resume.score, (v) => ({ score: { raw: String(v) } })),
        ...(resume.totalSeconds > 0 ? { total_time: timespan12(resume.totalSeconds) } : {}),
      },
      ...given(resume.suspendData, (v) => ({ suspend_data: v })),
      ...given(masteryScore, (v) => ({ student_data: { mastery_score: String(v) } })),
    };
  }
  return {
    entry,
    ...given(resume.location, (v) => ({ location: v })),
    ...given(resume.completion, (v) => ({ completion_status: v })),
    ...given(resume.success, (v) => ({ success_status: v })),
    ...given(resume.score, (v) => ({ score: { scaled: String(v / 100) } })),
    ...(resume.totalSeconds > 0 ? { total_time: duration2004(resume.totalSeconds) } : {}),
    ...given(resume.suspendData, (v) => ({ suspend_data: v })),
    ...given(masteryScore, (v) => ({ scaled_passing_score: String(v / 100) })),
  };
};

const obj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});
const num = (v: unknown) => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
  return Number.isFinite(n) ? n : null;
};
const percent = (raw: number | null, min: number | null, max: number | null) => {
  if (raw === null) return null;
  const low = min ?? 0;
  const value = max !== null && max > low ? ((raw - low) / (max - low)) * 100 : raw;
  return Math.min(100, Math.max(0, Math.round(value * 10) / 10));
};

/** An item's progress from a commit the player sent (the CMI as scorm-again renders it), as the server reads it. */
export const progressOfCommit = (standard: ScormStandard, commit: unknown): ItemProgress => {
  const cmi = obj(obj(commit).cmi ?? commit);
  if (standard === 'scorm12') {
    const core = obj(cmi.core);
    const status = typeof core.lesson_status === 'string' ? core.lesson_status : '';
    const score = obj(core.score);
    return {
      completion: status === 'passed' || status === 'failed' || status === 'completed' ? 'completed' : status === 'incomplete' ? 'incomplete' : null,
      success: status === 'passed' || status === 'failed' ? status : null,
      score: percent(num(score.raw), num(score.min), num(score.max)),
      started: true,
    };
  }
  const score = obj(cmi.score);
  const scaled = num(score.scaled);
  const text = (v: unknown) => (typeof v === 'string' && v !== '' && v !== 'unknown' ? v : null);
  return {
    completion: text(cmi.completion_status),
    success: text(cmi.success_status),
    score: scaled !== null ? Math.min(100, Math.max(0, Math.round(scaled * 1000) / 10)) : percent(num(score.raw), num(score.min), num(score.max)),
    started: true,
  };
};

/** The scorm-again settings of a launch: autocommit every 30 s to the platform's commit route through our service. */
export const scormSettings = (commitUrl: string, httpService: IHttpService): Settings => ({
  autocommit: true,
  autocommitSeconds: 30,
  lmsCommitUrl: commitUrl,
  httpService,
  logLevel: 'ERROR',
});

/**
 * A SCORM item being played: scorm-again's API for its standard in the platform's page, started
 * with the saved state, bridged to the SCO on the content origin by CrossFrameLMS (which answers
 * only that origin). Made before the frame loads, since the frame warms its cache from it at once.
 * `close` commits what the SCO set since its last commit (unless it terminated), stops autocommit
 * and the bridge.
 */
export const startScormSession = async <R>(options: {
  launch: PackageLaunch;
  commitUrl: string;
  masteryScore: number | null;
  send: CommitSender<R>;
  onCommitted?: (result: R, progress: ItemProgress) => void;
  onFailed?: (error: unknown) => void;
}) => {
  const { launch } = options;
  if (launch.standard === 'cmi5') throw new Error('A cmi5 AU has no SCORM API.');
  const standard = launch.standard;
  const commits = createCommitService({
    registration: launch.registration,
    session: launch.session,
    send: options.send,
    onCommitted: (result, cmi) => options.onCommitted?.(result, progressOfCommit(standard, cmi)),
    ...(options.onFailed ? { onFailed: options.onFailed } : {}),
  });
  const settings = scormSettings(options.commitUrl, commits.service);
  const ScormApi = await scormApiClass(standard);
  const api = new ScormApi(settings);
  api.loadFromJSON(resumeCmi(standard, launch.resume, options.masteryScore));
  const bridge = new CrossFrameLMS(api, launch.contentOrigin);
  let closed = false;
  const commitNow = () => {
    if (!api.isInitialized() || api.isTerminated()) return;
    if (standard === 'scorm12') (api as Scorm12APIType).LMSCommit('');
    else (api as Scorm2004APIType).Commit('');
  };
  return {
    api,
    /** The page is going away (pagehide): the SCO's last changes go with keepalive. */
    leave: () => {
      commits.leave();
      commitNow();
    },
    close: () => {
      if (closed) return commits.settled();
      closed = true;
      commitNow();
      api.clearScheduledCommit();
      bridge.destroy();
      return commits.settled();
    },
  };
};
export type ScormSession = Awaited<ReturnType<typeof startScormSession>>;
