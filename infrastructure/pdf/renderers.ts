import { createConsentReportRenderer } from '../reports/consent-report-renderer.ts';
import { createPdfkitDocumentRenderer } from '../reports/pdfkit-document.ts';
import { createPdfkitReportDocument } from '../reports/pdfkit-report-document.ts';
import type { CertificateData } from './certificate.port.ts';
import { createPdfkitCertificateRenderer } from './pdfkit-certificate.ts';

/**
 * Every document the platform draws on request, by name: what a render worker runs (render-pool.ts).
 * Their input is plain data, so it crosses to a worker thread as it is (a Buffer arrives as bytes).
 */
const certificate = createPdfkitCertificateRenderer();
const document = createPdfkitDocumentRenderer();
const report = createPdfkitReportDocument();
const consents = createConsentReportRenderer();

const asBuffer = (bytes: Uint8Array | null) => (bytes === null ? null : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));

export const RENDERERS = {
  certificate: (data: CertificateData) =>
    certificate.render({
      ...data,
      issuer: data.issuer && {
        ...data.issuer,
        signature: data.issuer.signature && { ...data.issuer.signature, image: asBuffer(data.issuer.signature.image) },
      },
    }),
  document: document.pdf,
  report: report.pdf,
  consentsPdf: consents.pdf,
  consentsXlsx: consents.xlsx,
} as const;

export type RenderKind = keyof typeof RENDERERS;
export type RenderInput<K extends RenderKind> = Parameters<(typeof RENDERERS)[K]>[0];
