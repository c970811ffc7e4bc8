import ExcelJS from 'exceljs';
import PDFDocument from 'pdfkit';
import { BRAND_COLOR, FONT_BOLD, FONT_REGULAR } from '../pdf/fonts.ts';
import type { ConsentReport, ConsentReportRenderer } from './consent-report.port.ts';

const when = new Intl.DateTimeFormat('sl-SI', { timeZone: 'Europe/Ljubljana', dateStyle: 'medium', timeStyle: 'medium' });
const show = (iso: string | null) => (iso ? when.format(new Date(iso)) : '');
const ACTIONS = { given: 'Dana', withdrawn: 'Preklicana' } as const;
const CHANNELS: Record<string, string> = { web: 'splet', mobile: 'mobilna aplikacija', admin: 'vnos skrbnika', import: 'uvoz' };

const standingText = (s: ConsentReport['standing'][number]) =>
  s.at === null ? 'Ni podatka' : `${s.given ? 'Dana' : 'Preklicana'} ${show(s.at)}${s.textVersion ? `, besedilo ${s.textVersion}` : ''}`;

const chainText = (r: ConsentReport) =>
  r.verification.broken ? r.verification.broken.message : `Veriga je nedotaknjena (preverjenih dogodkov: ${r.verification.checked}).`;

const checkpointText = (r: ConsentReport) => {
  const c = r.verification.checkpoint;
  if (!c) return 'Podpisane kontrolne točke še ni.';
  return `Podpisana kontrolna točka št. ${c.sequence} (${show(c.at)}): ${c.valid ? 'dnevnik se z njo ujema.' : `${c.message ?? 'dnevnik se z njo ne ujema'}.`}`;
};

const verificationText = (r: ConsentReport) => `${chainText(r)} ${checkpointText(r)}`;

const headerLines = (r: ConsentReport) => [
  `Uporabnik: ${r.user.fullName} (${r.user.username}, ${r.user.email}), ID ${r.user.id}`,
  `Stanje na dan: ${r.asOf ? when.format(r.asOf) : `${when.format(r.generatedAt)} (trenutno)`}`,
  `Izpis pripravljen: ${when.format(r.generatedAt)}`,
  `Preverjanje celovitosti: ${verificationText(r)}`,
  ...(r.receipt
    ? [
        `Potrdilo: koren ${r.receipt.root}, pot do korena ${r.receipt.path.length ? r.receipt.path.join(' ') : '(tok je edini)'}`,
        `Podpis (Ed25519): ${r.receipt.signature}`,
      ]
    : []),
];

/** Two sheets: where each consent stood at the chosen time, and the full history with IP, user agent and hashes. */
const xlsx = async (r: ConsentReport): Promise<Buffer> => {
  const book = new ExcelJS.Workbook();
  book.creator = 'Medilearn';
  book.created = r.generatedAt;
  const standing = book.addWorksheet('Stanje');
  for (const line of headerLines(r)) standing.addRow([line]);
  standing.addRow([]);
  const head = standing.addRow(['Vrsta', 'Privolitev', 'Stanje', 'Različica besedila', 'Čas']);
  head.font = { bold: true };
  for (const s of r.standing)
    standing.addRow([s.type, s.title, s.at === null ? 'Ni podatka' : s.given ? 'Dana' : 'Preklicana', s.textVersion ?? '', show(s.at)]);
  standing.columns.forEach((column, i) => {
    column.width = [8, 40, 14, 20, 26][i] ?? 20;
  });
  const history = book.addWorksheet('Zgodovina');
  history.columns = [
    { header: 'Št.', key: 'n', width: 6 },
    { header: 'Čas', key: 'at', width: 24 },
    { header: 'Dejanje', key: 'action', width: 12 },
    { header: 'Vrsta', key: 'type', width: 7 },
    { header: 'Privolitev', key: 'title', width: 36 },
    { header: 'Različica besedila', key: 'version', width: 18 },
    { header: 'Kanal', key: 'channel', width: 18 },
    { header: 'IP', key: 'ip', width: 16 },
    { header: 'Brskalnik', key: 'agent', width: 40 },
    { header: 'Vnesel v imenu uporabnika', key: 'by', width: 24 },
    { header: 'Opomba', key: 'note', width: 36 },
    { header: 'Zgoščeni zapis (SHA-256)', key: 'hash', width: 66 },
  ];
  history.getRow(1).font = { bold: true };
  for (const e of r.timeline) {
    history.addRow({
      n: e.sequence + 1,
      at: show(e.at),
      action: ACTIONS[e.action],
      type: e.type,
      title: e.title,
      version: e.textVersion,
      channel: CHANNELS[e.channel] ?? e.channel,
      ip: e.ip ?? '',
      agent: e.userAgent ?? '',
      by: e.recordedBy?.name ?? '',
      note: e.note ?? '',
      hash: e.hash,
    });
  }
  return Buffer.from(await book.xlsx.writeBuffer());
};

/** A4 portrait: header, the standing at the chosen time, then the history, one block per event. */
const pdf = (r: ConsentReport) =>
  new Promise<Buffer>((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A4', margin: 48, info: { Title: `Zgodovina privolitev – ${r.user.fullName}`, Author: 'Medilearn' } });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.registerFont('regular', FONT_REGULAR);
    doc.registerFont('bold', FONT_BOLD);
    doc.font('bold').fontSize(18).fillColor(BRAND_COLOR).text('Zgodovina privolitev');
    doc.moveDown(0.5).font('regular').fontSize(10).fillColor('#222222');
    for (const line of headerLines(r)) doc.text(line);
    doc.moveDown(0.8).font('bold').fontSize(13).fillColor(BRAND_COLOR).text('Stanje privolitev');
    doc.moveDown(0.3).font('regular').fontSize(10).fillColor('#222222');
    for (const s of r.standing) doc.text(`${s.type}. ${s.title}: ${standingText(s)}`);
    doc.moveDown(0.8).font('bold').fontSize(13).fillColor(BRAND_COLOR).text('Zgodovina');
    if (r.timeline.length === 0)
      doc.moveDown(0.3).font('regular').fontSize(10).fillColor('#222222').text('Uporabnik še ni dal ali preklical nobene privolitve.');
    for (const e of r.timeline) {
      doc
        .moveDown(0.5)
        .font('bold')
        .fontSize(10)
        .fillColor('#111111')
        .text(`${e.sequence + 1}. ${show(e.at)} · ${ACTIONS[e.action]}: ${e.title} (besedilo ${e.textVersion})`);
      doc.font('regular').fontSize(9).fillColor('#333333');
      doc.text(`Kanal: ${CHANNELS[e.channel] ?? e.channel}; IP: ${e.ip ?? '–'}; brskalnik: ${e.userAgent ?? '–'}`);
      if (e.recordedBy) doc.text(`Vnesel v imenu uporabnika: ${e.recordedBy.name}; opomba: ${e.note ?? ''}`);
      doc.fillColor('#666666').text(`SHA-256: ${e.hash}`);
    }
    doc.end();
  });

export const createConsentReportRenderer = (): ConsentReportRenderer => ({ xlsx, pdf });
