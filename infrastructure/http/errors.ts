import type { FastifyError } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ZodError } from 'zod';
import { DomainError } from '../../domain/shared/domain-error.ts';
import { UNKNOWN_FIELD_MESSAGE } from '../../domain/shared/validation-messages.rules.ts';
import { ConcurrencyConflictError } from '../event-store/event-store.port.ts';

export type ErrorItem = { code: string; message: string; field: string | null };
export type ErrorResponse = { status: number; body: { errors: ErrorItem[] }; logAsError: boolean };

const STATUS_MESSAGES: Record<number, string> = {
  400: 'Zahteva ni veljavna.',
  401: 'Prijava je potrebna.',
  403: 'Nimate pravic za to dejanje.',
  404: 'Vir ne obstaja.',
  405: 'Metoda ni dovoljena.',
  406: 'Zahtevana oblika odgovora ni podprta.',
  409: 'Podatki so se medtem spremenili. Poskusite ponovno.',
  408: 'Zahteva je trajala predolgo.',
  413: 'Zahteva je prevelika.',
  414: 'Naslov zahteve je predolg.',
  415: 'Vrsta vsebine ni podprta.',
  431: 'Glave zahteve so prevelike.',
  429: 'Preveč zahtev. Poskusite znova čez nekaj trenutkov.',
  500: 'Prišlo je do napake na strežniku. Poskusite ponovno.',
  503: 'Storitev trenutno ni na voljo. Poskusite ponovno.',
};

export const messageForStatus = (status: number) =>
  STATUS_MESSAGES[status] ?? (status >= 500 ? (STATUS_MESSAGES[500] as string) : (STATUS_MESSAGES[400] as string));

/** Fastify's own refusals, in words a person can act on. */
const FRAMEWORK_MESSAGES: Record<string, string> = {
  FST_ERR_BAD_URL: 'Naslov zahteve ni veljaven.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'Telo zahteve je prazno.',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Dolžina telesa zahteve ni pravilna.',
  FST_ERR_CTP_INVALID_JSON_BODY: 'Telo zahteve ni veljaven JSON.',
};

type Issue = { code: string; message: string; path: readonly PropertyKey[]; keys?: readonly string[] };

const fromIssues = (issues: readonly Issue[]): ErrorItem[] =>
  issues.flatMap((issue) => {
    const path = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys' && issue.keys) {
      return issue.keys.map((key) => ({ code: '400', message: UNKNOWN_FIELD_MESSAGE, field: path ? `${path}.${key}` : key }));
    }
    return [{ code: '400', message: issue.message, field: path || null }];
  });

/** Every failure as the API's one error shape, `{ errors: [{ code, message, field }] }`; a 5xx says nothing of its cause. */
export const toErrorResponse = (error: unknown, fieldCodes?: Readonly<Record<string, string>>): ErrorResponse => {
  if (error instanceof DomainError) {
    return { status: error.status, body: { errors: [{ code: error.code, message: error.message, field: error.field ?? null }] }, logAsError: false };
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const items = error.validation.map((v) => {
      const params = v.params as { keys?: string[] };
      return {
        code: v.keyword,
        message: v.message ?? messageForStatus(400),
        path: (v.instancePath ?? '').split('/').filter(Boolean),
        ...(params.keys ? { keys: params.keys } : {}),
      };
    });
    const errors = fromIssues(items).map((item) => ({
      ...item,
      code: item.field && fieldCodes && Object.hasOwn(fieldCodes, item.field) ? (fieldCodes[item.field] as string) : item.code,
    }));
    return { status: 400, body: { errors }, logAsError: false };
  }
  if (error instanceof ZodError) {
    return { status: 400, body: { errors: fromIssues(error.issues as Issue[]) }, logAsError: false };
  }
  if (error instanceof ConcurrencyConflictError) {
    return { status: 409, body: { errors: [{ code: '409', message: messageForStatus(409), field: null }] }, logAsError: false };
  }
  const status = (error as FastifyError | undefined)?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const code = (error as FastifyError).code;
    // The JSON parser's SyntaxError and the prototype-poisoning refusal carry a 400 but no Fastify code.
    const message =
      (code && FRAMEWORK_MESSAGES[code]) ?? (status === 400 && error instanceof SyntaxError ? FRAMEWORK_MESSAGES.FST_ERR_CTP_INVALID_JSON_BODY : undefined);
    return { status, body: { errors: [{ code: String(status), message: message ?? messageForStatus(status), field: null }] }, logAsError: false };
  }
  return { status: 500, body: { errors: [{ code: '500', message: messageForStatus(500), field: null }] }, logAsError: true };
};

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  431: 'Request Header Fields Too Large',
};

/**
 * The raw HTTP answer to a request Node's parser refused (a header block over the limit, malformed
 * request line) before Fastify saw it: the same error shape, then the connection closes.
 */
export const clientErrorAnswer = (error: Error & { code?: string }): string => {
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'HPE_URI_TOO_LONG' ? 414 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const body = JSON.stringify({ errors: [{ code: String(status), message: messageForStatus(status), field: null }] });
  return [
    `HTTP/1.1 ${status} ${REASONS[status]}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
};
