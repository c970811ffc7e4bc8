import { z } from 'zod';
import { accreditationLine, chamberOf, normaliseCertificateNumber } from '../../domain/courses/certificate.ts';
import { isPrescriptionOnly, RX_LABEL } from '../../domain/courses/course-types.rules.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import type { AttemptLimiter } from '../../infrastructure/auth/attempt-limiter.port.ts';
import type { FileStore } from '../../infrastructure/files/file-store.port.ts';
import { errorResponses, type HttpApp, PUBLIC } from '../../infrastructure/http/http.port.ts';
import type { CertificateData } from '../../infrastructure/pdf/certificate.port.ts';
import { type CertificateRow, certificateByNumber } from './certificates.queries.ts';
import type { CourseReadDb } from './courses.queries.ts';

/** Look-ups per address per minute: enough for people checking certificates by hand, too few to walk numbers (decision 0032). */
export const CERTIFICATE_CHECKS_PER_ADDRESS = 30;

/** The public page that verifies a certificate (ui: /certifikat/:number); the QR code on the PDF leads there. */
export const certificateVerifyUrl = (publicUrl: string, number: string) => `${publicUrl.replace(/\/+$/, '')}/certifikat/${encodeURIComponent(number)}`;

/** What the PDF shows, from the read model's row; the signature image is read from the file store (PNG or JPEG only). */
export const certificateDocument = async (row: CertificateRow, deps: { files: FileStore; publicUrl: string }): Promise<CertificateData> => {
  const imageId = row.issuer?.signature?.imageFileId ?? null;
  const file = imageId === null ? null : await deps.files.get(imageId);
  const image = file && (file.contentType === 'image/png' || file.contentType === 'image/jpeg') ? file.bytes : null;
  return {
    number: row.number,
    participantName: row.participantName,
    courseTitle: row.courseTitle,
    rxLabel: isPrescriptionOnly(row.courseType) ? RX_LABEL : null,
    completedAt: new Date(row.completedAt),
    accreditation: accreditationLine(row.creditPoints, row.syncDestination),
    approvalCode: row.approvalCode,
    issuer: row.issuer
      ? { name: row.issuer.name, signature: row.issuer.signature ? { name: row.issuer.signature.name, role: row.issuer.signature.role, image } : null }
      : null,
    verifyUrl: certificateVerifyUrl(deps.publicUrl, row.number),
  };
};

const verification = z.object({
  valid: z.literal(true),
  number: z.string(),
  participantName: z.string(),
  courseTitle: z.string(),
  creditPoints: z.number(),
  chamber: z.string().nullable(),
  issuer: z.string().nullable(),
  completedAt: z.string(),
});

/**
 * GET /api/certificates/:number (issue 18 item 3): anyone, signed in or not, checks that a
 * certificate is real. It answers only what the certificate itself shows (participant, course,
 * credit points, chamber, issuer, date of completion) and 404 for any number that is not one,
 * limited per address like the other public routes.
 */
export const registerCertificateRoutes = (app: HttpApp, deps: { db: CourseReadDb; limiter: AttemptLimiter; perAddress?: number }) => {
  app.get(
    '/api/certificates/:number',
    {
      config: { access: PUBLIC, readModels: ['courses', 'users', 'organisation'] },
      schema: {
        tags: ['courses'],
        summary: 'Verify a certificate by its number (ML-YYYY-XXXXX-XXXXX): public; what the certificate shows, or 404',
        params: z.object({ number: z.string().max(64) }),
        response: { 200: verification, ...errorResponses },
      },
    },
    async (request, reply) => {
      const verdict = await deps.limiter.hit([{ key: `certificates|address|${request.ip}`, limit: deps.perAddress ?? CERTIFICATE_CHECKS_PER_ADDRESS }], 60);
      if (!verdict.allowed) {
        reply.header('Retry-After', String(verdict.retryAfterSeconds));
        throw new DomainError('429', `Preveč zahtev. Poskusite znova čez ${verdict.retryAfterSeconds} s.`, { status: 429 });
      }
      reply.header('Cache-Control', 'no-store');
      const number = normaliseCertificateNumber(request.params.number);
      const row = number ? await certificateByNumber(deps.db, number) : null;
      if (!row) throw new DomainError('404', 'Certifikata s to številko ni.', { status: 404 });
      return {
        valid: true as const,
        number: row.number,
        participantName: row.participantName,
        courseTitle: row.courseTitle,
        creditPoints: row.creditPoints,
        // The chamber is named only where the certificate prints it: in its accreditation line (issue 31 item 7).
        chamber: accreditationLine(row.creditPoints, row.syncDestination) ? (chamberOf(row.syncDestination)?.name ?? null) : null,
        issuer: row.issuer?.name ?? null,
        completedAt: new Date(row.completedAt).toISOString(),
      };
    },
  );
};
