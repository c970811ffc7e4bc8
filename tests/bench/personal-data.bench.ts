import { hkdfSync, randomBytes, randomUUID } from 'node:crypto';
import { createAesSecretSealer } from '../../infrastructure/auth/aes-secret-sealer.ts';
import { type AllPosition, type EventStore, START } from '../../infrastructure/event-store/event-store.port.ts';
import { EVENT_DEFINITIONS } from '../../infrastructure/main/event-definitions.ts';
import { createPostgresPersonalKeys } from '../../infrastructure/personal-data/postgres-personal-keys.ts';
import { createPersonalDataProtection, createProtectingEventStore } from '../../infrastructure/personal-data/protecting-event-store.ts';
import { createBenchDb, fmt } from './bench-support.ts';

const USERS = Number(process.env.BENCH_PERSONAL_USERS ?? 20_000);
const WRITERS = 32;
const PAGE = 1000;

const registered = (id: number) => ({
  eventId: randomUUID(),
  type: 'UserRegistered',
  data: {
    userId: id,
    username: `oseba${id}`,
    email: `oseba${id}@bench.si`,
    firstName: 'Ana',
    middleName: null,
    lastName: `Novak${id}`,
    phone: '041 000 000',
    professionId: null,
    passwordHash: null,
    origin: 'import',
    emailConfirmed: true,
    otherJob: null,
    licenceNumber: '12345',
    chamberMembershipNumber: null,
  },
  metadata: {},
});

/** Appends one registration per person from WRITERS loops; answers events per second. */
const append = async (store: EventStore, firstId: number) => {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: WRITERS }, async () => {
      while (next < USERS) {
        const id = firstId + next++;
        await store.append(`user-${id}`, [registered(id)], { expectedRevision: 'no_stream' });
      }
    }),
  );
  return USERS / ((performance.now() - started) / 1000);
};

/** A profile change of every person, who by now has a key (cached): the steady state of appends. */
const update = async (store: EventStore, firstId: number) => {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: WRITERS }, async () => {
      while (next < USERS) {
        const id = firstId + next++;
        const data = {
          firstName: 'Ana',
          middleName: null,
          lastName: `Kovač${id}`,
          phone: '041 111 222',
          professionId: null,
          otherJob: null,
          licenceNumber: '54321',
          chamberMembershipNumber: null,
        };
        await store.append(`user-${id}`, [{ eventId: randomUUID(), type: 'UserProfileUpdated', data, metadata: {} }], { expectedRevision: 'any' });
      }
    }),
  );
  return USERS / ((performance.now() - started) / 1000);
};

/** Reads the whole log as a projection catching up does, a page at a time; answers events per second. */
const readAll = async (store: EventStore) => {
  let from: AllPosition = START;
  let read = 0;
  const started = performance.now();
  for (;;) {
    const page = await store.readAll(from, PAGE);
    read += page.events.length;
    const last = page.events.at(-1);
    if (!last) break;
    from = last.position;
  }
  return { read, perSecond: read / ((performance.now() - started) / 1000) };
};

/**
 * What protecting people's data costs (decision 0019): the same registrations appended and read back
 * through the bare PostgreSQL store and through the protecting store (a key per person made on first
 * use, each personal field encrypted on append and decrypted on read), each in its own database of
 * the same server, in one run.
 */
export const benchPersonalData = async (adminUrl: string, out: (line: string) => void) => {
  const plainDb = await createBenchDb(adminUrl);
  const protectedDb = await createBenchDb(adminUrl);
  try {
    const secret = randomBytes(32).toString('base64url');
    const keys = createPostgresPersonalKeys(protectedDb.pg, createAesSecretSealer(secret));
    const protectedStore = createProtectingEventStore(
      protectedDb.store,
      createPersonalDataProtection({
        definitions: EVENT_DEFINITIONS,
        keys,
        streamKey: Buffer.from(hkdfSync('sha256', secret, 'medilearn', 'claim-stream-names-v1', 32)),
      }),
    );
    const plainAppend = await append(plainDb.store, 1);
    const protectedAppend = await append(protectedStore, 1);
    const plainUpdate = await update(plainDb.store, 1);
    const protectedUpdate = await update(protectedStore, 1);
    const plainRead = await readAll(plainDb.store);
    // A fresh process would start with no key cached: read with a cold cache, as a rebuild after a restart does.
    const coldStore = createProtectingEventStore(
      protectedDb.store,
      createPersonalDataProtection({
        definitions: EVENT_DEFINITIONS,
        keys: createPostgresPersonalKeys(protectedDb.pg, createAesSecretSealer(secret)),
        streamKey: Buffer.from(hkdfSync('sha256', secret, 'medilearn', 'claim-stream-names-v1', 32)),
      }),
    );
    const protectedRead = await readAll(coldStore);
    out(
      `${fmt(USERS)} UserRegistered events (9 personal fields each) and ${fmt(USERS)} UserProfileUpdated (7), ${WRITERS} writers; reads in pages of ${fmt(PAGE)} from the start of the log.`,
    );
    out('');
    out('| operation | bare store (baseline) | protecting store | ratio |');
    out('| --- | ---: | ---: | ---: |');
    out(
      `| append a new person's first event (a key made), events/s | ${fmt(plainAppend)} | ${fmt(protectedAppend)} | ${fmt(protectedAppend / plainAppend, 2)} |`,
    );
    out(
      `| append for people with a key (profile change), events/s | ${fmt(plainUpdate)} | ${fmt(protectedUpdate)} | ${fmt(protectedUpdate / plainUpdate, 2)} |`,
    );
    out(
      `| read all (catch-up), events/s | ${fmt(plainRead.perSecond)} | ${fmt(protectedRead.perSecond)} (cold key cache) | ${fmt(protectedRead.perSecond / plainRead.perSecond, 2)} |`,
    );
    if (plainRead.read !== 2 * USERS || protectedRead.read !== 2 * USERS)
      throw new Error(`read ${plainRead.read} and ${protectedRead.read} of ${USERS} events`);
  } finally {
    await plainDb.drop();
    await protectedDb.drop();
  }
};
