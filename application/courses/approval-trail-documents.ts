import { ljubljanaText, type TrailKind, type TrailRow, type VerificationStatus } from '../../domain/courses/approval-trail.ts';
import type { ReportDocument } from '../../infrastructure/reports/report-document.port.ts';
import type { Cell, Spreadsheet } from '../../infrastructure/reports/spreadsheet.port.ts';
import type { CourseApprovalTrail } from './approval-trail.ts';

/** The exports' words (the page has its own in the UI's locale). */
export const KIND_LABELS: Readonly<Record<TrailKind, string>> = {
  submitted: 'Predložitev v odobritev',
  signed: 'Podpis: odobreno',
  rejected: 'Podpis: zavrnjeno',
  withdrawn: 'Umik predložitve',
  granted: 'Odobritev s kodo',
  published: 'Objava',
  unpublished: 'Umik objave',
  'content-changed': 'Sprememba vsebine',
  'settings-changed': 'Sprememba nastavitev odobritev',
};

export const STATUS_LABELS: Readonly<Record<VerificationStatus, string>> = {
  verified: 'Ujema se',
  mismatch: 'Ne ujema se',
  unapproved: 'Objavljeno brez odobritve',
  'not-published': 'Ni objavljeno',
  'no-course': 'Izobraževanje ne obstaja',
};

const METHODS: Readonly<Record<string, string>> = {
  password: 'ponovni vnos gesla',
  'password-second-factor': 'ponovni vnos gesla in koda iz e-pošte (dvostopenjska prijava)',
};
const method = (value: string | null) => (value ? (METHODS[value] ?? value) : '');
const yesNo = (value: boolean | null) => (value === null ? '' : value ? 'Da' : 'Ne');
const asOfText = (t: CourseApprovalTrail) => (t.asOf ? ljubljanaText(t.asOf) : `${ljubljanaText(t.generatedAt)} (trenutno)`);

/** A file name's safe stem: `revizijska-sled-<id>[-<as-of date>]`. */
export const trailFileName = (t: CourseApprovalTrail, format: 'xlsx' | 'pdf') =>
  `revizijska-sled-${t.subject.id}${t.asOf ? `-${t.asOf.toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '-')}` : ''}.${format}`;

const HEADER = [
  'Št.',
  'Čas (Ljubljana)',
  'Dejanje',
  'Različica',
  'Korak',
  'Kdo',
  'Pomen',
  'Komentar',
  'Način podpisa',
  'Koda odobritve',
  'Zgoščena vrednost vsebine (SHA-256)',
  'Zgoščena vrednost se ujema z vsebino iz dnevnika',
  'Zapis v dnevniku (revizija)',
];

/** The instant cut to its second (a spreadsheet would round the milliseconds into the next one). */
const toSecond = (iso: string) => new Date(Math.floor(new Date(iso).getTime() / 1000) * 1000);

const cells = (r: TrailRow, n: number): Cell[] => [
  n,
  toSecond(r.at),
  KIND_LABELS[r.kind],
  r.approvalVersion,
  r.stepLabel ?? '',
  r.who?.name ?? '',
  r.meaning,
  r.comment ?? '',
  method(r.method),
  r.code ?? '',
  r.contentHash ?? '',
  yesNo(r.hashMatchesContent),
  r.revision,
];

/** One sheet of the trail's rows (times as dates in Ljubljana), a second saying what it is and the verification. */
export const trailXlsx = (spreadsheet: Spreadsheet, t: CourseApprovalTrail, requestedBy: string) =>
  spreadsheet.table({
    sheet: 'Revizijska sled',
    header: HEADER,
    rows: t.rows.map((r, i) => cells(r, i + 1)),
    widths: [6, 20, 24, 10, 22, 24, 60, 40, 20, 18, 66, 18, 12],
    formats: ['integer', 'datetime-seconds', 'text', 'integer', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'integer'],
    about: {
      sheet: 'O izpisu',
      rows: [
        ['Izpis', 'Revizijska sled odobritev'],
        ['Izobraževanje', t.subject.title],
        ['ID izobraževanja', t.subject.id],
        ['Stanje na dan', asOfText(t)],
        ['Pripravljeno', t.generatedAt],
        ['Pripravil', requestedBy],
        ['Preverjanje', STATUS_LABELS[t.verification.status]],
        ['Ujemanje', t.verification.matches ? 'Da' : 'Ne'],
        ['Pojasnilo', t.verification.reason],
        ['Koda odobritve objave', t.verification.approvalCode ?? ''],
        ['Zgoščena vrednost objavljene vsebine', t.verification.publishedHash ?? ''],
        ['Zgoščena vrednost odobrene vsebine', t.verification.approvedHash ?? ''],
        ['Zgoščena vrednost, preračunana iz dnevnika', t.verification.currentHash ?? ''],
      ],
    },
  });

/** A4 with the verification first, then every row with its signer, time, meaning and hash. */
export const trailDocument = (t: CourseApprovalTrail, requestedBy: string): ReportDocument => {
  const v = t.verification;
  return {
    title: 'Revizijska sled odobritev',
    subtitle: t.subject.title,
    meta: [
      `Izobraževanje ID ${t.subject.id}`,
      `Stanje na dan: ${asOfText(t)}`,
      `Pripravljeno: ${ljubljanaText(t.generatedAt)}, pripravil: ${requestedBy}`,
      'Časi so po ljubljanskem času. Sled je preračunana iz dnevnika dogodkov izobraževanja.',
    ],
    sections: [
      {
        heading: 'Preverjanje objavljene vsebine',
        blocks: [
          {
            kind: 'figures',
            items: [
              { label: 'Preverjanje', value: STATUS_LABELS[v.status], color: v.matches ? '#2b8a3e' : v.status === 'mismatch' ? '#c92a2a' : '#495057' },
              { label: 'Koda odobritve objave', value: v.approvalCode ?? '–' },
              { label: 'Različica', value: v.approvalVersion === null ? '–' : String(v.approvalVersion) },
            ],
          },
          { kind: 'note', text: v.reason },
          {
            kind: 'table',
            columns: [
              { header: 'Zgoščena vrednost (SHA-256)', weight: 2 },
              { header: 'Vrednost', weight: 5 },
            ],
            rows: [
              ['Objavljena vsebina', v.publishedHash ?? '–'],
              ['Odobrena vsebina', v.approvedHash ?? '–'],
              ['Preračunana iz dnevnika', v.currentHash ?? '–'],
            ],
          },
        ],
      },
      {
        heading: 'Sled',
        blocks:
          t.rows.length === 0
            ? [{ kind: 'note', text: 'Do izbranega trenutka izobraževanje ni bilo predloženo v odobritev.' }]
            : [
                {
                  kind: 'table',
                  columns: [
                    { header: 'Čas', weight: 1.3 },
                    { header: 'Dejanje', weight: 1.3 },
                    { header: 'Kdo', weight: 1.3 },
                    { header: 'Pomen in komentar', weight: 3.4 },
                    { header: 'Koda, način, zgoščena vrednost', weight: 2 },
                  ],
                  rows: t.rows.map((r) => [
                    ljubljanaText(r.at),
                    `${KIND_LABELS[r.kind]}${r.approvalVersion === null ? '' : `, različica ${r.approvalVersion}`}${r.stepLabel ? ` (${r.stepLabel})` : ''}`,
                    r.who?.name ?? '–',
                    `${r.meaning}${r.comment ? `\nKomentar: ${r.comment}` : ''}`,
                    [
                      r.code ? `Koda ${r.code}` : '',
                      r.method ? `Način: ${method(r.method)}` : '',
                      r.contentHash ? `${r.contentHash.slice(0, 16)}…${r.hashMatchesContent === false ? ' (se ne ujema z vsebino!)' : ''}` : '',
                    ]
                      .filter(Boolean)
                      .join('\n'),
                  ]),
                },
              ],
      },
    ],
    footer: `Medilearn · revizijska sled odobritev · izobraževanje ${t.subject.id}`,
    pageLabel: 'stran {page} od {pages}',
  };
};
