import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../../tests/support/decider-spec.ts';
import { type ConsentCommand, type ConsentOrigin, consentDecider } from './consent.decide.ts';
import { type ConsentEvent, consentsAsOf, evolveConsent, GENESIS_HASH, holds, initialConsentState } from './consent.ts';
import { canonicalJson, verifyConsentChain } from './consent-chain.ts';
import { mayContact } from './contact.ts';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const web: ConsentOrigin = { channel: 'web', ip: '192.0.2.7', userAgent: 'Firefox', onBehalfOf: null };
const V = '2026-01';

/** Runs commands one after another through the decider, as the command handler does, at the given times. */
const history = (...steps: [string, Omit<ConsentCommand, 'userId' | 'origin' | 'meta' | 'hash'> & Partial<Pick<ConsentCommand, 'origin'>>][]) => {
  const events: ConsentEvent[] = [];
  for (const [at, step] of steps) {
    const state = events.reduce(evolveConsent, initialConsentState);
    const command = { userId: 7, origin: web, meta: { now: new Date(at), actorId: 7 }, hash: sha256, ...step } as ConsentCommand;
    events.push(...consentDecider.decide(command, state));
  }
  return events;
};

const give = (...types: (1 | 2 | 3 | 4)[]) => ({ type: 'GiveConsents' as const, consents: types.map((consentType) => ({ consentType, textVersion: V })) });
const withdraw = (consentType: 1 | 2 | 3 | 4) => ({ type: 'WithdrawConsent' as const, consentType });

describe('consent decider', () => {
  it('records each type given, with text version, time, channel, IP and user agent, chained from the genesis hash', () => {
    const events = history(['2026-03-01T08:00:00Z', give(1, 2)]);
    expect(events.map((e) => [e.type, e.data.consentType, e.data.sequence])).toEqual([
      ['ConsentGiven', 1, 0],
      ['ConsentGiven', 2, 1],
    ]);
    expect(events[0]?.data).toMatchObject({
      textVersion: V,
      at: '2026-03-01T08:00:00.000Z',
      channel: 'web',
      ip: '192.0.2.7',
      userAgent: 'Firefox',
      onBehalfOf: null,
    });
    expect(events[0]?.data.previousHash).toBe(GENESIS_HASH);
    expect(events[1]?.data.previousHash).toBe(events[0]?.data.hash);
  });

  it('skips types already given for the same text, and a type listed twice', () => {
    const events = history(['2026-03-01T08:00:00Z', give(1)], ['2026-03-02T08:00:00Z', give(1, 2, 2)]);
    expect(events.map((e) => e.data.consentType)).toEqual([1, 2]);
  });

  it('refuses a text version that is not the current one (the page showed an old text)', () => {
    deciderSpec(consentDecider)
      .given([])
      .when({
        type: 'GiveConsents',
        consents: [{ consentType: 1, textVersion: '2020-01' }],
        userId: 7,
        origin: web,
        meta: { now: new Date(), actorId: 7 },
        hash: sha256,
      })
      .thenFails('422', 'Besedilo privolitve je bilo medtem posodobljeno. Osvežite stran in preberite novo besedilo.');
  });

  it('withdraws only what is given', () => {
    deciderSpec(consentDecider)
      .given([])
      .when({ type: 'WithdrawConsent', consentType: 4, userId: 7, origin: web, meta: { now: new Date(), actorId: 7 }, hash: sha256 })
      .thenFails('422', 'Te privolitve nimate dane, zato je ni mogoče preklicati.');
    const events = history(['2026-03-01T08:00:00Z', give(4)], ['2026-03-05T08:00:00Z', withdraw(4)]);
    expect(events.map((e) => e.type)).toEqual(['ConsentGiven', 'ConsentWithdrawn']);
    expect(holds(events.reduce(evolveConsent, initialConsentState), 4)).toBe(false);
  });

  it("records an admin's entry on the user's behalf with the note", () => {
    const origin: ConsentOrigin = { channel: 'admin', ip: '10.0.0.1', userAgent: null, onBehalfOf: { adminId: 1, note: 'Pisna privolitev z dne 3. 3. 2026' } };
    const [event] = history(['2026-03-03T10:00:00Z', { ...give(3), origin }]);
    expect(event?.data).toMatchObject({ channel: 'admin', onBehalfOf: { adminId: 1, note: 'Pisna privolitev z dne 3. 3. 2026' } });
  });
});

describe('consents as of a date, replayed from a hand-built history', () => {
  // Given on 1 March, withdrawn on 10 March, given again on 20 March (type 4); types 1-3 given on 1 March.
  const events = history(['2026-03-01T08:00:00Z', give(1, 2, 3, 4)], ['2026-03-10T12:00:00Z', withdraw(4)], ['2026-03-20T09:30:00Z', give(4)]);
  const at = (iso: string) => consentsAsOf(events, new Date(iso));

  it('knows nothing before the first consent', () => {
    expect(at('2026-02-28T23:59:59Z').standings).toEqual({});
  });

  it('holds what was given, from the very instant it was recorded', () => {
    expect(holds(at('2026-03-01T08:00:00Z'), 4)).toBe(true);
    expect(holds(at('2026-03-09T00:00:00Z'), 4)).toBe(true);
  });

  it('shows the withdrawal between the withdrawal and the renewed consent', () => {
    const state = at('2026-03-15T00:00:00Z');
    expect(state.standings[4]).toMatchObject({ given: false, at: '2026-03-10T12:00:00.000Z' });
    expect(holds(state, 1)).toBe(true);
  });

  it('holds it again after it was given again', () => {
    expect(at('2026-03-20T09:30:00Z').standings[4]).toMatchObject({ given: true, at: '2026-03-20T09:30:00.000Z' });
  });

  it('answers "may we contact" per channel and time from the same history', () => {
    expect(mayContact(events, 'newsletter', new Date('2026-03-05T00:00:00Z'))).toEqual({ allowed: true, missing: [] });
    expect(mayContact(events, 'push', new Date('2026-03-15T00:00:00Z'))).toEqual({ allowed: false, missing: [4] });
    expect(mayContact(events, 'email', new Date('2026-02-01T00:00:00Z'))).toEqual({ allowed: false, missing: [1, 4] });
    expect(mayContact(events, 'email', new Date('2026-04-01T00:00:00Z')).allowed).toBe(true);
  });
});

describe('consent chain verification', () => {
  const events = history(['2026-03-01T08:00:00Z', give(1, 2, 3, 4)], ['2026-03-10T12:00:00Z', withdraw(4)]);
  const stored = () => events.map((e) => ({ type: e.type, data: JSON.parse(JSON.stringify(e.data)) as Record<string, unknown> }));

  it('accepts the chain as written, whatever the key order of the stored data', () => {
    const reordered = stored().map((e) => ({ ...e, data: Object.fromEntries(Object.entries(e.data).reverse()) }));
    expect(verifyConsentChain(sha256, 7, reordered)).toEqual({ valid: true, checked: 5 });
  });

  it('finds an altered field at its event', () => {
    const altered = stored();
    (altered[4] as { data: Record<string, unknown> }).data.at = '2026-03-25T12:00:00.000Z';
    expect(verifyConsentChain(sha256, 7, altered)).toMatchObject({ valid: false, broken: { index: 4, reason: 'hash' } });
  });

  it('finds a changed event type (a withdrawal turned into a consent)', () => {
    const altered = stored();
    (altered[4] as { type: string }).type = 'ConsentGiven';
    expect(verifyConsentChain(sha256, 7, altered)).toMatchObject({ valid: false, broken: { index: 4, reason: 'hash' } });
  });

  it('finds a removed event, and an event rehashed by a forger, at the event after it', () => {
    const removed = stored().filter((_, i) => i !== 2);
    expect(verifyConsentChain(sha256, 7, removed)).toMatchObject({ valid: false, broken: { index: 2, reason: 'sequence' } });
    const forged = stored();
    const target = (forged[1] as { data: Record<string, unknown> }).data;
    target.textVersion = '2025-01';
    const { hash: _, ...rest } = target;
    target.hash = sha256(canonicalJson({ stream: 'consent-7', type: 'ConsentGiven', data: rest }));
    expect(verifyConsentChain(sha256, 7, forged)).toMatchObject({ valid: false, broken: { index: 2, reason: 'link' } });
  });

  it("does not accept one user's events as another's", () => {
    expect(verifyConsentChain(sha256, 8, stored())).toMatchObject({ valid: false, broken: { index: 0, reason: 'hash' } });
  });
});
