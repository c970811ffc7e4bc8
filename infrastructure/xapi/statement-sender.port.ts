/**
 * Sending one statement to an LRS (xAPI 1.0.3 §2.1.1, PUT /statements?statementId=): idempotent at
 * the LRS, so a statement sent twice (a retry after a lost answer, a backfill) is kept once. The
 * answer decides what follows: 2xx or 409 (the LRS holds a statement with this id already) is
 * delivered; no answer, 408, 429 or 5xx is tried again later; any other 4xx is refused for good
 * (the statement or the credentials are wrong, and sending it again would not change that).
 */
export type LrsDestination = { readonly url: string; readonly key: string; readonly secret: string };

export type SendOutcome =
  | { readonly kind: 'delivered'; readonly status: number }
  | { readonly kind: 'retry'; readonly status: number | null; readonly error: string }
  | { readonly kind: 'refused'; readonly status: number; readonly error: string };

export type StatementSender = (destination: LrsDestination, statementId: string, statement: unknown) => Promise<SendOutcome>;
