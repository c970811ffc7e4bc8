// The courses bench's seed appended to the event store (courses.bench.ts; the soak seeds a smaller
// one): companies, units and professions, participants with their role and required consents, the
// statistics' admin, the published courses, and the enrollment journeys interleaved as over weeks.

import type pg from 'pg';
import { sha256 } from '../../application/consents/consent-hash.ts';
import { consentDecider } from '../../domain/consents/consent.decide.ts';
import { CONSENT_TEXTS } from '../../domain/consents/consent.rules.ts';
import { consentStream, initialConsentState } from '../../domain/consents/consent.ts';
import { type EventStore, newEventId } from '../../infrastructure/event-store/event-store.port.ts';
import { buildSeed, COURSES_BENCH_SIZES, courseBlocks, courseFields, type Fact, mayPrescribe, random, type SeedSizes, shuffled } from './courses-seed.ts';

/** The admin who reads the statistics (user id outside the participants'). */
export const ADMIN_ID = 900_000;

/** Appends through the store (which validates every event against its zod schema), 512 appends at a time. */
const appendAll = async (store: EventStore, appends: readonly { stream: string; expected: bigint | 'no_stream'; facts: Fact[]; actorId?: number }[]) => {
  let next = 0;
  await Promise.all(
    Array.from({ length: 512 }, async () => {
      while (next < appends.length) {
        const a = appends[next++] as (typeof appends)[number];
        const events = a.facts.map((f) => ({ eventId: newEventId(), type: f.type, data: f.data, metadata: a.actorId ? { actorId: a.actorId } : {} }));
        await store.append(a.stream, events, { expectedRevision: a.expected });
      }
    }),
  );
};

/**
 * Builds the seed and appends it; returns what the load needs. The journeys (a million events'
 * worth of objects) are dropped on return: kept, they would make every major garbage collection
 * of the server, which runs in this process, mark them again.
 */
export const seedStore = async (store: EventStore, total: number, sizes: SeedSizes = COURSES_BENCH_SIZES) => {
  const { companies: COMPANIES, unitsPerCompany: UNITS_PER_COMPANY, professions: PROFESSIONS } = sizes;
  const seed = buildSeed(total, sizes);
  const company = (companyId: number) => ({
    stream: `company-${companyId}`,
    expected: 'no_stream' as const,
    facts: [
      {
        type: 'CompanyCreated',
        data: {
          companyId,
          name: `Lekarne ${companyId}`,
          address: 'Cesta 1',
          city: 'Ljubljana',
          zip: '1000',
          region: null,
          tagId: null,
          vat: null,
          parentCompanyId: null,
          externalId: null,
          syncDestination: null,
          financial: { iban: null, swift: null, billingEmail: null },
        },
      },
    ],
  });
  const unit = (unitId: number) => ({
    stream: `unit-${unitId}`,
    expected: 'no_stream' as const,
    facts: [{ type: 'UnitCreated', data: { unitId, companyId: 1 + Math.floor((unitId - 1) / UNITS_PER_COMPANY), name: `Enota ${unitId}`, tagId: null } }],
  });
  const profession = (professionId: number) => ({
    stream: `profession-${professionId}`,
    expected: 'no_stream' as const,
    facts: [
      {
        type: 'ProfessionCreated',
        data: { professionId, name: `Poklic ${professionId}`, groupId: null, needsLicenceNumber: false, mayPrescribe: mayPrescribe(professionId) },
      },
    ],
  });
  await appendAll(store, [
    ...Array.from({ length: COMPANIES }, (_, i) => company(i + 1)),
    ...Array.from({ length: COMPANIES * UNITS_PER_COMPANY }, (_, i) => unit(i + 1)),
    ...Array.from({ length: PROFESSIONS }, (_, i) => profession(i + 1)),
  ]);
  await appendAll(
    store,
    seed.participants.map((p) => ({
      stream: `user-${p.id}`,
      expected: 'no_stream' as const,
      facts: [
        {
          type: 'UserRegistered',
          data: {
            userId: p.id,
            username: `u${p.id}`,
            email: `u${p.id}@bench.si`,
            firstName: 'Ana',
            middleName: null,
            lastName: `Novak ${p.id}`,
            phone: null,
            professionId: p.profession,
            passwordHash: null,
          },
        },
        { type: 'UserRoleGranted', data: { roleId: 10, unitId: p.unit, companyId: p.company } },
      ],
    })),
  );
  // Every participant holds the required consents (issue 6), as a user of the platform must.
  const required = CONSENT_TEXTS.filter((t) => t.required).map((t) => ({ consentType: t.type, textVersion: t.version }));
  const consents = (userId: number) => ({
    stream: consentStream(userId),
    expected: 'no_stream' as const,
    facts: consentDecider.decide(
      {
        type: 'GiveConsents',
        consents: required,
        userId,
        origin: { channel: 'import', ip: null, userAgent: null, onBehalfOf: null },
        meta: { now: new Date(), actorId: null },
        hash: sha256,
      },
      initialConsentState,
    ),
  });
  await appendAll(
    store,
    seed.participants.map((p) => consents(p.id)),
  );
  // The admin who reads the statistics (issue 7 rows), with the required consents.
  await appendAll(store, [
    {
      stream: `user-${ADMIN_ID}`,
      expected: 'no_stream' as const,
      facts: [
        {
          type: 'UserRegistered',
          data: {
            userId: ADMIN_ID,
            username: 'skrbnik',
            email: 'skrbnik@bench.si',
            firstName: 'Ana',
            middleName: null,
            lastName: 'Skrbnik',
            phone: null,
            professionId: null,
            passwordHash: null,
          },
        },
        { type: 'UserRoleGranted', data: { roleId: 1, unitId: 0, companyId: null } },
      ],
    },
    consents(ADMIN_ID),
  ]);
  await appendAll(
    store,
    seed.courses.map((c) => ({
      stream: `course-${c.id}`,
      expected: 'no_stream' as const,
      facts: [
        { type: 'CourseCreated', data: { courseId: c.id, fields: courseFields(c.id, c.audience) } },
        ...courseBlocks(c.blocks).map((b, position) => ({ type: 'CourseBlockAdded', data: { ...b, position } })),
        { type: 'CoursePublished', data: {} },
      ],
    })),
  );
  // The sittings of all journeys: first sittings in a shuffled order, then second ones, then third
  // ones, so the enrollment streams interleave in $all as they would over weeks.
  const rnd = random(7);
  for (let sitting = 0; sitting < 3; sitting++) {
    const round = shuffled(
      seed.enrollments.filter((e) => e.sessions[sitting]),
      rnd,
    );
    await appendAll(
      store,
      round.map((e) => ({
        stream: `enrollment-${e.courseId}_${e.userId}`,
        expected: sitting === 0 ? ('no_stream' as const) : BigInt(e.sessions.slice(0, sitting).reduce((n, s) => n + s.length, 0) - 1),
        facts: e.sessions[sitting] as Fact[],
        actorId: e.userId,
      })),
    );
  }
  const { participants, seen, started, expected } = seed;
  return { participants, courses: seed.courses, seen, started, expected };
};

type JourneyCounts = { enrollments: number; completed: number; certificates: number; attempts: number };

/** After the catch-up, the read model holds every seeded journey once (enrollments, completions, certificates, quiz attempts), or the bench stops; its counts. */
export const checkReadModelHoldsSeed = async (pool: pg.Pool, expected: JourneyCounts) => {
  const actual = (
    await pool.query<JourneyCounts>(`
      select (select count(*) from rm.enrollments)::int as enrollments,
             (select count(*) from rm.enrollments where status = 'completed')::int as completed,
             (select count(certificate_id) from rm.enrollments)::int as certificates,
             (select sum(quiz_attempts) from rm.course_records)::int as attempts`)
  ).rows[0];
  if (JSON.stringify(actual) !== JSON.stringify(expected)) throw new Error(`read model differs: ${JSON.stringify({ actual, expected })}`);
  return actual as JourneyCounts;
};
