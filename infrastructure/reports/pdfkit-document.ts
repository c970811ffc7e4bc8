import PDFDocument from 'pdfkit';
import { BRAND_COLOR, FONT_BOLD, FONT_REGULAR } from '../pdf/fonts.ts';
import type { DocumentRenderer } from './document.port.ts';

/** A4 portrait with the platform's fonts (č, š, ž), a heading per section. */
export const createPdfkitDocumentRenderer = (): DocumentRenderer => ({
  pdf: (document) =>
    new Promise<Buffer>((resolve, reject) => {
      const doc = new PDFDocument({ size: 'A4', margin: 48, info: { Title: document.title, Author: 'Medilearn' } });
      const chunks: Buffer[] = [];
      doc.on('data', (chunk: Buffer) => chunks.push(chunk));
      doc.on('end', () => resolve(Buffer.concat(chunks)));
      doc.on('error', reject);
      doc.registerFont('regular', FONT_REGULAR);
      doc.registerFont('bold', FONT_BOLD);
      doc.font('bold').fontSize(18).fillColor(BRAND_COLOR).text(document.title);
      doc.moveDown(0.5).font('regular').fontSize(10).fillColor('#222222');
      for (const line of document.intro) doc.text(line);
      for (const section of document.sections) {
        doc.moveDown(0.8).font('bold').fontSize(13).fillColor(BRAND_COLOR).text(section.heading);
        doc.moveDown(0.3).font('regular').fontSize(9).fillColor('#222222');
        if (section.lines.length === 0) doc.fillColor('#666666').text('Ni podatkov.').fillColor('#222222');
        for (const line of section.lines) doc.text(line);
      }
      doc.end();
    }),
});
