import { consentStream } from '../../domain/consents/consent.ts';
import { roleLabel } from '../../domain/permissions/roles.ts';
import { pushDevicesStream } from '../../domain/push/push.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import { userStream } from '../../domain/users/user.ts';
import type { EventStore } from '../../infrastructure/event-store/event-store.port.ts';
import type { DocumentRenderer, TextDocument } from '../../infrastructure/reports/document.port.ts';
import type { ReadDb } from '../../projections/organisation/organisation.queries.ts';
import { personalDataExtras } from '../../projections/users/personal-data.queries.ts';
import { getUserDetail } from '../../projections/users/user-admin.queries.ts';

/**
 * A person's data export (issue 14 item 7, the right of access): everything the platform holds
 * about them: the user page (profile, roles, identities, courses, change requests), consents,
 * comments, mail sent to them, and every event of their own streams (account, consents and the browsers
 * subscribed to push notifications).
 * Secrets are left out (password and token hashes, sealed links, device hashes): they are the
 * platform's proofs, not the person's data, and would help nobody but an attacker.
 */
export type PersonalDataDeps = { readonly store: EventStore; readonly db: ReadDb; readonly documents: DocumentRenderer; readonly now: () => Date };

const SECRET_KEY = /hash|sealed|secret|token/i;

/** Event data without its secrets, at any depth. */
const redact = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(redact);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).flatMap(([k, v]) => (SECRET_KEY.test(k) ? [] : [[k, redact(v)]])));
  }
  return value;
};

export const collectPersonalData = async (deps: PersonalDataDeps, userId: number) => {
  const user = await getUserDetail(deps.db, userId, { all: true });
  if (!user) throw new DomainError('404', 'Uporabnik ne obstaja.', { status: 404 });
  const emails = [user.email, ...(user.secondaryEmail ? [user.secondaryEmail] : [])];
  const extras = await personalDataExtras(deps.db, userId, emails);
  const events = [];
  for (const stream of [userStream(userId), consentStream(userId), pushDevicesStream(userId)]) {
    for (const e of (await deps.store.readStream(stream)).events) {
      events.push({ stream, type: e.type, at: e.createdAt.toISOString(), data: redact(e.data) });
    }
  }
  events.sort((a, b) => a.at.localeCompare(b.at));
  return { generatedAt: deps.now().toISOString(), user, ...extras, events };
};

export type PersonalData = Awaited<ReturnType<typeof collectPersonalData>>;

const when = new Intl.DateTimeFormat('sl-SI', { timeZone: 'Europe/Ljubljana', dateStyle: 'medium', timeStyle: 'short' });
const show = (iso: string | null) => (iso ? when.format(new Date(iso)) : '–');

/** The same export as a document a person reads, in Slovenian. */
export const personalDataDocument = (data: PersonalData): TextDocument => {
  const u = data.user;
  return {
    title: `Osebni podatki – ${u.fullName}`,
    intro: [
      `Izpis vseh podatkov, ki jih platforma Medilearn hrani o uporabniku ${u.fullName} (ID ${u.id}).`,
      `Pripravljen: ${show(data.generatedAt)}. Skrivnosti (zgoščene vrednosti gesel in povezav) niso vključene.`,
    ],
    sections: [
      {
        heading: 'Račun in profil',
        lines: [
          `Uporabniško ime: ${u.username}`,
          `E-naslov: ${u.email}${u.secondaryEmail ? `; drugi e-naslov: ${u.secondaryEmail}` : ''}`,
          `Ime in priimek: ${u.fullName}`,
          `Telefon: ${u.phone ?? '–'}`,
          `Poklic: ${u.professionName ?? '–'}${u.otherJob ? `; drugo delovno mesto: ${u.otherJob}` : ''}`,
          `Številka licence: ${u.licenceNumber ?? '–'}; številka članstva v zbornici: ${u.chamberMembershipNumber ?? '–'}`,
          `Stanje računa: ${u.status}; ustvarjen ${show(u.registeredAt)}; zadnja prijava ${show(u.lastLoginAt)}`,
          `Dvostopenjska prijava: ${u.secondFactorEnabled ? 'vklopljena' : 'izklopljena'}; potisna obvestila: ${u.onesignalEnabled === 1 ? 'vklopljena' : 'izklopljena'}`,
          ...(u.notes ? [`Oznaka skrbnika: ${u.notes}`] : []),
          ...u.socialIdentities.map((s) => `Povezan račun: ${s.platform}${s.email ? ` (${s.email})` : ''}`),
        ],
      },
      {
        heading: 'Vloge',
        lines: u.roles.map(
          (r) => `${roleLabel(r.roleId)}${r.companyName ? `: ${r.companyName}${r.unitId === 0 ? ' (vse enote)' : r.unitName ? `, ${r.unitName}` : ''}` : ''}`,
        ),
      },
      {
        heading: 'Privolitve',
        lines: data.consents.map((c) => `Vrsta ${c.type}: ${c.given ? 'dana' : 'preklicana'} ${show(c.at)} (besedilo ${c.textVersion})`),
      },
      {
        heading: 'Izobraževanja',
        lines: u.courses.map(
          (c) =>
            `${c.title}: začeto ${show(c.startedAt)}${c.completedAt ? `, zaključeno ${show(c.completedAt)}` : ''}${c.creditPoints !== null ? `, ${c.creditPoints} KT` : ''}`,
        ),
      },
      {
        heading: 'Komentarji',
        lines: data.posts.map((p) => `${show(p.at)}, ${p.courseTitle ?? `izobraževanje ${p.courseId}`}: ${p.message}${p.deleted ? ' (izbrisan)' : ''}`),
      },
      { heading: 'Poslana pošta', lines: data.mail.map((m) => `${show(m.at)}: ${m.kind} na ${m.recipient} (${m.status})`) },
      { heading: 'Zahteve vodij', lines: u.changeRequests.map((r) => `${show(r.requestedAt)}: ${r.kind}, ${r.description} (${r.status})`) },
      { heading: 'Zgodovina dogodkov', lines: data.events.map((e) => `${show(e.at)} ${e.type} ${JSON.stringify(e.data)}`) },
    ],
  };
};

export const personalDataPdf = async (deps: PersonalDataDeps, data: PersonalData, owner: string) => deps.documents.pdf(personalDataDocument(data), owner);
