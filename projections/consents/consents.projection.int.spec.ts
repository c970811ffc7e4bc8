import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consentDecider } from '../../domain/consents/consent.decide.ts';
import { type ConsentEvent, evolveConsent, initialConsentState } from '../../domain/consents/consent.ts';
import { givenProjected, recorded } from '../../tests/support/projection-spec.ts';
import { createTestDatabase } from '../../tests/support/test-database.ts';
import { consentsProjection } from './consents.projection.ts';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** A user's consent events as the decider writes them (hash-chained), from commands at given times. */
const stream = (
  userId: number,
  steps: [string, { type: 'GiveConsents'; types: (1 | 2 | 3 | 4)[] } | { type: 'WithdrawConsent'; consentType: 1 | 2 | 3 | 4 }][],
) => {
  const events: ConsentEvent[] = [];
  for (const [at, step] of steps) {
    const base = {
      userId,
      origin: { channel: 'web' as const, ip: null, userAgent: null, onBehalfOf: null },
      meta: { now: new Date(at), actorId: userId },
      hash: sha256,
    };
    const command =
      step.type === 'GiveConsents'
        ? { ...base, type: 'GiveConsents' as const, consents: step.types.map((consentType) => ({ consentType, textVersion: '2026-01' })) }
        : { ...base, type: 'WithdrawConsent' as const, consentType: step.consentType };
    events.push(...consentDecider.decide(command, events.reduce(evolveConsent, initialConsentState)));
  }
  return events.map((e) => recorded(`consent-${userId}`, e.type, e.data));
};

describe('consents projection', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => db.drop());

  it('holds where each consent stands now, the same however often a batch is applied', async () => {
    const ana = stream(1, [
      ['2026-03-01T08:00:00Z', { type: 'GiveConsents', types: [1, 2, 3, 4] }],
      ['2026-03-10T08:00:00Z', { type: 'WithdrawConsent', consentType: 4 }],
      ['2026-03-20T08:00:00Z', { type: 'GiveConsents', types: [4] }],
      ['2026-03-25T08:00:00Z', { type: 'WithdrawConsent', consentType: 2 }],
    ]);
    const bojan = stream(2, [['2026-03-02T08:00:00Z', { type: 'GiveConsents', types: [1] }]]);
    const { rows } = await givenProjected(db, consentsProjection, [...ana, ...bojan]);
    expect(
      (await rows('user_consents', 'user_id, consent_type')).map((r) => [
        r.user_id,
        r.consent_type,
        r.given,
        r.sequence,
        new Date(r.at as string).toISOString(),
      ]),
    ).toEqual([
      [1, 1, true, 0, '2026-03-01T08:00:00.000Z'],
      [1, 2, false, 6, '2026-03-25T08:00:00.000Z'],
      [1, 3, true, 2, '2026-03-01T08:00:00.000Z'],
      [1, 4, true, 5, '2026-03-20T08:00:00.000Z'],
      [2, 1, true, 0, '2026-03-02T08:00:00.000Z'],
    ]);
  });

  it('does not let an older event delivered again undo a later one', async () => {
    const events = stream(3, [
      ['2026-03-01T08:00:00Z', { type: 'GiveConsents', types: [4] }],
      ['2026-03-10T08:00:00Z', { type: 'WithdrawConsent', consentType: 4 }],
    ]);
    const { rows } = await givenProjected(db, consentsProjection, [...events, events[0] as (typeof events)[number]]);
    expect((await rows('user_consents', 'user_id')).map((r) => [r.consent_type, r.given])).toEqual([[4, false]]);
  });
});
