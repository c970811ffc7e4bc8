import { createHash } from 'node:crypto';
import { consentText } from '../../domain/consents/consent.rules.ts';
import { type ConsentEvent, consentStream } from '../../domain/consents/consent.ts';
import { verifyConsentChain } from '../../domain/consents/consent-chain.ts';
import type { ExportRequest, ParametersOf } from '../../domain/exports/export.rules.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import { ERASED_PERSON } from '../../domain/shared/event.ts';
import { ljubljanaPeriod } from '../../domain/shared/ljubljana-time.ts';
import { npsCategory } from '../../domain/stats/nps.ts';
import type { EventStore } from '../../infrastructure/event-store/event-store.port.ts';
import type { Cell, CellFormat } from '../../infrastructure/reports/spreadsheet.port.ts';
import { chamberCreditsOfChamber, countChamberCredits } from '../../projections/chambers/chamber-credits.queries.ts';
import {
  companyForExport,
  consentUsersForExport,
  countConsentUsersForExport,
  countNpsAnswersForExport,
  countParticipantsForExport,
  countUsersForExport,
  courseForExport,
  npsAnswersForExport,
  type Period,
  participantsForExport,
  userNamesForExport,
  usersForExport,
} from '../../projections/exports/export-rows.queries.ts';
import type { ExportsDb } from '../../projections/exports/exports.queries.ts';
import { costTimeline, coursesBilledTo } from '../../projections/stats/stats.queries.ts';

/**
 * What each kind of export holds (decision 0026): Slovenian headers, numbers as numbers (money in
 * euros from integer cents, with two decimals), times as dates the spreadsheet shows in Ljubljana
 * time. A person erased by crypto-shredding (decision 0019) reads "izbrisan uporabnik" in every
 * field of theirs.
 */
export type Column = { readonly header: string; readonly format?: CellFormat; readonly width?: number };
export type ExportTable = { readonly sheet: string; readonly columns: readonly Column[]; readonly rows: readonly (readonly Cell[])[] };

/** Reports how far the rows are (done of total); the job records it as progress. */
export type Progress = (done: number, total: number) => Promise<void>;

export type ExportTableDeps = { readonly db: ExportsDb; readonly store: EventStore; readonly now: () => Date };

/** A spreadsheet holds at most 1,048,576 rows. */
export const MAX_EXPORT_ROWS = 1_000_000;
const PAGE = 500;

export const exportGone = (what: 'course' | 'company') =>
  new DomainError('404', what === 'course' ? 'Izobraževanje ne obstaja več.' : 'Podjetje ne obstaja več.', { status: 404 });
const tooMany = () => new DomainError('422', 'Izvoz bi imel preveč vrstic (največ 1.000.000). Izberite krajše obdobje ali eno podjetje.');

const when = (iso: string | null) => (iso ? new Date(iso) : null);
const euros = (cents: number) => Math.round(cents) / 100;
/** Text, or an empty cell. */
const text = (value: string | null | undefined) => value || null;

type Person = { firstName: string; middleName: string | null; lastName: string; username: string; email: string; erased: boolean };
const fullName = (p: Person) => (p.erased ? ERASED_PERSON : [p.firstName, p.middleName, p.lastName].filter(Boolean).join(' '));
/** A personal field: the placeholder for an erased person. */
const own = (p: Person, value: string | null | undefined) => (p.erased ? ERASED_PERSON : text(value));

const ROLE_NAMES: Readonly<Record<number, string>> = {
  1: 'skrbnik',
  2: 'vodja',
  3: 'računovodja',
  4: 'naročnik',
  5: 'direktor',
  6: 'urednik',
  7: 'revizor',
  10: 'udeleženec',
};
const USER_STATUS: Readonly<Record<string, string>> = { active: 'aktiven', inactive: 'neaktiven', deleted: 'izbrisan' };
const ENROLLMENT_STATUS: Readonly<Record<string, string>> = { started: 'v teku', completed: 'zaključeno' };
const NPS_GROUP = { promoter: 'promotor', neutral: 'neopredeljen', detractor: 'kritik' } as const;
const CONSENT_ACTION: Readonly<Record<string, string>> = { ConsentGiven: 'dana', ConsentWithdrawn: 'preklicana' };
const CONSENT_CHANNEL: Readonly<Record<string, string>> = { web: 'splet', mobile: 'mobilna aplikacija', admin: 'vnos skrbnika', import: 'uvoz' };

const checkSize = (total: number) => {
  if (total > MAX_EXPORT_ROWS) throw tooMany();
};

/** A course's interval (1-based; 0 = all time) as a period. */
const intervalPeriod = (course: { intervals: readonly { startsAt: string; stopsAt: string }[] }, intervalId: number): Period | null => {
  if (intervalId === 0) return { start: new Date(0), end: new Date('9999-12-31T00:00:00Z') };
  const interval = course.intervals[intervalId - 1];
  return interval ? { start: new Date(interval.startsAt), end: new Date(interval.stopsAt) } : null;
};

/** The course an export names, or a refusal (a deleted course is gone too). */
export const exportCourse = async (db: ExportsDb, courseId: number) => {
  const course = await courseForExport(db, courseId);
  if (!course || course.deleted) throw exportGone('course');
  return course;
};

const users = async (deps: ExportTableDeps, p: ParametersOf<'users'>, progress: Progress): Promise<ExportTable> => {
  const total = await countUsersForExport(deps.db, p);
  checkSize(total);
  const rows: Cell[][] = [];
  let after = 0;
  for (;;) {
    const page = await usersForExport(deps.db, p, after, PAGE);
    for (const u of page) {
      const roles = u.roles.map((r) => [ROLE_NAMES[r.roleId] ?? String(r.roleId), r.unitName ?? r.companyName].filter(Boolean).join(' – ')).join(', ');
      rows.push([
        u.id,
        u.erased ? ERASED_PERSON : u.username,
        own(u, u.firstName),
        own(u, u.middleName),
        own(u, u.lastName),
        own(u, u.email),
        own(u, u.phone),
        text(u.profession),
        own(u, u.otherJob),
        own(u, u.licenceNumber),
        own(u, u.chamberMembershipNumber),
        roles,
        USER_STATUS[u.status] ?? u.status,
        when(u.registeredAt),
        when(u.lastLoginAt),
      ]);
    }
    await progress(rows.length, total);
    if (page.length < PAGE) break;
    after = page[page.length - 1]?.id ?? after;
  }
  return {
    sheet: 'Uporabniki',
    columns: [
      { header: 'ID', format: 'integer', width: 8 },
      { header: 'Uporabniško ime', width: 22 },
      { header: 'Ime', width: 18 },
      { header: 'Srednje ime', width: 14 },
      { header: 'Priimek', width: 18 },
      { header: 'E-pošta', width: 30 },
      { header: 'Telefon', width: 16 },
      { header: 'Poklic', width: 24 },
      { header: 'Drugo delo', width: 18 },
      { header: 'Številka licence', width: 16 },
      { header: 'Številka članstva v zbornici', width: 16 },
      { header: 'Vloge', width: 40 },
      { header: 'Stanje', width: 12 },
      { header: 'Registriran', format: 'datetime', width: 18 },
      { header: 'Zadnja prijava', format: 'datetime', width: 18 },
    ],
    rows,
  };
};

/** Pages of rows by offset, with progress after each page. */
const paged = async <T>(total: number, page: (offset: number) => Promise<readonly T[]>, row: (item: T) => Cell[], progress: Progress) => {
  checkSize(total);
  const rows: Cell[][] = [];
  for (;;) {
    const items = await page(rows.length);
    for (const item of items) rows.push(row(item));
    await progress(rows.length, Math.max(total, rows.length));
    if (items.length < PAGE) return rows;
  }
};

const participants = async (deps: ExportTableDeps, p: ParametersOf<'participants'>, progress: Progress): Promise<ExportTable> => {
  const course = await exportCourse(deps.db, p.courseId);
  const period = intervalPeriod(course, p.intervalId);
  if (!period) throw new DomainError('404', 'Termin izobraževanja ne obstaja več.', { status: 404 });
  const rows = await paged(
    await countParticipantsForExport(deps.db, course.id, period),
    (offset) => participantsForExport(deps.db, course.id, period, offset, PAGE),
    (e) => [
      e.userId,
      fullName(e),
      e.erased ? ERASED_PERSON : e.username,
      own(e, e.email),
      text(e.profession),
      text(e.units),
      text(e.companies),
      ENROLLMENT_STATUS[e.status] ?? e.status,
      when(e.startedAt),
      when(e.lastActivityAt),
      e.blocksDone,
      e.blocksTotal,
      e.status === 'completed' ? 1 : e.blocksTotal > 0 ? Math.min(1, e.blocksDone / e.blocksTotal) : 0,
      when(e.completedAt),
      e.creditPoints,
      when(e.certificateIssuedAt),
    ],
    progress,
  );
  return {
    sheet: 'Udeleženci',
    columns: [
      { header: 'ID uporabnika', format: 'integer', width: 10 },
      { header: 'Ime in priimek', width: 26 },
      { header: 'Uporabniško ime', width: 20 },
      { header: 'E-pošta', width: 30 },
      { header: 'Poklic', width: 24 },
      { header: 'Enota', width: 24 },
      { header: 'Podjetje', width: 26 },
      { header: 'Stanje', width: 12 },
      { header: 'Začetek', format: 'datetime', width: 18 },
      { header: 'Zadnja aktivnost', format: 'datetime', width: 18 },
      { header: 'Opravljeni bloki', format: 'integer', width: 10 },
      { header: 'Vsi bloki', format: 'integer', width: 10 },
      { header: 'Napredek', format: 'percent', width: 10 },
      { header: 'Zaključeno', format: 'datetime', width: 18 },
      { header: 'Kreditne točke', format: 'decimal', width: 10 },
      { header: 'Certifikat izdan', format: 'datetime', width: 18 },
    ],
    rows,
  };
};

const nps = async (deps: ExportTableDeps, p: ParametersOf<'nps'>, progress: Progress): Promise<ExportTable> => {
  const course = await exportCourse(deps.db, p.courseId);
  const period = ljubljanaPeriod(p.from, p.to);
  const rows = await paged(
    await countNpsAnswersForExport(deps.db, course.id, period),
    (offset) => npsAnswersForExport(deps.db, course.id, period, offset, PAGE),
    (a) => [
      when(a.answeredAt),
      a.userId,
      fullName(a),
      own(a, a.email),
      text(a.profession),
      text(a.units),
      text(a.companies),
      a.blockName ?? `Blok ${a.blockId}`,
      a.score,
      NPS_GROUP[npsCategory(a.score)],
      a.reasons.join('; '),
      a.comment === null ? null : a.erased ? ERASED_PERSON : a.comment,
    ],
    progress,
  );
  return {
    sheet: 'Odgovori NPS',
    columns: [
      { header: 'Čas odgovora', format: 'datetime', width: 18 },
      { header: 'ID uporabnika', format: 'integer', width: 10 },
      { header: 'Ime in priimek', width: 26 },
      { header: 'E-pošta', width: 30 },
      { header: 'Poklic', width: 24 },
      { header: 'Enota', width: 24 },
      { header: 'Podjetje', width: 26 },
      { header: 'Blok', width: 24 },
      { header: 'Ocena', format: 'integer', width: 8 },
      { header: 'Skupina', width: 14 },
      { header: 'Razlogi', width: 40 },
      { header: 'Komentar', width: 50 },
    ],
    rows,
  };
};

const costs = async (deps: ExportTableDeps, p: ParametersOf<'costs'>, progress: Progress): Promise<ExportTable> => {
  if (!(await companyForExport(deps.db, p.companyId))) throw exportGone('company');
  const period = ljubljanaPeriod(p.from, p.to);
  // The deal as it stood at the end of the period (or now, for a period that has not ended).
  const asOf = new Date(Math.min(period.end.getTime() - 1, deps.now().getTime()));
  const courseIds = await coursesBilledTo(deps.db, p.companyId, asOf);
  const rows: Cell[][] = [];
  for (const courseId of courseIds) {
    const course = await courseForExport(deps.db, courseId);
    if (course && !course.deleted) {
      const window = { from: period.start, to: asOf, asOf, intervalId: 0 };
      const { costs: c, figures: total } = await costTimeline(deps.db, courseId, window, 'month');
      rows.push([
        course.id,
        course.title,
        total.views,
        euros(c.viewAmount),
        euros(total.viewsAmount),
        euros(c.archiveAmount),
        euros(c.productionAmount),
        euros(c.detailedNpsAmount),
        euros(c.insidePoolAmount),
        euros(c.otherAmount),
        euros(c.fixedAmount),
        euros(total.totalAmount),
        c.discount,
        euros(total.finalAmount),
        euros(total.shareEarnings),
      ]);
    }
    await progress(rows.length, courseIds.length);
  }
  return {
    sheet: 'Stroški',
    columns: [
      { header: 'ID izobraževanja', format: 'integer', width: 10 },
      { header: 'Izobraževanje', width: 36 },
      { header: 'Ogledi', format: 'integer', width: 10 },
      { header: 'Cena ogleda (€)', format: 'money', width: 14 },
      { header: 'Znesek ogledov (€)', format: 'money', width: 16 },
      { header: 'Arhiv (€)', format: 'money', width: 14 },
      { header: 'Produkcija (€)', format: 'money', width: 14 },
      { header: 'Podrobni NPS (€)', format: 'money', width: 14 },
      { header: 'Notranji bazen (€)', format: 'money', width: 14 },
      { header: 'Drugo (€)', format: 'money', width: 14 },
      { header: 'Fiksni znesek (€)', format: 'money', width: 14 },
      { header: 'Skupaj (€)', format: 'money', width: 16 },
      { header: 'Popust (%)', format: 'decimal', width: 10 },
      { header: 'Končni znesek (€)', format: 'money', width: 16 },
      { header: 'Delitev prihodka (€)', format: 'money', width: 16 },
    ],
    rows,
  };
};

const sha256 = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');

const consents = async (deps: ExportTableDeps, p: ParametersOf<'consents'>, progress: Progress): Promise<ExportTable> => {
  if (p.companyId !== 0 && !(await companyForExport(deps.db, p.companyId))) throw exportGone('company');
  const period = ljubljanaPeriod(p.from, p.to);
  const total = await countConsentUsersForExport(deps.db, p.companyId);
  const rows: Cell[][] = [];
  let after = 0;
  let done = 0;
  for (;;) {
    const people = await consentUsersForExport(deps.db, p.companyId, after, 100);
    for (const person of people) {
      // Decision 0013: the history is the person's consent events, replayed; the chain is checked over all of them.
      const history = (await deps.store.readStream(consentStream(person.id))).events.map((e) => ({ type: e.type, data: e.data }) as ConsentEvent);
      if (history.length === 0) continue;
      const check = verifyConsentChain(sha256, person.id, history);
      const chain = check.valid ? 'nedotaknjena' : `prekinjena pri dogodku št. ${check.broken.index + 1}`;
      const inPeriod = history.filter((e) => {
        const at = Date.parse(e.data.at);
        return at >= period.start.getTime() && at < period.end.getTime();
      });
      const admins = await userNamesForExport(deps.db, [...new Set(inPeriod.flatMap((e) => (e.data.onBehalfOf ? [e.data.onBehalfOf.adminId] : [])))]);
      for (const e of inPeriod) {
        const d = e.data;
        rows.push([
          new Date(d.at),
          person.id,
          fullName(person),
          person.erased ? ERASED_PERSON : person.username,
          d.sequence + 1,
          CONSENT_ACTION[e.type] ?? e.type,
          d.consentType,
          consentText(d.consentType as 1 | 2 | 3 | 4).title,
          d.textVersion,
          CONSENT_CHANNEL[d.channel] ?? d.channel,
          text(d.ip),
          text(d.userAgent),
          d.onBehalfOf ? (admins.get(d.onBehalfOf.adminId) ?? `#${d.onBehalfOf.adminId}`) : null,
          d.onBehalfOf?.note ?? null,
          chain,
          d.hash,
        ]);
      }
      if (rows.length > MAX_EXPORT_ROWS) throw tooMany();
    }
    done += people.length;
    await progress(done, Math.max(total, done));
    if (people.length < 100) break;
    after = people[people.length - 1]?.id ?? after;
  }
  rows.sort((a, b) => (a[0] as Date).getTime() - (b[0] as Date).getTime() || (a[1] as number) - (b[1] as number) || (a[4] as number) - (b[4] as number));
  return {
    sheet: 'Privolitve',
    columns: [
      { header: 'Čas', format: 'datetime', width: 18 },
      { header: 'ID uporabnika', format: 'integer', width: 10 },
      { header: 'Uporabnik', width: 26 },
      { header: 'Uporabniško ime', width: 20 },
      { header: 'Št. v verigi', format: 'integer', width: 8 },
      { header: 'Dejanje', width: 12 },
      { header: 'Vrsta', format: 'integer', width: 7 },
      { header: 'Privolitev', width: 36 },
      { header: 'Različica besedila', width: 16 },
      { header: 'Kanal', width: 18 },
      { header: 'IP', width: 16 },
      { header: 'Brskalnik', width: 40 },
      { header: 'Vnesel v imenu uporabnika', width: 24 },
      { header: 'Opomba', width: 36 },
      { header: 'Veriga', width: 20 },
      { header: 'Zgoščeni zapis (SHA-256)', width: 66 },
    ],
    rows,
  };
};

export const CHAMBER_NAMES: Readonly<Record<1 | 2 | 3, string>> = {
  1: 'Lekarniška zbornica',
  2: 'Zdravniška zbornica',
  3: 'Zbornica zdravstvene nege',
};
const CREDIT_STATUS: Readonly<Record<string, string>> = { pending: 'v pošiljanju', held: 'čaka na številko', reported: 'sporočeno' };

/**
 * A chamber's credit points earned in the period (decision 0030): who (with the numbers the chamber
 * matches by, as they are now), which course (with its external id), the points, when earned, and
 * whether and when the chamber acknowledged them.
 */
const chamberCredits = async (deps: ExportTableDeps, p: ParametersOf<'chambers'>, progress: Progress): Promise<ExportTable> => {
  const total = await countChamberCredits(deps.db, p.chamber, p.from, p.to);
  checkSize(total);
  const rows: Cell[][] = [];
  let after: { earnedAt: string; courseId: number; userId: number } | null = null;
  for (;;) {
    const page = await chamberCreditsOfChamber(deps.db, p.chamber, p.from, p.to, after, PAGE);
    for (const c of page) {
      rows.push([
        CHAMBER_NAMES[p.chamber],
        c.userId,
        c.fullName,
        text(c.chamberMembershipNumber),
        text(c.licenceNumber),
        c.courseId,
        c.courseTitle,
        text(c.courseExternalId),
        c.points,
        when(c.earnedAt),
        CREDIT_STATUS[c.status] ?? c.status,
        when(c.reportedAt),
        text(c.receipt),
        c.attempts,
      ]);
    }
    await progress(rows.length, total);
    const last = page.at(-1);
    if (!last || page.length < PAGE) break;
    after = { earnedAt: last.earnedAt, courseId: last.courseId, userId: last.userId };
  }
  return {
    sheet: 'Kreditne točke',
    columns: [
      { header: 'Zbornica', width: 24 },
      { header: 'ID uporabnika', format: 'integer', width: 10 },
      { header: 'Ime in priimek', width: 28 },
      { header: 'Številka članstva v zbornici', width: 18 },
      { header: 'Številka licence', width: 16 },
      { header: 'ID izobraževanja', format: 'integer', width: 10 },
      { header: 'Izobraževanje', width: 36 },
      { header: 'Zunanji ID', width: 16 },
      { header: 'Kreditne točke', format: 'decimal', width: 10 },
      { header: 'Pridobljeno', format: 'datetime', width: 18 },
      { header: 'Stanje', width: 16 },
      { header: 'Sporočeno', format: 'datetime', width: 18 },
      { header: 'Potrdilo zbornice', width: 40 },
      { header: 'Poskusi', format: 'integer', width: 8 },
    ],
    rows,
  };
};

/** The table of one export. */
export const buildExportTable = (deps: ExportTableDeps, request: ExportRequest, progress: Progress): Promise<ExportTable> => {
  switch (request.kind) {
    case 'users':
      return users(deps, request.parameters, progress);
    case 'participants':
      return participants(deps, request.parameters, progress);
    case 'nps':
      return nps(deps, request.parameters, progress);
    case 'costs':
      return costs(deps, request.parameters, progress);
    case 'consents':
      return consents(deps, request.parameters, progress);
    case 'chambers':
      return chamberCredits(deps, request.parameters, progress);
    default: {
      const unreachable: never = request;
      return unreachable;
    }
  }
};
