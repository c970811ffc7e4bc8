// @vitest-environment happy-dom
import type Scorm12APIType from 'scorm-again/scorm12';
import * as scorm12 from 'scorm-again/scorm12';
import type Scorm2004APIType from 'scorm-again/scorm2004';
import * as scorm2004 from 'scorm-again/scorm2004';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api-client.ts';
import type { ItemResume, PackageLaunch } from '../api/packages.ts';
import { type CommitBody, createCommitService, progressOfCommit, resumeCmi, scormSettings, startScormSession } from './scorm-player.ts';

const { Scorm12API } = scorm12 as unknown as { Scorm12API: typeof Scorm12APIType };
const { Scorm2004API } = scorm2004 as unknown as { Scorm2004API: typeof Scorm2004APIType };

const NOTHING: ItemResume = { completion: null, success: null, score: null, location: null, suspendData: null, totalSeconds: 0 };
const LEFT_ON_PAGE_2: ItemResume = { completion: 'incomplete', success: null, score: null, location: '2', suspendData: 'stran=2', totalSeconds: 75 };
const noWait = () => Promise.resolve();
const networkDown = () => new TypeError('Failed to fetch');

describe('the state a SCO resumes with', () => {
  it('SCORM 1.2: location, suspend data, status, time so far and the mastery score, entry "resume"', () => {
    const api = new Scorm12API({ logLevel: 'NONE' });
    api.loadFromJSON(resumeCmi('scorm12', LEFT_ON_PAGE_2, 70));
    expect(api.LMSInitialize('')).toBe('true');
    expect(api.LMSGetValue('cmi.core.lesson_location')).toBe('2');
    expect(api.LMSGetValue('cmi.suspend_data')).toBe('stran=2');
    expect(api.LMSGetValue('cmi.core.entry')).toBe('resume');
    expect(api.LMSGetValue('cmi.core.lesson_status')).toBe('incomplete');
    expect(api.LMSGetValue('cmi.student_data.mastery_score')).toBe('70');
    expect(api.LMSGetValue('cmi.core.total_time')).toBe('00:01:15');
  });

  it('SCORM 1.2: a passed item keeps its status and score', () => {
    const api = new Scorm12API({ logLevel: 'NONE' });
    api.loadFromJSON(resumeCmi('scorm12', { ...NOTHING, completion: 'completed', success: 'passed', score: 80 }, null));
    api.LMSInitialize('');
    expect(api.LMSGetValue('cmi.core.lesson_status')).toBe('passed');
    expect(api.LMSGetValue('cmi.core.score.raw')).toBe('80');
  });

  it('SCORM 2004: location, suspend data, completion and success, entry "resume", the scaled passing score', () => {
    const api = new Scorm2004API({ logLevel: 'NONE' });
    api.loadFromJSON(resumeCmi('scorm2004', { ...LEFT_ON_PAGE_2, success: 'failed', score: 50 }, 70));
    expect(api.Initialize('')).toBe('true');
    expect(api.GetValue('cmi.location')).toBe('2');
    expect(api.GetValue('cmi.suspend_data')).toBe('stran=2');
    expect(api.GetValue('cmi.entry')).toBe('resume');
    expect(api.GetValue('cmi.completion_status')).toBe('incomplete');
    expect(api.GetValue('cmi.success_status')).toBe('failed');
    expect(api.GetValue('cmi.score.scaled')).toBe('0.5');
    expect(api.GetValue('cmi.scaled_passing_score')).toBe('0.7');
  });

  it('a first launch starts ab initio with nothing saved', () => {
    expect(resumeCmi('scorm12', NOTHING, null)).toEqual({ core: { entry: 'ab-initio' } });
    const api = new Scorm2004API({ logLevel: 'NONE' });
    api.loadFromJSON(resumeCmi('scorm2004', NOTHING, null));
    api.Initialize('');
    expect(api.GetValue('cmi.entry')).toBe('ab-initio');
    expect(api.GetValue('cmi.location')).toBe('');
  });
});

describe('commits', () => {
  it('answer the SCO at once, and a commit the network lost goes again with the same reportId', async () => {
    const bodies: CommitBody[] = [];
    const send = vi.fn(async (_url: string, body: CommitBody) => {
      bodies.push(body);
      if (bodies.length === 1) throw networkDown();
      return { events: [], completed: false };
    });
    let id = 0;
    const committed = vi.fn();
    const commits = createCommitService({ registration: 'r-1', session: 's-1', send, newId: () => `id-${++id}`, wait: noWait, onCommitted: committed });
    const listeners = vi.fn();
    const answer = commits.service.processHttpRequest('/c', { cmi: { suspend_data: 'a' } }, false, () => {}, listeners);
    expect(answer).toEqual({ result: 'true', errorCode: 0 });
    await commits.settled();
    expect(bodies.map((b) => b.reportId)).toEqual(['id-1', 'id-1']);
    expect(bodies[0]).toEqual({ registration: 'r-1', session: 's-1', reportId: 'id-1', cmi: { cmi: { suspend_data: 'a' } } });
    expect(listeners).toHaveBeenCalledWith('CommitSuccess');
    expect(committed).toHaveBeenCalledTimes(1);
  });

  it('go one after another in order, each with its own id; a refused one is not sent again', async () => {
    const order: string[] = [];
    const send = vi.fn(async (_url: string, body: CommitBody) => {
      const n = (body.cmi as { n: number }).n;
      // The first takes longer: the second still waits for it.
      await new Promise((resolve) => setTimeout(resolve, n === 1 ? 20 : 0));
      order.push(`${n}:${body.reportId}`);
      if (n === 2) throw new ApiError(400, [{ code: '400', message: 'Podatki paketa niso veljavni.', field: 'cmi' }]);
      return {};
    });
    let id = 0;
    const failed = vi.fn();
    const commits = createCommitService({ registration: 'r', session: 's', send, newId: () => `id-${++id}`, wait: noWait, onFailed: failed });
    const listeners = vi.fn();
    for (const n of [1, 2, 3]) commits.service.processHttpRequest('/c', { n }, false, () => {}, listeners);
    await commits.settled();
    expect(order).toEqual(['1:id-1', '2:id-2', '3:id-3']);
    expect(failed).toHaveBeenCalledTimes(1);
    expect(listeners).toHaveBeenCalledWith('CommitError', undefined, 101);
  });

  it('give up after the last retry', async () => {
    const send = vi.fn(async () => {
      throw networkDown();
    });
    const failed = vi.fn();
    const commits = createCommitService({ registration: 'r', session: 's', send, wait: noWait, onFailed: failed });
    commits.service.processHttpRequest(
      '/c',
      {},
      false,
      () => {},
      () => {},
    );
    await commits.settled();
    expect(send).toHaveBeenCalledTimes(6);
    expect(failed).toHaveBeenCalledTimes(1);
  });

  it('a terminating commit, and every commit once the page goes away, is sent with keepalive', async () => {
    const keepalive: boolean[] = [];
    const commits = createCommitService({
      registration: 'r',
      session: 's',
      send: async (_url, _body, options) => {
        keepalive.push(options.keepalive);
      },
    });
    commits.service.processHttpRequest(
      '/c',
      {},
      false,
      () => {},
      () => {},
    );
    commits.service.processHttpRequest(
      '/c',
      {},
      true,
      () => {},
      () => {},
    );
    await commits.settled();
    commits.leave();
    commits.service.processHttpRequest(
      '/c',
      {},
      false,
      () => {},
      () => {},
    );
    await commits.settled();
    expect(keepalive).toEqual([false, true, true]);
  });

  it('carry what the SCO set, through scorm-again, to the commit URL', async () => {
    const sent: { url: string; body: CommitBody }[] = [];
    const commits = createCommitService({
      registration: 'r',
      session: 's',
      send: async (url, body) => {
        sent.push({ url, body });
      },
    });
    const api = new Scorm12API({ ...scormSettings('/user-courses/1/blocks/2/package/commit', commits.service), logLevel: 'NONE' });
    api.LMSInitialize('');
    api.LMSSetValue('cmi.core.score.raw', '80');
    api.LMSSetValue('cmi.core.score.max', '100');
    api.LMSSetValue('cmi.core.lesson_status', 'passed');
    expect(api.LMSCommit('')).toBe('true');
    await commits.settled();
    expect(sent).toHaveLength(1);
    expect(sent[0]?.url).toBe('/user-courses/1/blocks/2/package/commit');
    expect(progressOfCommit('scorm12', sent[0]?.body.cmi)).toEqual({ completion: 'completed', success: 'passed', score: 80, started: true });
    api.clearScheduledCommit();
  });
});

describe('progress of a commit', () => {
  it('reads SCORM 2004 completion, success and the scaled score', () => {
    expect(progressOfCommit('scorm2004', { cmi: { completion_status: 'completed', success_status: 'failed', score: { scaled: '0.5', raw: '50' } } })).toEqual({
      completion: 'completed',
      success: 'failed',
      score: 50,
      started: true,
    });
    expect(progressOfCommit('scorm2004', { cmi: { completion_status: 'incomplete', success_status: 'unknown', score: {} } })).toEqual({
      completion: 'incomplete',
      success: null,
      score: null,
      started: true,
    });
  });
});

describe('a SCORM session', () => {
  const launch: PackageLaunch = {
    standard: 'scorm12',
    registration: 'reg',
    session: 'ses',
    itemId: 'sco',
    url: 'http://content.test/p/t/__scorm/frame.html',
    contentOrigin: 'http://content.test',
    resume: LEFT_ON_PAGE_2,
  };

  it('commits on close what the SCO set since its last commit, and then answers no one', async () => {
    const sent: CommitBody[] = [];
    const progress = vi.fn();
    const session = await startScormSession({
      launch,
      commitUrl: '/c',
      masteryScore: 70,
      send: async (_url, body) => {
        sent.push(body);
        return { events: [], completed: false };
      },
      onCommitted: (_result, p) => progress(p),
    });
    const api = session.api as Scorm12APIType;
    api.LMSInitialize('');
    expect(api.LMSGetValue('cmi.core.lesson_location')).toBe('2');
    api.LMSSetValue('cmi.core.lesson_location', '3');
    await session.close();
    expect(sent).toHaveLength(1);
    expect(sent[0]?.cmi).toMatchObject({ cmi: { core: { lesson_location: '3' } } });
    expect(progress).toHaveBeenCalledWith({ completion: 'incomplete', success: null, score: null, started: true });
    // Closing again sends nothing more.
    await session.close();
    expect(sent).toHaveLength(1);
  });

  it('sends nothing on close when the SCO never initialised', async () => {
    const send = vi.fn();
    const session = await startScormSession({ launch, commitUrl: '/c', masteryScore: null, send });
    await session.close();
    expect(send).not.toHaveBeenCalled();
  });
});
