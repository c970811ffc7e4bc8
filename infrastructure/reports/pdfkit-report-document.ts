import PDFDocument from 'pdfkit';
import { BRAND_COLOR, FONT_BOLD, FONT_REGULAR } from '../pdf/fonts.ts';
import type { ReportBlock, ReportColumnChart, ReportDocument, ReportDocumentRenderer } from './report-document.port.ts';

type Doc = InstanceType<typeof PDFDocument>;

const MARGIN = 48;
const TEXT = '#222222';
const MUTED = '#666666';
const RULE = '#d0d7de';
const SHADE = '#f1f5f4';

/** The drawing area of the current page. */
const area = (doc: Doc) => ({ left: MARGIN, width: doc.page.width - 2 * MARGIN, bottom: doc.page.height - MARGIN - 18 });

/** Starts a new page when `height` does not fit below the cursor. */
const room = (doc: Doc, height: number) => {
  if (doc.y + height > area(doc).bottom) doc.addPage();
};

const figures = (doc: Doc, items: Extract<ReportBlock, { kind: 'figures' }>['items']) => {
  const { left, width } = area(doc);
  const perRow = 3;
  const gap = 8;
  const boxWidth = (width - gap * (perRow - 1)) / perRow;
  const boxHeight = 42;
  for (let start = 0; start < items.length; start += perRow) {
    room(doc, boxHeight + gap);
    const top = doc.y;
    items.slice(start, start + perRow).forEach((item, i) => {
      const x = left + i * (boxWidth + gap);
      doc.roundedRect(x, top, boxWidth, boxHeight, 4).lineWidth(0.8).strokeColor(RULE).stroke();
      doc
        .font('regular')
        .fontSize(8)
        .fillColor(MUTED)
        .text(item.label, x + 8, top + 7, { width: boxWidth - 16, lineBreak: false, ellipsis: true });
      doc
        .font('bold')
        .fontSize(15)
        .fillColor(item.color ?? TEXT)
        .text(item.value, x + 8, top + 18, { width: boxWidth - 16, lineBreak: false, ellipsis: true });
    });
    doc.x = left;
    doc.y = top + boxHeight + gap;
  }
};

const table = (doc: Doc, block: Extract<ReportBlock, { kind: 'table' }>) => {
  const { left, width } = area(doc);
  const total = block.columns.reduce((s, c) => s + (c.weight ?? 1), 0);
  const widths = block.columns.map((c) => (width * (c.weight ?? 1)) / total);
  const pad = 4;
  const rowHeight = (cells: readonly string[], font: 'regular' | 'bold') => {
    doc.font(font).fontSize(8.5);
    return Math.max(...cells.map((cell, i) => doc.heightOfString(cell || ' ', { width: (widths[i] ?? 0) - 2 * pad }))) + 2 * pad;
  };
  const row = (cells: readonly string[], font: 'regular' | 'bold', shade: boolean) => {
    const height = rowHeight(cells, font);
    room(doc, height);
    const top = doc.y;
    if (shade) doc.rect(left, top, width, height).fillColor(SHADE).fill();
    let x = left;
    cells.forEach((cell, i) => {
      const w = widths[i] ?? 0;
      doc
        .font(font)
        .fontSize(8.5)
        .fillColor(TEXT)
        .text(cell, x + pad, top + pad, { width: w - 2 * pad, align: block.columns[i]?.align ?? 'left' });
      x += w;
    });
    doc
      .moveTo(left, top + height)
      .lineTo(left + width, top + height)
      .lineWidth(0.5)
      .strokeColor(RULE)
      .stroke();
    doc.x = left;
    doc.y = top + height;
  };
  const header = block.columns.map((c) => c.header);
  room(doc, rowHeight(header, 'bold') + 20);
  row(header, 'bold', true);
  for (const cells of block.rows) {
    if (doc.y + rowHeight(cells, 'regular') > area(doc).bottom) {
      doc.addPage();
      row(header, 'bold', true);
    }
    row(cells, 'regular', false);
  }
  doc.moveDown(0.6);
};

/** The top of the scale: four steps of 1, 2, 2.5 or 5 x 10^n (whole numbers: the charts count people and answers). */
const niceMax = (value: number) => {
  const wanted = Math.max(1, value / 4);
  const power = 10 ** Math.floor(Math.log10(wanted));
  const steps = power >= 10 ? [1, 2, 2.5, 5, 10] : [1, 2, 5, 10];
  const step = (steps.find((s) => s * power >= wanted) ?? 10) * power;
  return step * 4;
};

const columns = (doc: Doc, chart: ReportColumnChart) => {
  const { left, width } = area(doc);
  const plotHeight = 110;
  const height = 16 + plotHeight + 28 + (chart.series.length > 1 ? 14 : 0);
  room(doc, height);
  const top = doc.y;
  doc.font('bold').fontSize(9.5).fillColor(TEXT).text(chart.title, left, top, { width, lineBreak: false });
  const axis = 28;
  const plotLeft = left + axis;
  const plotWidth = width - axis;
  const plotTop = top + 16;
  const plotBottom = plotTop + plotHeight;
  const max = niceMax(Math.max(0, ...chart.points.flatMap((p) => p.values)));
  doc.font('regular').fontSize(7).fillColor(MUTED);
  for (let i = 0; i <= 4; i++) {
    const y = plotBottom - (plotHeight * i) / 4;
    doc
      .moveTo(plotLeft, y)
      .lineTo(plotLeft + plotWidth, y)
      .lineWidth(0.4)
      .strokeColor(RULE)
      .stroke();
    const label = String((max * i) / 4);
    doc.fillColor(MUTED).text(label, left, y - 3.5, { width: axis - 4, align: 'right', lineBreak: false });
  }
  const n = Math.max(1, chart.points.length);
  const slot = plotWidth / n;
  const series = Math.max(1, chart.series.length);
  const barWidth = Math.max(1, Math.min(28, (slot * 0.75) / series));
  // Labels under every slot while they fit, else every k-th.
  const every = Math.max(1, Math.ceil(n / Math.floor(plotWidth / 34)));
  chart.points.forEach((point, i) => {
    const groupLeft = plotLeft + i * slot + (slot - barWidth * series) / 2;
    point.values.forEach((value, s) => {
      const h = max === 0 ? 0 : (plotHeight * value) / max;
      if (h > 0)
        doc
          .rect(groupLeft + s * barWidth, plotBottom - h, barWidth, h)
          .fillColor(point.color ?? chart.series[s]?.color ?? BRAND_COLOR)
          .fill();
    });
    if (i % every === 0)
      doc
        .font('regular')
        .fontSize(7)
        .fillColor(MUTED)
        .text(point.label, plotLeft + i * slot - 10, plotBottom + 4, { width: slot + 20, align: 'center', lineBreak: false });
  });
  doc
    .moveTo(plotLeft, plotBottom)
    .lineTo(plotLeft + plotWidth, plotBottom)
    .lineWidth(0.8)
    .strokeColor(MUTED)
    .stroke();
  let legendY = plotBottom + 18;
  if (chart.series.length > 1) {
    let x = plotLeft;
    for (const s of chart.series) {
      doc
        .rect(x, legendY + 1, 8, 8)
        .fillColor(s.color)
        .fill();
      doc
        .font('regular')
        .fontSize(8)
        .fillColor(TEXT)
        .text(s.name, x + 12, legendY, { lineBreak: false });
      x += 24 + doc.widthOfString(s.name);
    }
    legendY += 14;
  }
  doc.x = left;
  doc.y = legendY + 8;
};

const block = (doc: Doc, b: ReportBlock) => {
  const { left, width } = area(doc);
  switch (b.kind) {
    case 'figures':
      figures(doc, b.items);
      break;
    case 'table':
      table(doc, b);
      break;
    case 'columns':
      columns(doc, b);
      break;
    case 'quotes':
      for (const item of b.items) {
        doc.font('regular').fontSize(9);
        room(doc, doc.heightOfString(item.text, { width: width - 10 }) + 16);
        const top = doc.y;
        doc.fillColor(TEXT).text(item.text, left + 10, top, { width: width - 10 });
        doc
          .font('regular')
          .fontSize(7.5)
          .fillColor(MUTED)
          .text(item.note, left + 10, doc.y + 1, { width: width - 10 });
        doc
          .moveTo(left + 3, top)
          .lineTo(left + 3, doc.y)
          .lineWidth(2)
          .strokeColor(RULE)
          .stroke();
        doc.x = left;
        doc.y += 6;
      }
      break;
    case 'note':
      room(doc, 16);
      doc.font('regular').fontSize(9).fillColor(MUTED).text(b.text, left, doc.y, { width });
      doc.moveDown(0.5);
      break;
    case 'subheading':
      // With room for what it heads (a table's first rows), so it never stands alone at a page's foot.
      room(doc, 80);
      doc.moveDown(0.3).font('bold').fontSize(10.5).fillColor(TEXT).text(b.text, left, doc.y, { width });
      doc.moveDown(0.3);
      break;
    default: {
      const unreachable: never = b;
      return unreachable;
    }
  }
};

/**
 * A4 portrait with the platform's fonts (č, š, ž): title, the report's lines, then each section
 * under a heading with its figures, tables, column charts and quotes; the footer and "page n of m"
 * on every page.
 */
export const createPdfkitReportDocument = (): ReportDocumentRenderer => ({
  pdf: (report: ReportDocument) =>
    new Promise<Buffer>((resolve, reject) => {
      const doc = new PDFDocument({
        size: 'A4',
        margin: MARGIN,
        bufferPages: true,
        info: { Title: `${report.title} – ${report.subtitle}`, Author: 'Medilearn' },
      });
      const chunks: Buffer[] = [];
      doc.on('data', (chunk: Buffer) => chunks.push(chunk));
      doc.on('end', () => resolve(Buffer.concat(chunks)));
      doc.on('error', reject);
      try {
        doc.registerFont('regular', FONT_REGULAR);
        doc.registerFont('bold', FONT_BOLD);
        const { left, width } = area(doc);
        doc.rect(0, 0, doc.page.width, 8).fillColor(BRAND_COLOR).fill();
        doc.font('bold').fontSize(20).fillColor(BRAND_COLOR).text(report.title, left, MARGIN, { width });
        doc.moveDown(0.2).font('bold').fontSize(14).fillColor(TEXT).text(report.subtitle, { width });
        doc.moveDown(0.4).font('regular').fontSize(9).fillColor(MUTED);
        for (const line of report.meta) doc.text(line, { width });
        for (const section of report.sections) {
          room(doc, 70);
          doc.moveDown(0.9).font('bold').fontSize(13).fillColor(BRAND_COLOR).text(section.heading, left, doc.y, { width });
          doc
            .moveTo(left, doc.y + 2)
            .lineTo(left + width, doc.y + 2)
            .lineWidth(0.8)
            .strokeColor(BRAND_COLOR)
            .stroke();
          doc.y += 8;
          for (const b of section.blocks) block(doc, b);
        }
        const range = doc.bufferedPageRange();
        for (let i = range.start; i < range.start + range.count; i++) {
          doc.switchToPage(i);
          // Below the bottom margin: without lifting it, pdfkit would start a new page for the footer.
          const bottom = doc.page.margins.bottom;
          doc.page.margins.bottom = 0;
          const y = doc.page.height - MARGIN + 6;
          doc
            .moveTo(left, y - 6)
            .lineTo(left + width, y - 6)
            .lineWidth(0.5)
            .strokeColor(RULE)
            .stroke();
          doc
            .font('regular')
            .fontSize(7.5)
            .fillColor(MUTED)
            .text(report.footer, left, y, { width: width - 90, lineBreak: false, ellipsis: true });
          doc.text(report.pageLabel.replace('{page}', String(i - range.start + 1)).replace('{pages}', String(range.count)), left + width - 90, y, {
            width: 90,
            align: 'right',
            lineBreak: false,
          });
          doc.page.margins.bottom = bottom;
        }
        doc.end();
      } catch (error) {
        reject(error);
      }
    }),
});
