/** What a certificate shows (spec §3/issue 5): participant, course, credit points, date, the company's signature. */
export type CertificateData = {
  readonly certificateId: string;
  readonly participantName: string;
  readonly courseTitle: string;
  readonly creditPoints: number;
  readonly completedAt: Date;
  readonly companyName: string | null;
  readonly signature: { readonly name: string; readonly role: string; readonly image: Buffer | null } | null;
};

export type CertificateRenderer = { render(data: CertificateData): Promise<Buffer> };
