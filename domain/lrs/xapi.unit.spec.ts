import { describe, expect, it } from 'vitest';
import { agentKey, canonicalJson, comparableStatement, durationSeconds, isoDuration, summarise } from './xapi.ts';

describe('xAPI helpers', () => {
  it('keys an agent by its one identifier', () => {
    expect(agentKey({ mbox: 'mailto:Ana@Example.com' })).toBe('mbox:mailto:ana@example.com');
    expect(agentKey({ account: { homePage: 'https://p.si', name: '7' } })).toBe('account:https://p.si|7');
    expect(agentKey({ name: 'brez identifikatorja' })).toBeNull();
    expect(agentKey('niz')).toBeNull();
  });

  it('reads ISO 8601 durations and writes them back', () => {
    expect(durationSeconds('PT1M30.5S')).toBe(90.5);
    expect(durationSeconds('P1DT1H')).toBe(90_000);
    expect(durationSeconds('PT')).toBeNull();
    expect(durationSeconds('1 minuta')).toBeNull();
    expect(isoDuration(3725.25)).toBe('PT1H2M5.25S');
    expect(durationSeconds(isoDuration(42))).toBe(42);
  });

  it('compares statements whatever the order of their properties, ignoring what the LRS sets', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: 3 }] })).toBe('{"a":[{"c":3,"d":2}],"b":1}');
    const sent = { id: 'x', actor: { mbox: 'mailto:a@b.si' }, verb: { id: 'v' }, object: { id: 'o' } };
    expect(comparableStatement({ ...sent, stored: 's', authority: {}, version: '1.0.0', timestamp: 't' })).toBe(
      comparableStatement({ object: { id: 'o' }, verb: { id: 'v' }, actor: { mbox: 'mailto:a@b.si' } }),
    );
    expect(comparableStatement(sent)).not.toBe(comparableStatement({ ...sent, verb: { id: 'w' } }));
  });

  it('summarises what the LRS files a statement by', () => {
    const summary = summarise({
      actor: { mbox: 'mailto:a@b.si' },
      verb: { id: 'http://adlnet.gov/expapi/verbs/voided' },
      object: { objectType: 'StatementRef', id: 'abc' },
      context: { registration: 'ABC-1', extensions: { 'https://w3id.org/xapi/cmi5/context/extensions/sessionid': 's' } },
      result: { score: { scaled: 0.5 }, duration: 'PT2S' },
    });
    expect(summary).toEqual({
      verb: 'http://adlnet.gov/expapi/verbs/voided',
      actorKey: 'mbox:mailto:a@b.si',
      activityId: null,
      voids: 'abc',
      registration: 'abc-1',
      sessionId: 's',
      scaled: 0.5,
      durationSeconds: 2,
    });
  });
});
