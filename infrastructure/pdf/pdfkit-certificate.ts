import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';
import type { CertificateData, CertificateRenderer } from './certificate.port.ts';
import { FONT_BOLD as BOLD, BRAND_COLOR as BRAND, FONT_REGULAR as REGULAR } from './fonts.ts';

const date = new Intl.DateTimeFormat('sl-SI', { timeZone: 'Europe/Ljubljana', day: 'numeric', month: 'long', year: 'numeric' });

/** A4 landscape certificate, one page: the QR code and the number bottom left, the issuer's signature bottom right. */
export const createPdfkitCertificateRenderer = (): CertificateRenderer => ({
  render: async (data: CertificateData) => {
    const qr = await QRCode.toBuffer(data.verifyUrl, { type: 'png', errorCorrectionLevel: 'M', margin: 2, width: 360 });
    return new Promise<Buffer>((resolve, reject) => {
      const doc = new PDFDocument({
        size: 'A4',
        layout: 'landscape',
        margin: 56,
        info: { Title: `Certifikat ${data.number} – ${data.courseTitle}`, Author: data.issuer?.name ?? 'Medilearn', Subject: data.verifyUrl },
      });
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
        .fontSize(34)
        .fillColor(BRAND)
        .text('CERTIFIKAT', 56, 72, { align: 'center', width: width - 112 });
      doc
        .font('regular')
        .fontSize(14)
        .fillColor('#333333')
        .text('o zaključenem izobraževanju', { align: 'center', width: width - 112 });
      doc
        .moveDown(1.2)
        .fontSize(14)
        .text('Potrjujemo, da je', { align: 'center', width: width - 112 });
      doc
        .moveDown(0.5)
        .font('bold')
        .fontSize(26)
        .fillColor('#111111')
        .text(data.participantName, { align: 'center', width: width - 112 });
      doc
        .moveDown(0.5)
        .font('regular')
        .fontSize(14)
        .fillColor('#333333')
        .text('uspešno zaključil(a) izobraževanje', { align: 'center', width: width - 112 });
      doc
        .moveDown(0.4)
        .font('bold')
        .fontSize(19)
        .fillColor(BRAND)
        .text(data.courseTitle, { align: 'center', width: width - 112 });
      // Issue 36: a course about a prescription-only medicine says whom it was for (decision 0062).
      if (data.rxLabel)
        doc
          .moveDown(0.3)
          .font('bold')
          .fontSize(11)
          .fillColor('#9b1c1c')
          .text(data.rxLabel, { align: 'center', width: width - 112 });
      doc.moveDown(0.8).font('regular').fontSize(12.5).fillColor('#333333');
      if (data.accreditation) doc.text(data.accreditation, { align: 'center', width: width - 112 });
      doc.text(`Datum zaključka: ${date.format(data.completedAt)}`, { align: 'center', width: width - 112 });
      // Issue 36: the code of the approved content the course was published under.
      if (data.approvalCode)
        doc
          .fontSize(10)
          .fillColor('#555555')
          .text(`Koda odobritve vsebine: ${data.approvalCode}`, { align: 'center', width: width - 112 });

      // Bottom left: the QR code to the public verification and the number under it.
      const qrSize = 92;
      const qrY = height - 56 - qrSize - 34;
      doc.image(qr, 56, qrY, { width: qrSize, height: qrSize });
      doc
        .font('bold')
        .fontSize(10)
        .fillColor('#111111')
        .text(`Številka certifikata: ${data.number}`, 56, qrY + qrSize + 6, { width: 330, lineBreak: false });
      doc
        .font('regular')
        .fontSize(8)
        .fillColor('#555555')
        .text(`Veljavnost preverite na ${data.verifyUrl}`, 56, qrY + qrSize + 20, { width: 330, lineBreak: false });

      // Bottom right: the issuer, with the signature image, its signatory's name and role.
      const x = width - 56 - 260;
      const lineY = height - 150;
      const issuer = data.issuer;
      if (issuer?.signature?.image) doc.image(issuer.signature.image, x + 30, lineY - 64, { fit: [200, 60], align: 'center', valign: 'bottom' });
      doc
        .moveTo(x, lineY)
        .lineTo(x + 260, lineY)
        .lineWidth(1)
        .stroke('#999999');
      let y = lineY + 6;
      if (issuer?.signature) {
        doc.font('bold').fontSize(12).fillColor('#111111').text(issuer.signature.name, x, y, { width: 260, align: 'center' });
        y += 16;
        doc.font('regular').fontSize(11).fillColor('#333333').text(issuer.signature.role, x, y, { width: 260, align: 'center' });
        y += 15;
      }
      doc
        .font('regular')
        .fontSize(10)
        .fillColor('#333333')
        .text(`Izdajatelj: ${issuer?.name ?? 'Medilearn'}`, x, y, { width: 260, align: 'center' });
      doc.end();
    });
  },
});
