import { createCommunityGroup, createCompany, createProfession, createUnit } from '../../application/organisation/create-organisation.ts';
import { registerUser } from '../../application/users/register-user.ts';
import type { RoleAssignment } from '../../domain/permissions/can.ts';
import { ROLE } from '../../domain/permissions/roles.ts';
import type { PasswordHasher } from '../auth/password-hasher.port.ts';
import type { EventStore } from '../event-store/event-store.port.ts';
import type { IdAllocator } from '../ids/id-allocator.port.ts';
import type { Log } from '../logging/log.port.ts';
import type { Database } from '../postgres/database.ts';

/** Only in demo data: every demo user's password. */
export const DEMO_PASSWORD = 'Demo1234!';

export const DEMO_LOGINS = [
  { username: 'admin', role: 'skrbnik (admin)' },
  { username: 'urednik', role: 'urednik (editor)' },
  { username: 'vodja', role: 'vodja enote (manager)' },
  { username: 'direktor', role: 'direktor podjetja (director, vse enote)' },
  { username: 'racunovodja', role: 'računovodja (accountant)' },
  { username: 'narocnik', role: 'naročnik (client)' },
  { username: 'udelezenec', role: 'udeleženec (participant)' },
] as const;

const SEED_LOCK = 7_340_003;

/**
 * Loads the demo organisation and users into an empty event store: a pharmacy chain with two
 * units, a community group, a few professions and one user per role. Returns false when the store
 * already holds events (demo data is never loaded twice, nor over real data).
 */
export const loadDemoData = async (deps: { store: EventStore; ids: IdAllocator; passwords: PasswordHasher; db: Database; log: Log }): Promise<boolean> => {
  const lock = await deps.db.connect();
  try {
    await lock.query('select pg_advisory_lock($1)', [SEED_LOCK]);
    if (await deps.store.headPosition()) return false;
    const meta = { actorId: null, correlationId: 'demo-data' };
    const { companyId } = await createCompany(deps, { name: 'Lekarne Zdravje d.o.o.', address: 'Dunajska cesta 100', city: 'Ljubljana', zip: '1000' }, meta);
    const { unitId: center } = await createUnit(deps, { companyId, name: 'Lekarna Center' }, meta);
    const { unitId: bezigrad } = await createUnit(deps, { companyId, name: 'Lekarna Bežigrad' }, meta);
    await createCommunityGroup(deps, { name: 'Ljubljanske lekarne', unitIds: [center, bezigrad] }, meta);
    const { professionId: pharmacist } = await createProfession(deps, { name: 'Magister farmacije', needsLicenceNumber: true }, meta);
    await createProfession(deps, { name: 'Farmacevtski tehnik', needsLicenceNumber: false }, meta);
    await createProfession(deps, { name: 'Zdravnik', needsLicenceNumber: true }, meta);
    await createProfession(deps, { name: 'Medicinska sestra', needsLicenceNumber: false }, meta);
    await createProfession(deps, { name: 'Zobozdravnik', needsLicenceNumber: true }, meta);

    const people: { username: string; firstName: string; lastName: string; professionId: number | null; roles: RoleAssignment[] }[] = [
      { username: 'admin', firstName: 'Ana', lastName: 'Skrbnik', professionId: null, roles: [{ roleId: ROLE.admin, unitId: 0, companyId: null }] },
      { username: 'urednik', firstName: 'Urban', lastName: 'Urednik', professionId: null, roles: [{ roleId: ROLE.editor, unitId: 0, companyId: null }] },
      { username: 'vodja', firstName: 'Vesna', lastName: 'Vodja', professionId: pharmacist, roles: [{ roleId: ROLE.manager, unitId: center, companyId }] },
      { username: 'direktor', firstName: 'Dušan', lastName: 'Direktor', professionId: null, roles: [{ roleId: ROLE.director, unitId: 0, companyId }] },
      {
        username: 'racunovodja',
        firstName: 'Rok',
        lastName: 'Računovodja',
        professionId: null,
        roles: [{ roleId: ROLE.accountant, unitId: center, companyId }],
      },
      { username: 'narocnik', firstName: 'Nina', lastName: 'Naročnik', professionId: null, roles: [{ roleId: ROLE.client, unitId: center, companyId }] },
      {
        username: 'udelezenec',
        firstName: 'Urška',
        lastName: 'Udeleženec',
        professionId: pharmacist,
        roles: [{ roleId: ROLE.participant, unitId: center, companyId }],
      },
    ];
    for (const person of people) {
      await registerUser(
        deps,
        {
          username: person.username,
          email: `${person.username}@demo.si`,
          firstName: person.firstName,
          lastName: person.lastName,
          professionId: person.professionId,
          password: DEMO_PASSWORD,
        },
        person.roles,
        meta,
      );
    }
    deps.log.info({ users: people.length }, 'demo data loaded');
    return true;
  } finally {
    await lock.query('select pg_advisory_unlock($1)', [SEED_LOCK]).catch(() => undefined);
    await lock.end();
  }
};
