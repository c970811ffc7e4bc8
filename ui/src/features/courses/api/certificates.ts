import { api } from '../../../lib/api-client.ts';

/** What the public verification tells of a certificate (GET /api/certificates/{number}, issue 18 item 3). */
export type CertificateCheck = {
  valid: true;
  number: string;
  participantName: string;
  courseTitle: string;
  creditPoints: number;
  chamber: string | null;
  issuer: string | null;
  completedAt: string;
};

export const checkCertificate = (number: string) => api<CertificateCheck>('GET', `/certificates/${encodeURIComponent(number)}`);

/** The public page of a certificate, where its QR code leads. */
export const certificateCheckPath = (number: string) => `/certifikat/${encodeURIComponent(number)}`;
