import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { downloadFile } from '../../../lib/download.ts';

export type ConsentText = { type: number; title: string; text: string; version: string; required: boolean };

export type Standing = {
  type: number;
  title: string;
  given: boolean;
  textVersion: string | null;
  at: string | null;
  channel: string | null;
  onBehalfOf: { adminId: number; note: string } | null;
};

export type TimelineRow = {
  sequence: number;
  position: string;
  at: string;
  action: 'given' | 'withdrawn';
  type: number;
  title: string;
  textVersion: string;
  channel: string;
  ip: string | null;
  userAgent: string | null;
  recordedBy: { id: number; name: string } | null;
  note: string | null;
  hash: string;
};

export type Verification = { valid: boolean; checked: number; broken: { index: number; position: string | null; reason: string; message: string } | null };

export type MyConsents = { texts: ConsentText[]; standings: Standing[]; missing: number[]; history: TimelineRow[] };

export type AuditUser = { id: number; fullName: string; username: string; email: string };

export type AuditHistory = { user: AuditUser; asOf: string | null; standing: Standing[]; timeline: TimelineRow[]; verification: Verification };

export const myConsentsQuery = queryOptions({
  queryKey: ['consents', 'me'],
  queryFn: ({ signal }) => api<MyConsents>('GET', '/users/me/consents', { signal }),
});

export const giveConsents = (consents: { type: number; textVersion: string }[]) =>
  api<{ changed: number[] }>('POST', '/users/me/consents', { body: { consents, channel: 'web' } });

export const withdrawConsent = (type: number) => api<{ changed: number[] }>('POST', `/users/me/consents/${type}/withdraw`);

export const searchAuditUsers = (search: string) => api<{ items: AuditUser[] }>('GET', '/consents/users', { query: { search } });

export const auditHistoryQuery = (userId: number, asOf: string | null) =>
  queryOptions({
    queryKey: ['consents', 'audit', userId, asOf],
    queryFn: ({ signal }) => api<AuditHistory>('GET', `/users/${userId}/consents/history`, { query: { asOf }, signal }),
  });

export const verifyConsentChain = (userId: number) => api<Verification>('GET', `/users/${userId}/consents/verify`);

export const downloadConsentHistory = (userId: number, format: 'xlsx' | 'pdf', asOf: string | null) =>
  downloadFile(`/api/users/${userId}/consents/history.${format}${asOf ? `?asOf=${encodeURIComponent(asOf)}` : ''}`, `privolitve-${userId}.${format}`);

export const recordConsentOnBehalf = (userId: number, entry: { action: 'give' | 'withdraw'; type: number; note: string }) =>
  api<{ changed: number[] }>('POST', `/users/${userId}/consents`, { body: entry });
