/**
 * Credit points reported to a professional chamber (issue 17 item 6, decision 0030). The port knows
 * nothing of courses or enrollments: a record is what a chamber files, under a reference that is
 * the same on every attempt, so a chamber that got a record twice (a resend after a crash) files it once.
 */
export type ChamberCreditRecord = {
  /** Stable per person and course; sent as the idempotency key. */
  readonly reference: string;
  readonly chamber: 1 | 2 | 3;
  readonly memberNumber: string | null;
  readonly licenceNumber: string | null;
  readonly firstName: string;
  readonly lastName: string;
  readonly courseTitle: string;
  readonly courseExternalId: string | null;
  readonly creditPoints: number;
  /** When the course was completed (ISO, UTC). */
  readonly earnedAt: string;
};

/** The chamber's acknowledgment: its receipt (a number or the file it was filed as). */
export type ChamberReceipt = { readonly receipt: string };

/** The chamber did not acknowledge (unreachable, refused, answered without a receipt): the record is sent again later. */
export class ChamberReportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ChamberReportError';
  }
}

export type ChamberReporter = {
  /** Resolves only when the chamber acknowledged the record; anything else throws. */
  report(record: ChamberCreditRecord): Promise<ChamberReceipt>;
};
