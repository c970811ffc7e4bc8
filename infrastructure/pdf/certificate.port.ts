/**
 * What a certificate shows (spec §3, issue 5 and issue 18 item 3, decision 0032): participant,
 * course, date, the accreditation line (credit points and chamber), the issuer with its signature,
 * the short number and the public address where anyone can check it (also as a QR code).
 */
export type CertificateData = {
  readonly number: string;
  readonly participantName: string;
  readonly courseTitle: string;
  /** The RX label of a course about a prescription-only medicine (issue 36); absent or null: none. */
  readonly rxLabel?: string | null;
  readonly completedAt: Date;
  /** "Izobraževanje je ovrednoteno s 3 kreditnimi točkami pri Lekarniški zbornici."; null: no credit points. */
  readonly accreditation: string | null;
  /** The approval code of the course's approved content (issue 36, e.g. MEDI-2026-0042); absent or null: none. */
  readonly approvalCode?: string | null;
  /** The company or unit signing; null: none (the platform issues it alone). */
  readonly issuer: {
    readonly name: string;
    readonly signature: { readonly name: string; readonly role: string; readonly image: Buffer | null } | null;
  } | null;
  /** PUBLIC_URL/certifikat/<number>. */
  readonly verifyUrl: string;
};

/** `owner`: whose request it is (an account, an address): each person's share of the drawing is bounded (render-pool.ts). */
export type CertificateRenderer = { render(data: CertificateData, owner?: string): Promise<Buffer> };

/** The one name of the document in the UI, the PDF and its file name (issue 18 item 3). */
export const certificateFileName = (number: string) => `certifikat-${number}.pdf`;
