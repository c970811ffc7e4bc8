import { giveRequiredConsents } from '../../application/consents/consents.ts';
import { type AcademiesDeps, changeAcademy, createAcademy } from '../../application/courses/academies.ts';
import { addBlock, changeCourse, createCourse } from '../../application/courses/author-courses.ts';
import type { CoursesDeps } from '../../application/courses/courses.deps.ts';
import { createPost, moderatePost, type PostsDeps, replyAsTeam } from '../../application/courses/posts.ts';
import { createNews } from '../../application/news/news.ts';
import { createNewsletter } from '../../application/newsletters/newsletters.ts';
import { createCommunityGroup } from '../../application/organisation/community-groups.ts';
import { createCompany } from '../../application/organisation/companies.ts';
import type { OrganisationDeps } from '../../application/organisation/organisation.deps.ts';
import { createProfession, createProfessionGroup } from '../../application/organisation/professions.ts';
import { createTag } from '../../application/organisation/tags.ts';
import { changeUnit, createUnit } from '../../application/organisation/units.ts';
import { registerUser } from '../../application/users/register-user.ts';
import { academyRule } from '../../domain/courses/academy.rules.ts';
import { blockRule, courseRule } from '../../domain/courses/course.rules.ts';
import { courseCostsRule } from '../../domain/courses/course-costs.rules.ts';
import { newsRule } from '../../domain/news/news.rules.ts';
import { newsletterRule } from '../../domain/newsletters/newsletter.rules.ts';
import { CHAMBER_NUMBER_SPECIALTIES } from '../../domain/organisation/specialties.ts';
import type { RoleAssignment } from '../../domain/permissions/can.ts';
import { ROLE } from '../../domain/permissions/roles.ts';
import type { FeatureFlags } from '../../domain/shared/features.ts';
import type { PasswordHasher } from '../auth/password-hasher.port.ts';
import type { AllPosition, EventStore } from '../event-store/event-store.port.ts';
import type { IdAllocator } from '../ids/id-allocator.port.ts';
import type { Log } from '../logging/log.port.ts';
import type { Database } from '../postgres/database.ts';
import { loadDemoApprovals } from './demo-approvals.ts';
import { demoNews } from './demo-news.ts';

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
  { username: 'nov', role: 'nov udeleženec brez privolitev (vidi /pogoji)' },
  { username: 'lekarnar', role: 'udeleženec v enoti Lekarna Bežigrad' },
  { username: 'revizor', role: 'revizor (zgodovina privolitev, samo branje)' },
  // Issue 36: the approvers of the pharmacy chain's courses (medical, legal, regulatory review).
  { username: 'medicina', role: 'odobritelj, medicinski pregled' },
  { username: 'pravo', role: 'odobritelj, pravni pregled (čaka ga izobraževanje)' },
  { username: 'regulativa', role: 'odobritelj, regulatorni pregled (čaka ga izobraževanje)' },
] as const;

const SEED_LOCK = 7_340_003;

/**
 * Loads the demo organisation and users into an empty event store: a pharmacy chain with two
 * units, a community group, a few professions and one user per role. Returns false when the store
 * already holds events (demo data is never loaded twice, nor over real data).
 */
export const loadDemoData = async (deps: {
  store: EventStore;
  ids: IdAllocator;
  passwords: PasswordHasher;
  db: Database;
  log: Log;
  /** Waits until the read models have applied a write (the references of later steps are checked there). */
  settle: (position: AllPosition | null) => Promise<void>;
  features: FeatureFlags;
}): Promise<boolean> => {
  const lock = await deps.db.connect();
  try {
    await lock.query('select pg_advisory_lock($1)', [SEED_LOCK]);
    if (await deps.store.headPosition()) return false;
    const meta = { actorId: null, correlationId: 'demo-data' };
    const org: OrganisationDeps = { store: deps.store, ids: deps.ids, db: deps.db.slonik };
    const step = async <T extends { position: AllPosition | null }>(result: Promise<T>) => {
      const done = await result;
      await deps.settle(done.position);
      return done;
    };
    const { id: pharmacyTag } = await step(createTag(org, 'company', { name: 'Lekarna', internalUse: false }, meta));
    await step(createTag(org, 'company', { name: 'Bolnišnica', internalUse: false }, meta));
    const { id: publicPharmacy } = await step(createTag(org, 'unit', { name: 'Javna lekarna', internalUse: false }, meta));
    await step(createTag(org, 'profession', { name: 'Zdravstveni delavci', internalUse: true }, meta));
    await step(createTag(org, 'course', { name: 'Farmakoterapija', internalUse: false }, meta));
    const { id: companyId } = await step(
      createCompany(
        org,
        {
          name: 'Lekarne Zdravje d.o.o.',
          address: 'Dunajska cesta 100',
          city: 'Ljubljana',
          zip: '1000',
          region: 'Osrednjeslovenska',
          tagId: pharmacyTag,
          vat: 'SI12345678',
          parentCompanyId: null,
          externalId: null,
          syncDestination: 1,
          financial: { iban: 'SI56 0110 0100 0012 345', swift: null, billingEmail: 'racuni@zdravje.si' },
        },
        meta,
      ),
    );
    const address = (street: string) => ({
      address: street,
      city: 'Ljubljana',
      zip: '1000',
      region: 'Osrednjeslovenska',
      vat: null,
      externalId: null,
      syncDestination: null,
    });
    const { id: center } = await step(createUnit(org, { companyId, name: 'Lekarna Center', tagId: publicPharmacy, ...address('Slovenska cesta 10') }, meta));
    const { id: bezigrad } = await step(createUnit(org, { companyId, name: 'Lekarna Bežigrad', tagId: publicPharmacy, ...address('Dunajska cesta 50') }, meta));
    await step(changeUnit(org, center, { type: 'PublishUnit' }, meta));
    await step(changeUnit(org, bezigrad, { type: 'PublishUnit' }, meta));
    await step(createCommunityGroup(org, { name: 'Ljubljanske lekarne', unitIds: [center, bezigrad] }, meta));
    const { id: pharmacy } = await step(createProfessionGroup(org, 'Farmacija', meta));
    const { id: medicine } = await step(createProfessionGroup(org, 'Medicina', meta));
    const { id: nursing } = await step(createProfessionGroup(org, 'Zdravstvena nega', meta));
    // Credit points go to the profession's chamber (issue 32 item 4): 1 pharmacists, 2 doctors and dentists, 3 nurses.
    // Doctors, dentists, pharmacists (and the medical specialties) may prescribe or supply medicines: they receive RX courses (issue 36).
    const profession = (name: string, groupId: number, needsLicenceNumber: boolean, chamber: 1 | 2 | 3, needsChamberNumber = false, mayPrescribe = false) =>
      step(createProfession(org, { name, groupId, needsLicenceNumber, needsChamberNumber, chamber, mayPrescribe }, meta));
    const { id: pharmacist } = await profession('Magister farmacije', pharmacy, true, 1, false, true);
    await profession('Farmacevtski tehnik', pharmacy, false, 1);
    const { id: doctor } = await profession('Zdravnik', medicine, true, 2, false, true);
    await profession('Medicinska sestra', nursing, false, 3);
    await profession('Zobozdravnik', medicine, true, 2, false, true);
    // spec §5: the medical and dental specialties also ask for a chamber membership number.
    for (const name of CHAMBER_NUMBER_SPECIALTIES) await profession(name, medicine, true, 2, true, true);

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
      // Issue 6: a participant who holds no consent yet, so the /pogoji flow can be seen, and an auditor.
      { username: 'nov', firstName: 'Nejc', lastName: 'Novak', professionId: pharmacist, roles: [{ roleId: ROLE.participant, unitId: center, companyId }] },
      // A participant of the other unit, outside what is targeted at Lekarna Center.
      {
        username: 'lekarnar',
        firstName: 'Luka',
        lastName: 'Lekarnar',
        professionId: pharmacist,
        roles: [{ roleId: ROLE.participant, unitId: bezigrad, companyId }],
      },
      { username: 'revizor', firstName: 'Renata', lastName: 'Revizor', professionId: null, roles: [{ roleId: ROLE.auditor, unitId: 0, companyId: null }] },
    ];
    const userIds = new Map<string, number>();
    for (const person of people) {
      const { userId } = await registerUser(
        deps,
        {
          username: person.username,
          email: `${person.username}@demo.si`,
          firstName: person.firstName,
          lastName: person.lastName,
          professionId: person.professionId,
          // spec §5 asks for a phone: the demo people have one, so saving their profile just works.
          phone: `041 000 ${String(100 + userIds.size).padStart(3, '0')}`,
          password: DEMO_PASSWORD,
          // Every demo pharmacist holds a licence number (spec §5), so none is sent to fill it in.
          licenceNumber: person.professionId === pharmacist ? '10001' : null,
        },
        person.roles,
        meta,
      );
      userIds.set(person.username, userId);
      if (person.username !== 'nov') await step(giveRequiredConsents({ store: deps.store, now: () => new Date() }, userId, 'import', meta));
    }
    const subjectOf = (username: string) => ({ userId: userIds.get(username) ?? 0, roles: people.find((p) => p.username === username)?.roles ?? [] });
    const courses: CoursesDeps = { store: deps.store, ids: deps.ids, db: deps.db.slonik, now: () => new Date(), features: deps.features };
    const course = async (fields: unknown, blocks: object[], costs?: object) => {
      const { id } = await step(createCourse(courses, courseRule.parse(fields), meta));
      for (const block of blocks) await step(addBlock(courses, id, blockRule.parse(block), undefined, meta));
      // Costs are set before publishing: they cannot be changed while the course is active (spec §4).
      if (costs) await step(changeCourse(courses, id, { type: 'SetCosts', costs: courseCostsRule.parse(costs), now: new Date() }, meta));
      await step(changeCourse(courses, id, { type: 'PublishCourse' }, meta));
      return id;
    };
    // A cover as an author would upload one: the hue into a dark shade with soft circles (issue 33: not a flat block).
    const cover = (hue: string, label: string) =>
      `data:image/svg+xml;utf8,${encodeURIComponent(
        `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 640 360"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${hue}"/><stop offset="1" stop-color="#102a43"/></linearGradient></defs><rect width="640" height="360" fill="url(#g)"/><g fill="#fff" fill-opacity="0.08"><circle cx="560" cy="60" r="170"/><circle cx="640" cy="330" r="120"/></g><text x="40" y="200" font-family="sans-serif" font-size="44" font-weight="600" fill="#fff">${label}</text></svg>`,
      )}`;
    const days = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString();
    const interactions = await course(
      {
        type: 4,
        title: 'Interakcije zdravil v lekarni',
        description: 'Najpogostejše klinično pomembne interakcije zdravil in kako jih prepoznamo pri izdaji.',
        cover: cover('#0b6e69', 'Interakcije zdravil'),
        creditPoints: 2,
        durationMinutes: 45,
        audience: { companyIds: [companyId] },
        postsEnabled: true,
        lecturer: 'mag. farm. Maja Kovač',
      },
      [
        {
          kind: 'video',
          name: 'Uvodno predavanje',
          fileUrl: '/media/uvod.webm',
          durationSeconds: 8,
          alternative: { kind: 'article', html: '<p>Prepis predavanja: interakcije delimo na farmakokinetične in farmakodinamične.</p>' },
        },
        {
          kind: 'quiz',
          name: 'Preverjanje znanja',
          batchSize: 1,
          successThreshold: 100,
          retries: 2,
          questions: [
            {
              id: 'q1',
              text: 'Kateri sok zavira CYP3A4 in zviša koncentracijo nekaterih statinov?',
              answers: [
                { id: 'a', text: 'Grenivkin sok', correct: true },
                { id: 'b', text: 'Jabolčni sok' },
                { id: 'c', text: 'Pomarančni sok' },
              ],
            },
            {
              id: 'q2',
              text: 'Katera kombinacija poveča tveganje za krvavitve?',
              answers: [
                { id: 'a', text: 'Varfarin in paracetamol v nizkih odmerkih' },
                { id: 'b', text: 'Varfarin in NSAR', correct: true },
              ],
            },
          ],
        },
        {
          kind: 'nps',
          name: 'Vaše mnenje',
          question: 'Kako verjetno je, da bi to izobraževanje priporočili sodelavcu?',
          set: 1,
          reasons: {
            detractor: ['Predolgo', 'Premalo praktičnih primerov'],
            neutral: ['Vsebina je bila znana'],
            promoter: ['Uporabno za delo', 'Jasna razlaga'],
          },
          commentEnabled: true,
          followUps: [{ professionGroupId: null, question: 'Kje delate?', answers: ['Javna lekarna', 'Bolnišnična lekarna', 'Drugo'] }],
        },
        { kind: 'points', name: 'Kreditne točke', points: 2 },
      ],
      // Billed to the demo company: its accountant (racunovodja) reads these costs.
      { companyId, discount: 10, comment: 'Letna pogodba 2026' },
    );
    const colds = await course(
      {
        type: 2,
        title: 'Samozdravljenje prehlada',
        description: 'Svetovanje pri izbiri zdravil brez recepta za lajšanje simptomov prehlada.',
        cover: cover('#1c7ed6', 'Samozdravljenje'),
        creditPoints: 1,
        durationMinutes: 20,
        public: true,
      },
      [
        {
          kind: 'article',
          name: 'Kratek pregled',
          html: '<h3>Simptomi</h3><p>Prehlad običajno mine v 7 do 10 dneh. Svetujemo počitek, tekočino in simptomatsko zdravljenje.</p>',
        },
        {
          kind: 'quiz',
          name: 'Kratek kviz',
          batchSize: 1,
          successThreshold: 100,
          retries: 3,
          questions: [
            {
              id: 'q1',
              text: 'Ali antibiotiki pomagajo pri prehladu?',
              answers: [
                { id: 'a', text: 'Ne', correct: true },
                { id: 'b', text: 'Da' },
              ],
            },
          ],
        },
      ],
    );
    await course(
      {
        type: 3,
        title: 'Nova zdravila za sladkorno bolezen',
        description: 'Pregled novih skupin zdravil za zdravljenje sladkorne bolezni tipa 2 (GLP-1, SGLT2).',
        cover: cover('#7048e8', 'Sladkorna bolezen'),
        creditPoints: 1.5,
        durationMinutes: 60,
        audience: { companyIds: [companyId] },
        intervals: [{ startsAt: days(30), stopsAt: days(90) }],
      },
      [{ kind: 'article', name: 'Uvod', html: '<p>Izobraževanje se začne v kratkem.</p>' }],
    );
    // An RX course (issue 36): only pharmacists and doctors see it (udelezenec does; a nurse would not).
    await course(
      {
        type: 1,
        title: 'Neposredni peroralni antikoagulanti v praksi',
        description: 'Odmerjanje, interakcije in svetovanje bolnikom, ki jemljejo neposredne peroralne antikoagulante (zdravila na recept).',
        cover: cover('#c92a2a', 'Antikoagulanti'),
        creditPoints: 1,
        durationMinutes: 30,
        audience: { byProfession: true, professionIds: [pharmacist, doctor] },
      },
      [{ kind: 'article', name: 'Odmerjanje', html: '<p>Odmerek prilagodimo ledvičnemu delovanju in starosti bolnika.</p>' }],
    );
    const academies: AcademiesDeps = { store: deps.store, ids: deps.ids, db: deps.db.slonik };
    const { id: academyId } = await step(
      createAcademy(
        academies,
        academyRule.parse({
          title: 'Akademija lekarniške prakse',
          description: 'Serija izobraževanj za vsakdanje delo v lekarni: interakcije zdravil in samozdravljenje.',
          cover: cover('#2b8a3e', 'Akademija'),
          courseIds: [interactions, colds],
        }),
        meta,
      ),
    );
    await step(changeAcademy(academies, academyId, { type: 'PublishAcademy' }, meta));
    const posts: PostsDeps = { store: deps.store, ids: deps.ids, db: deps.db.slonik };
    const { id: question } = await step(
      createPost(
        posts,
        subjectOf('narocnik'),
        { courseId: interactions, message: 'Ali interakcija z grenivkinim sokom velja tudi za atorvastatin?', anonymous: true, parentId: null },
        meta,
      ),
    );
    // The course team's answer, as an admin gives it from the course's comments tab: signed as the team, the question marked answered.
    await step(
      replyAsTeam(posts, subjectOf('admin'), question, 'Da, v manjši meri kot pri simvastatinu. Svetujemo, da bolnik soka ne pije v večjih količinah.', meta),
    );
    await step(moderatePost(posts, subjectOf('admin'), question, { answered: true }, meta));
    // README: an issue of the newsletter for pharmacists, for `udelezenec` (Magister farmacije) to read.
    if (deps.features.newsletters) {
      await step(
        createNewsletter(
          { store: deps.store, ids: deps.ids, db: deps.db.slonik },
          newsletterRule.parse({
            title: 'Lekarniški novičnik: interakcije in samozdravljenje',
            issue: '1/2026',
            description: 'Novosti o interakcijah zdravil, nasveti za samozdravljenje prehlada in napoved izobraževanj v akademiji.',
            keywords: ['interakcije', 'samozdravljenje'],
            url: 'https://www.lekarniska-zbornica.si/',
            professionIds: [pharmacist],
            published: true,
          }),
          meta,
        ),
      );
    }
    // README: news for the pharmacists of Lekarna Center, so a newcomer sees the pop-up and /admin/news lists it (issue 33 item 9).
    const news = { store: deps.store, ids: deps.ids, db: deps.db.slonik, now: () => new Date() };
    for (const item of demoNews(new Date(), { unitIds: [center], professionIds: [pharmacist] })) await step(createNews(news, newsRule.parse(item), meta));
    // Issue 36: the chain's courses need approval; one approved and published with its code, one waiting in approval.
    await loadDemoApprovals(
      { ...courses, passwords: deps.passwords },
      { companyId, unitId: center, authorId: userIds.get('narocnik') ?? 0, password: DEMO_PASSWORD, meta, step, cover },
    );
    deps.log.info({ users: people.length }, 'demo data loaded');
    return true;
  } finally {
    await lock.query('select pg_advisory_unlock($1)', [SEED_LOCK]).catch(() => undefined);
    await lock.end();
  }
};
