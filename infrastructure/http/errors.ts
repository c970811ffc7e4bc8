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
  413: 'Zahteva je prevelika.',
  415: 'Vrsta vsebine ni podprta.',
  429: 'Preveč zahtev. Poskusite znova čez nekaj trenutkov.',
  500: 'Prišlo je do napake na strežniku. Poskusite ponovno.',
  503: 'Storitev trenutno ni na voljo. Poskusite ponovno.',
};

export const messageForStatus = (status: number) =>
  STATUS_MESSAGES[status] ?? (status >= 500 ? (STATUS_MESSAGES[500] as string) : (STATUS_MESSAGES[400] as string));

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
export const toErrorResponse = (error: unknown): ErrorResponse => {
  if (error instanceof DomainError) {
    return { status: error.status, body: { errors: [{ code: error.code, message: error.message, field: error.field ?? null }] }, logAsError: false };
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const items = error.validation.map((v) => {
      const params = v.params as { keys?: string[] };
      return {
        code: v.keyword,
        message: v.message ?? messageForStatus(400),
        path: v.instancePath.split('/').filter(Boolean),
        ...(params.keys ? { keys: params.keys } : {}),
      };
    });
    return { status: 400, body: { errors: fromIssues(items) }, logAsError: false };
  }
  if (error instanceof ZodError) {
    return { status: 400, body: { errors: fromIssues(error.issues as Issue[]) }, logAsError: false };
  }
  if (error instanceof ConcurrencyConflictError) {
    return { status: 409, body: { errors: [{ code: '409', message: messageForStatus(409), field: null }] }, logAsError: false };
  }
  const status = (error as FastifyError | undefined)?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return { status, body: { errors: [{ code: String(status), message: messageForStatus(status), field: null }] }, logAsError: false };
  }
  return { status: 500, body: { errors: [{ code: '500', message: messageForStatus(500), field: null }] }, logAsError: true };
};
