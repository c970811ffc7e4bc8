import PDFDocument from 'pdfkit';
import type { CertificateData, CertificateRenderer } from './certificate.port.ts';
import { FONT_BOLD as BOLD, BRAND_COLOR as BRAND, FONT_REGULAR as REGULAR } from './fonts.ts';

const date = new Intl.DateTimeFormat('sl-SI', { timeZone: 'Europe/Ljubljana', day: 'numeric', month: 'long', year: 'numeric' });
const points = new Intl.NumberFormat('sl-SI', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** A4 landscape certificate, one page. */
export const createPdfkitCertificateRenderer = (): CertificateRenderer => ({
  render: (data: CertificateData) =>
    new Promise<Buffer>((resolve, reject) => {
      const doc = new PDFDocument({ size: 'A4', layout: 'landscape', margin: 56, info: { Title: `Potrdilo – ${data.courseTitle}`, Author: 'Medilearn' } });
      const chunks: Buffer[] = [];
      doc.on('data', (chunk: Buffer) => chunks.push(chunk));
      doc.on('end', () => resolve(Buffer.concat(chunks)));
      doc.on('error', reject);
      doc.registerFont('regular', REGULAR);
      doc.registerFont('bold', BOLD);
      const { width, height } = doc.page;
      doc
        .rect(24, 24, width - 48, height - 48)
        .lineWidth(3)
        .stroke(BRAND);
      doc
        .font('bold')
        .fontSize(30)
        .fillColor(BRAND)
        .text('POTRDILO O ZAKLJUČENEM IZOBRAŽEVANJU', 56, 96, { align: 'center', width: width - 112 });
      doc.moveDown(1.2).font('regular').fontSize(14).fillColor('#333333').text('Potrjujemo, da je', { align: 'center' });
      doc.moveDown(0.6).font('bold').fontSize(28).fillColor('#111111').text(data.participantName, { align: 'center' });
      doc.moveDown(0.6).font('regular').fontSize(14).fillColor('#333333').text('uspešno zaključil(a) izobraževanje', { align: 'center' });
      doc.moveDown(0.5).font('bold').fontSize(20).fillColor(BRAND).text(data.courseTitle, { align: 'center' });
      doc
        .moveDown(1)
        .font('regular')
        .fontSize(13)
        .fillColor('#333333')
        .text(`Kreditne točke: ${points.format(data.creditPoints)}`, { align: 'center' });
      doc.text(`Datum zaključka: ${date.format(data.completedAt)}`, { align: 'center' });
      if (data.signature) {
        const x = width - 56 - 260;
        const y = height - 170;
        if (data.signature.image) doc.image(data.signature.image, x + 30, y - 60, { fit: [200, 60] });
        doc
          .moveTo(x, y + 8)
          .lineTo(x + 260, y + 8)
          .lineWidth(1)
          .stroke('#999999');
        doc
          .font('bold')
          .fontSize(12)
          .fillColor('#111111')
          .text(data.signature.name, x, y + 14, { width: 260, align: 'center' });
        doc
          .font('regular')
          .fontSize(11)
          .fillColor('#333333')
          .text(data.signature.role, x, y + 30, { width: 260, align: 'center' });
        if (data.companyName) doc.text(data.companyName, x, y + 45, { width: 260, align: 'center' });
      }
      doc
        .font('regular')
        .fontSize(8)
        .fillColor('#777777')
        .text(`Številka potrdila: ${data.certificateId}`, 56, height - 90, { width: width - 112, align: 'left', lineBreak: false });
      doc.end();
    }),
});
