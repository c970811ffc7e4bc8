/**
 * A broken business rule. `code` is the stable code of spec §8 where the spec names one
 * (e.g. `422005` e-mail taken), otherwise the HTTP status as a string. `message` is Slovenian:
 * it is shown to the user as is.
 */
export class DomainError extends Error {
  readonly code: string;
  readonly status: number;
  readonly field: string | undefined;
  /** A refusal for now (429): when to ask again, sent as Retry-After. */
  readonly retryAfterSeconds: number | undefined;

  constructor(code: string, message: string, options: { status?: number; field?: string; retryAfterSeconds?: number } = {}) {
    super(message);
    this.name = 'DomainError';
    this.code = code;
    this.status = options.status ?? 422;
    this.field = options.field;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}
