import type { ReportBlock, ReportDocument } from '../../infrastructure/reports/report-document.port.ts';
import { COMMUNITY_KINDS, type CommunityKind } from '../../projections/stats/stats.queries.ts';
import type { CourseReportFigures } from './course-report.ts';

/**
 * The course report as a document (issue 17 item 3), in Slovenian: the words and the shape of the
 * PDF a sponsor receives. The renderer draws it; the report tab and its print view show the same
 * figures in the browser.
 */
const TZ = 'Europe/Ljubljana';
const dateTime = new Intl.DateTimeFormat('sl-SI', { timeZone: TZ, day: 'numeric', month: 'numeric', year: 'numeric', hour: '2-digit', minute: '2-digit' });
const date = new Intl.DateTimeFormat('sl-SI', { timeZone: TZ, day: 'numeric', month: 'numeric', year: 'numeric' });
const number = new Intl.NumberFormat('sl-SI', { useGrouping: 'always', maximumFractionDigits: 1 });
const euro = new Intl.NumberFormat('sl-SI', { style: 'currency', currency: 'EUR', useGrouping: 'always' });
const dayLabel = new Intl.DateTimeFormat('sl-SI', { timeZone: 'UTC', day: 'numeric', month: 'numeric' });
const monthLabel = new Intl.DateTimeFormat('sl-SI', { timeZone: 'UTC', month: 'short', year: '2-digit' });

export const formatWhen = (iso: string) => dateTime.format(new Date(iso));
const n = (value: number) => number.format(value);
const pct = (value: number | null) => (value === null ? '–' : `${number.format(value)} %`);
const eur = (cents: number) => euro.format(cents / 100);

const CATEGORY_COLORS = { detractor: '#b42318', neutral: '#8a5a00', promoter: '#1b6e2f' } as const;
const LEVEL_COLORS = { none: '#495057', low: '#b42318', medium: '#8a5a00', high: '#1b6e2f' } as const;
const CATEGORY_NAMES: Record<string, string> = { promoter: 'promotorji', neutral: 'nevtralni', detractor: 'kritiki' };
const GRADES: Record<string, string> = { none: 'ni odgovorov', poor: 'nizka', good: 'dobra', veryGood: 'zelo dobra', excellent: 'odlična' };
const KIND_NAMES: Record<CommunityKind, string> = { unit: 'Po enotah', company: 'Po podjetjih', group: 'Po skupinah', profession: 'Po poklicih' };
const KIND_COLUMN: Record<CommunityKind, string> = { unit: 'Enota', company: 'Podjetje', group: 'Skupina', profession: 'Poklic' };
const BUCKET_NAMES = { day: 'po dnevih', week: 'po tednih', month: 'po mesecih' } as const;
const categoryOf = (score: number) => (score >= 9 ? 'promoter' : score >= 7 ? 'neutral' : 'detractor');

export const intervalText = (r: CourseReportFigures['report']) =>
  r.interval === null ? 'ves čas' : `termin ${r.intervalId} (${date.format(new Date(r.interval.startsAt))} – ${date.format(new Date(r.interval.stopsAt))})`;

const periodLabel = (period: string, bucket: 'day' | 'week' | 'month') => {
  const at = new Date(`${period}T00:00:00Z`);
  return bucket === 'month' ? monthLabel.format(at) : dayLabel.format(at);
};

const participationBlocks = (f: CourseReportFigures): ReportBlock[] => {
  const p = f.participation;
  const blocks: ReportBlock[] = [
    {
      kind: 'figures',
      items: [
        { label: 'Udeleženci', value: n(p.participants) },
        { label: 'Zaključili', value: n(p.completions) },
        { label: 'Delež zaključenih', value: pct(p.completionRate) },
        { label: 'Uspešnost kviza', value: pct(p.successRate) },
        { label: 'Uspešni v prvem poskusu', value: pct(p.firstAttemptRate) },
        { label: 'Povprečni rezultat', value: pct(p.averageScore) },
        { label: 'Podeljene kreditne točke', value: n(p.creditPointsIssued) },
      ],
    },
  ];
  if (f.timeline.periods.length === 0) blocks.push({ kind: 'note', text: 'V tem obdobju izobraževanja ni začel noben udeleženec.' });
  else
    blocks.push({
      kind: 'columns',
      title: `Udeleženci in zaključki ${BUCKET_NAMES[f.timeline.bucket]}`,
      series: [
        { name: 'Udeleženci (prvi ogled)', color: '#8cc9c4' },
        { name: 'Zaključki', color: '#0b6e69' },
      ],
      points: f.timeline.periods.map((period) => ({ label: periodLabel(period.period, f.timeline.bucket), values: [period.participants, period.completions] })),
    });
  return blocks;
};

const npsBlocks = (f: CourseReportFigures, nps: CourseReportFigures['nps'][number]): ReportBlock[] => {
  const blocks: ReportBlock[] = [
    {
      kind: 'figures',
      items: [
        { label: 'NPS', value: nps.score === null ? '–' : n(nps.score), color: LEVEL_COLORS[nps.level] },
        { label: 'Ocena', value: GRADES[nps.grade] ?? nps.grade, color: LEVEL_COLORS[nps.level] },
        { label: 'Odgovori', value: n(nps.answers) },
        { label: 'Promotorji (9–10)', value: n(nps.promoters), color: CATEGORY_COLORS.promoter },
        { label: 'Nevtralni (7–8)', value: n(nps.neutrals), color: CATEGORY_COLORS.neutral },
        { label: 'Kritiki (0–6)', value: n(nps.detractors), color: CATEGORY_COLORS.detractor },
      ],
    },
    {
      kind: 'columns',
      title: 'Porazdelitev ocen od 0 do 10',
      series: [{ name: 'Odgovori', color: '#0b6e69' }],
      points: nps.distribution.map((d) => ({ label: String(d.score), values: [d.count], color: CATEGORY_COLORS[categoryOf(d.score)] })),
    },
  ];
  if (nps.reasons !== null) {
    blocks.push({ kind: 'subheading', text: 'Razlogi' });
    blocks.push(
      nps.reasons.length === 0
        ? { kind: 'note', text: 'Ni izbranih razlogov.' }
        : {
            kind: 'table',
            columns: [{ header: 'Razlog', weight: 3 }, { header: 'Skupina' }, { header: 'Odgovori', align: 'right' }],
            rows: nps.reasons.map((r) => [r.reason, CATEGORY_NAMES[r.category] ?? r.category, n(r.count)]),
          },
    );
  }
  if (nps.detailed !== null) {
    for (const kind of COMMUNITY_KINDS) {
      const rows = nps.detailed[kind];
      blocks.push({ kind: 'subheading', text: `Podrobni NPS: ${KIND_NAMES[kind].toLowerCase()}` });
      blocks.push(
        rows.length === 0
          ? { kind: 'note', text: 'Ni odgovorov.' }
          : {
              kind: 'table',
              columns: [
                { header: KIND_COLUMN[kind], weight: 3 },
                { header: 'Odgovori', align: 'right' },
                { header: 'Promotorji', align: 'right' },
                { header: 'Nevtralni', align: 'right' },
                { header: 'Kritiki', align: 'right' },
                { header: 'NPS', align: 'right' },
              ],
              rows: rows.map((r) => [r.name, n(r.answers), n(r.promoters), n(r.neutrals), n(r.detractors), r.score === null ? '–' : n(r.score)]),
            },
      );
    }
  } else if (f.withheld.detailedNps) blocks.push({ kind: 'note', text: 'Podrobni NPS ni prikazan: za ogled nimate pravic.' });
  return blocks;
};

const COST_ITEMS = [
  ['archiveAmount', 'Arhiv'],
  ['productionAmount', 'Produkcija'],
  ['detailedNpsAmount', 'Podrobni NPS'],
  ['insidePoolAmount', 'Notranji bazen'],
  ['otherAmount', 'Drugo'],
  ['fixedAmount', 'Fiksni znesek'],
] as const;

const costBlocks = (f: CourseReportFigures): ReportBlock[] => {
  if (!f.costs) return [{ kind: 'note', text: 'Stroški niso prikazani: za ogled stroškov nimate pravic.' }];
  const { costs, figures } = f.costs;
  const amount = (key: string) => Number((costs as Record<string, unknown>)[key] ?? 0);
  return [
    {
      kind: 'figures',
      items: [
        { label: 'Ogledi', value: n(figures.views) },
        { label: 'Skupaj', value: eur(figures.totalAmount) },
        { label: 'Za plačilo', value: eur(figures.finalAmount) },
      ],
    },
    {
      kind: 'table',
      columns: [
        { header: 'Postavka', weight: 3 },
        { header: 'Znesek', align: 'right' },
      ],
      rows: [
        ...COST_ITEMS.map(([key, label]) => [label, eur(amount(key))]),
        [`Ogledi (${n(figures.views)} × ${eur(amount('viewAmount'))})`, eur(figures.viewsAmount)],
        ['Skupaj', eur(figures.totalAmount)],
        ['Popust', `${n(amount('discount'))} %`],
        ['Za plačilo', eur(figures.finalAmount)],
      ],
    },
    ...(f.costs.setAt
      ? [{ kind: 'note' as const, text: `Stroški dogovorjeni ${formatWhen(f.costs.setAt)}.` }]
      : [{ kind: 'note' as const, text: 'Privzeti stroški.' }]),
  ];
};

const commentBlocks = (f: CourseReportFigures): ReportBlock[] => {
  if (f.comments === null) return [{ kind: 'note', text: 'Komentarji niso prikazani: za ogled nimate pravic.' }];
  if (f.comments.length === 0) return [{ kind: 'note', text: 'V tem obdobju ni komentarjev.' }];
  return [
    {
      kind: 'quotes',
      items: f.comments.map((c) => ({
        text: c.message,
        note: [formatWhen(c.createdAt), c.reply ? 'odgovor' : null, c.answered ? 'vprašanje je odgovorjeno' : null].filter(Boolean).join(' · '),
      })),
    },
  ];
};

export const courseReportDocument = (f: CourseReportFigures): ReportDocument => {
  const r = f.report;
  const sections: { heading: string; blocks: ReportBlock[] }[] = [{ heading: 'Udeležba in uspešnost', blocks: participationBlocks(f) }];
  if (f.nps.length === 0) sections.push({ heading: 'NPS', blocks: [{ kind: 'note', text: 'Izobraževanje nima ankete NPS.' }] });
  for (const nps of f.nps) sections.push({ heading: `NPS: ${nps.name || 'anketa'}`, blocks: npsBlocks(f, nps) });
  if (f.children !== null)
    sections.push({
      heading: 'Po enotah',
      blocks:
        f.children.length === 0
          ? [{ kind: 'note', text: 'Ni udeležencev v enotah.' }]
          : [
              {
                kind: 'table',
                columns: [
                  { header: 'Enota', weight: 2.6 },
                  { header: 'Udeleženci', align: 'right', weight: 1.3 },
                  { header: 'Zaključili', align: 'right', weight: 1.2 },
                  { header: 'Delež zaključenih', align: 'right', weight: 1.5 },
                  { header: 'Uspešnost kviza', align: 'right', weight: 1.5 },
                  { header: 'NPS', align: 'right', weight: 0.9 },
                ],
                rows: f.children.map((c) => [
                  c.name,
                  n(c.participants),
                  n(c.completions),
                  pct(c.completionRate),
                  pct(c.successRate),
                  c.npsScore === null ? '–' : n(c.npsScore),
                ]),
              },
            ],
    });
  sections.push({ heading: 'Stroški', blocks: costBlocks(f) });
  sections.push({ heading: 'Zadnji komentarji (največ 20)', blocks: commentBlocks(f) });
  return {
    title: 'Poročilo o izobraževanju',
    subtitle: f.course.title,
    meta: [
      `Obdobje: ${intervalText(r)}`,
      `Stanje na dan: ${formatWhen(r.date)}`,
      `Pripravil: ${r.user?.name || 'neznan uporabnik'}, ${formatWhen(r.timeCreated)} · poročilo št. ${r.id}`,
      `Kreditne točke izobraževanja: ${n(f.course.creditPoints)}`,
      ...(f.scope === 'community' ? ['Prikazani so podatki udeležencev vaših enot.'] : []),
    ],
    sections,
    footer: `Medilearn · poročilo št. ${r.id} · ${f.course.title}`,
    pageLabel: 'stran {page} od {pages}',
  };
};
