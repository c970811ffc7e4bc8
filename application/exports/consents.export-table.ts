import { createHash } from 'node:crypto';
import { consentText } from '../../domain/consents/consent.rules.ts';
import { type ConsentEvent, consentStream } from '../../domain/consents/consent.ts';
import { verifyConsentChain } from '../../domain/consents/consent-chain.ts';
import type { ParametersOf } from '../../domain/exports/export.rules.ts';
import { ERASED_PERSON } from '../../domain/shared/event.ts';
import { ljubljanaPeriod } from '../../domain/shared/ljubljana-time.ts';
import type { Cell } from '../../infrastructure/reports/spreadsheet.port.ts';
import { companyForExport, consentUsersForExport, countConsentUsersForExport, userNamesForExport } from '../../projections/exports/export-rows.queries.ts';
import { type ExportTable, type ExportTableDeps, exportGone, fullName, MAX_EXPORT_ROWS, type Progress, text, tooMany } from './export-table.ts';

const CONSENT_ACTION: Readonly<Record<string, string>> = { ConsentGiven: 'dana', ConsentWithdrawn: 'preklicana' };
const CONSENT_CHANNEL: Readonly<Record<string, string>> = { web: 'splet', mobile: 'mobilna aplikacija', admin: 'vnos skrbnika', import: 'uvoz' };

const sha256 = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');

/** Every consent change in a period, of everyone or of one company's people, with the check of each person's chain. */
export const consentsTable = async (deps: ExportTableDeps, p: ParametersOf<'consents'>, progress: Progress): Promise<ExportTable> => {
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
