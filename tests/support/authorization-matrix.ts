import { CONSENT_TEXTS } from '../../domain/consents/consent.rules.ts';
import { scorm12Package } from './content-packages.ts';
import { importXlsx } from './import-files.ts';
import { all, allows, any, community, membership, PUBLIC, profile, type Rule, SIGNED_IN, type SignedIn, system } from './spec-access.ts';

/** A PUT replaces the whole record: the optional fields of a unit and a company, sent empty. */
const NO_UNIT_DETAILS = { tagId: null, address: null, city: null, zip: null, region: null, vat: null, externalId: null, syncDestination: null };
const NO_COMPANY_DETAILS = {
  city: null,
  zip: null,
  region: null,
  tagId: null,
  vat: null,
  parentCompanyId: null,
  externalId: null,
  syncDestination: null,
  financial: null,
};

/**
 * The authorization matrix (decision 0016): for every API route, who must be let in and who not,
 * as spec §6 grants it (tests/support/spec-access.ts restates the spec's words). A case is one
 * request (or a short sequence) against the fixture of tests/int/authorization-matrix.int.spec.ts;
 * `allow` is who must get a 2xx, `hideFrom` who is refused with 404 rather than 403 because the
 * record lies outside a reach they hold elsewhere (the id must not tell them it exists).
 * Anonymous callers get 401 wherever the route is not public.
 */

export type Fixture = {
  readonly companyA: number;
  readonly companyB: number;
  readonly unitA1: number;
  readonly unitA2: number;
  readonly unitB1: number;
  readonly unitJoin: number;
  readonly group: number;
  readonly profession: number;
  readonly professionGroup: number;
  readonly unitTag: number;
  readonly signatureFile: number;
  readonly courseA: number;
  readonly courseB: number;
  readonly coursePublic: number;
  readonly courseEdit: number;
  /** Courses a client authored in its community (spec §6 course 2005): one by the fixture's client in A1, one by a client in B1. */
  readonly courseOwnedA1: number;
  readonly courseOwnedB1: number;
  readonly blockOwnedA1: number;
  readonly blocksA: { readonly video: number; readonly quiz: number; readonly nps: number };
  readonly blocksB: { readonly nps: number };
  readonly blockEdit: number;
  readonly academy: number;
  readonly postA: number;
  readonly postB: number;
  readonly newsletter: number;
  /** News items (issue 16): one for everyone, one for unit A1, one for unit B1, all on now at location 1. */
  readonly news: { readonly everyone: number; readonly a1: number; readonly b1: number };
  /** Course reports (issue 17 item 3) the admin generated: one of course A, one of course B. */
  readonly reports: { readonly a: number; readonly b: number };
  readonly users: Readonly<Record<SignedIn | 'participantB' | 'newcomer', number>>;
};

/** Ways to make a fresh record for a case that changes or removes one (made by the admin, before the principal's request). */
export type Fresh = {
  readonly company: () => Promise<number>;
  readonly unit: (companyId: number) => Promise<number>;
  readonly group: () => Promise<number>;
  readonly course: () => Promise<number>;
  readonly block: (courseId: number) => Promise<number>;
  /** A PNG offered with the course; its file id. */
  readonly attachment: (courseId: number) => Promise<number>;
  readonly academy: () => Promise<number>;
  readonly post: (author: SignedIn | 'participantB', courseId: number) => Promise<number>;
  readonly loginToken: (userId: number) => Promise<string>;
  readonly tag: () => Promise<number>;
  readonly newsletter: () => Promise<number>;
  readonly news: () => Promise<number>;
  readonly profession: () => Promise<number>;
  /** A participant of the unit, made by the admin (issue 14). */
  readonly user: (unitId: number, companyId: number) => Promise<number>;
  /** An open change request filed by the fixture's manager about a user of A1. */
  readonly changeRequest: (userId: number) => Promise<string>;
  /** A clean users import of one row (issue 17), uploaded by the admin and not started; its id. */
  readonly userImport: () => Promise<number>;
  /** An export the admin asked for (issue 17 item 2); with no job queue in the fixture it stays initiated. */
  readonly export: (request: { kind: string; parameters: object }) => Promise<number>;
};

export type MatrixRequest = {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  readonly url: string;
  readonly body?: unknown;
  /** Raw bytes with their content type (uploads). */
  readonly raw?: { readonly contentType: string; readonly bytes: Buffer };
  /** Sent with a session of its own, opened just before (logout ends the session it is sent with). */
  readonly ownSession?: boolean;
};

export type MatrixCase = {
  /** The route as the catalogue names it: `PUT /api/units/:id`. */
  readonly route: string;
  readonly label: string;
  readonly allow: Rule;
  readonly hideFrom?: Rule;
  /** Who is refused with 400 on a body field: an id the body names lies outside their reach (decision 0047). */
  readonly refusedByField?: Rule;
  /** What those let in get, when it is not a 2xx: a link route answers a made-up token with 401 whoever calls. */
  readonly outcome?: number;
  readonly requests: (f: Fixture, fresh: Fresh, who: SignedIn | 'anonymous', tag: string) => Promise<MatrixRequest[]> | MatrixRequest[];
};

const one = (method: MatrixRequest['method'], url: string, body?: unknown): MatrixRequest[] => [{ method, url, ...(body === undefined ? {} : { body }) }];

/** The join unit lies in company A: those with a role there join it (decision 0009). */
const JOINS_A: Rule = { belongsTo: 'companyA' };
const COURSE_READERS = any(membership(2003), community(2004), system(1017));
const BLOCK_READERS = any(membership(2004), community(1027), system(1023));
const POST_READERS = any(membership(2008), community(1035), system(1031));
const POST_WRITERS = any(membership(1040), community(1042), system(1041));
/** Whoever reaches some kind of export (decision 0026). */
const EXPORT_REACH = any(system(1004), system(1017), system(1056), system(1052), system(1070), community(2009));
const profileBody = (f: Fixture) => ({ firstName: 'Preizkus', lastName: 'Matrike', phone: '041 000 000', professionId: f.profession });
const png = () =>
  Buffer.from(
    '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a7c8a2e40000000049454e44ae426082',
    'hex',
  );
/** A news item on now (issue 16), for everyone unless `recipients` says otherwise. */
export const newsBody = (title: string, active: boolean, recipients: Record<string, number[]> = {}) => ({
  title,
  htmlContent: '<p>Novica matrike.</p>',
  active,
  dateFrom: new Date(Date.now() - 3_600_000).toISOString(),
  dateTo: new Date(Date.now() + 7 * 86_400_000).toISOString(),
  location: 1,
  recipients: { professionIds: [], companyIds: [], unitIds: [], groupIds: [], ...recipients },
});
/** A browser's push subscription (PushSubscription.toJSON()) at a configured push service, one per case and principal. */
const pushSubscriptionBody = (tag: string) => ({
  endpoint: `https://fcm.googleapis.com/fcm/send/matrix-${tag.replace(/\W/g, '')}`,
  expirationTime: null,
  keys: { p256dh: Buffer.alloc(65, 4).toString('base64url'), auth: Buffer.alloc(16, 7).toString('base64url') },
});
const consentsGiven = CONSENT_TEXTS.map((t) => ({ type: t.type, textVersion: t.version }));

export const MATRIX: readonly MatrixCase[] = [
  // ------------------------------------------------------------------ system and auth
  ...['/api/health', '/api/metrics', '/api/features', '/api/version'].map(
    (url): MatrixCase => ({ route: `GET ${url}`, label: 'public', allow: PUBLIC, requests: () => one('GET', url) }),
  ),
  {
    route: 'POST /api/auth/login',
    label: "anyone logs in with a participant's password",
    allow: PUBLIC,
    requests: () => one('POST', '/api/auth/login', { usernameOrEmail: 'mparticipant', password: 'Geslo1234!' }),
  },
  {
    route: 'POST /api/auth/logout',
    label: 'ends the session it is sent with',
    allow: PUBLIC,
    requests: () => [{ method: 'POST', url: '/api/auth/logout', ownSession: true }],
  },
  {
    route: 'POST /api/auth/token',
    label: 'exchanges a one-time token',
    allow: PUBLIC,
    requests: async (f, fresh) => one('POST', '/api/auth/token', { token: await fresh.loginToken(f.users.participant) }),
  },
  {
    route: 'POST /api/auth/token/:userId',
    label: 'log in as (1008)',
    allow: system(1008),
    requests: (f) => one('POST', `/api/auth/token/${f.users.participant}`),
  },
  {
    route: 'POST /api/users/:userId/login-tokens',
    label: 'login-token export (1066)',
    allow: system(1066),
    requests: (f) => one('POST', `/api/users/${f.users.participant}/login-tokens`),
  },

  // ------------------------------------------------------------------ identity (issue 13): public routes answer alike for everyone
  {
    route: 'POST /api/auth/register',
    label: 'anyone registers',
    allow: PUBLIC,
    requests: (f, _fresh, _who, tag) => {
      const name = `reg${tag.replace(/\W/g, '')}`;
      return one('POST', '/api/auth/register', {
        username: name,
        email: `${name}@registracija.si`,
        password: 'Geslo1234!',
        passwordConfirmation: 'Geslo1234!',
        firstName: 'Nova',
        middleName: 'Oseba',
        lastName: 'Matrike',
        phone: '041 000 000',
        professionId: f.profession,
        consents: [1, 2, 3, 4],
      });
    },
  },
  ...(
    [
      ['POST /api/auth/register/confirm', '/api/auth/register/confirm', { token: `1.${'x'.repeat(43)}` }],
      [
        'POST /api/auth/password-reset/complete',
        '/api/auth/password-reset/complete',
        { token: `1.${'x'.repeat(43)}`, password: 'Geslo1234!', passwordConfirmation: 'Geslo1234!' },
      ],
      ['POST /api/auth/email-change/confirm', '/api/auth/email-change/confirm', { token: `1.${'x'.repeat(43)}` }],
      ['POST /api/auth/2fa', '/api/auth/2fa', { auth2FAToken: 'ponarejeno', code: '123456' }],
      ['POST /api/auth/2fa/resend', '/api/auth/2fa/resend', { auth2FAToken: 'ponarejeno' }],
    ] as const
  ).map(
    ([route, url, body]): MatrixCase => ({
      route,
      label: 'a made-up token: 401 for anyone',
      allow: PUBLIC,
      outcome: 401,
      requests: () => one('POST', url, body),
    }),
  ),
  ...(['/api/auth/register/resend', '/api/auth/password-reset'] as const).map(
    (url): MatrixCase => ({
      route: `POST ${url}`,
      label: 'the same answer for anyone',
      allow: PUBLIC,
      requests: () => one('POST', url, { email: 'nekdo@registracija.si' }),
    }),
  ),
  { route: 'GET /api/auth/social', label: 'providers', allow: PUBLIC, requests: () => one('GET', '/api/auth/social') },
  {
    route: 'GET /api/auth/social/:platform/start',
    label: 'no provider configured: back to /prijava',
    allow: PUBLIC,
    outcome: 302,
    requests: () => one('GET', '/api/auth/social/google/start'),
  },
  {
    route: 'GET /api/auth/social/:platform/callback',
    label: 'not started here: back to /prijava',
    allow: PUBLIC,
    outcome: 302,
    requests: () => one('GET', '/api/auth/social/google/callback?code=x&state=y'),
  },
  {
    route: 'GET /api/redirect/:id',
    label: 'a made-up provider code: 401 for anyone',
    allow: PUBLIC,
    outcome: 401,
    requests: () => one('GET', '/api/redirect/0?provider=google&user=ponarejeno'),
  },

  // ------------------------------------------------------------------ one's own account
  { route: 'GET /api/users/me', label: 'oneself', allow: SIGNED_IN, requests: () => one('GET', '/api/users/me') },
  ...userAdminCases(),
  {
    route: 'GET /api/users/deletion-requests',
    label: 'the queue of deletion requests (1004)',
    allow: system(1004),
    requests: () => one('GET', '/api/users/deletion-requests'),
  },
  {
    route: 'POST /api/users/me/password-reset',
    label: 'a reset link to oneself (1021)',
    allow: profile(1021),
    requests: () => one('POST', '/api/users/me/password-reset'),
  },
  {
    route: 'POST /api/users/me/email-change',
    label: 'own e-mail change (1022)',
    allow: profile(1022),
    requests: (_f, _fresh, _who, tag) =>
      one('POST', '/api/users/me/email-change', { email: `nov${tag.replace(/\W/g, '')}@sprememba.si`, password: 'Geslo1234!' }),
  },
  {
    route: 'PUT /api/users/me/second-factor',
    label: 'own second factor (1003)',
    allow: profile(1003),
    requests: () => one('PUT', '/api/users/me/second-factor', { enabled: false, password: 'Geslo1234!' }),
  },
  {
    route: 'POST /api/users/onesignal',
    label: 'own push preference (1001)',
    allow: profile(1001),
    requests: () => one('POST', '/api/users/onesignal', { onesignalEnabled: 1 }),
  },
  // Push (issue 16 item 4): the key is public by design; a browser's subscription is one's own (1001, like the preference).
  { route: 'GET /api/push/public-key', label: 'public (the VAPID public key)', allow: PUBLIC, requests: () => one('GET', '/api/push/public-key') },
  {
    route: 'POST /api/users/me/push-subscriptions',
    label: 'own browser subscribed (1001)',
    allow: profile(1001),
    requests: (_f, _fresh, _who, tag) => one('POST', '/api/users/me/push-subscriptions', pushSubscriptionBody(tag)),
  },
  {
    route: 'DELETE /api/users/me/push-subscriptions',
    label: 'own browser unsubscribed (1001)',
    allow: profile(1001),
    requests: (_f, _fresh, _who, tag) => [
      { method: 'POST', url: '/api/users/me/push-subscriptions', body: pushSubscriptionBody(`d${tag}`) },
      { method: 'DELETE', url: '/api/users/me/push-subscriptions', body: { endpoint: pushSubscriptionBody(`d${tag}`).endpoint } },
    ],
  },
  {
    route: 'DELETE /api/users/me/social/:platform',
    label: 'unbind own account (1003)',
    allow: profile(1003),
    requests: () => one('DELETE', '/api/users/me/social/google'),
  },
  {
    route: 'POST /api/users/me/social/:platform/bind',
    label: 'bind own account (1003); no provider here, so refused as unavailable',
    allow: profile(1003),
    outcome: 400,
    requests: () => one('POST', '/api/users/me/social/facebook/bind'),
  },
  { route: 'PUT /api/users/me', label: 'own profile (1001)', allow: profile(1001), requests: (f) => one('PUT', '/api/users/me', profileBody(f)) },
  {
    route: 'PUT /api/users/me/password',
    label: 'own password (1003), changed and changed back',
    allow: profile(1003),
    requests: () => [
      { method: 'PUT', url: '/api/users/me/password', body: { currentPassword: 'Geslo1234!', password: 'Drugo1234!', passwordConfirmation: 'Drugo1234!' } },
      { method: 'PUT', url: '/api/users/me/password', body: { currentPassword: 'Drugo1234!', password: 'Geslo1234!', passwordConfirmation: 'Geslo1234!' } },
    ],
  },
  {
    route: 'POST /api/users/me/deletion-request',
    label: 'own deletion request (1002)',
    allow: profile(1002),
    requests: () => one('POST', '/api/users/me/deletion-request', {}),
  },
  {
    route: 'DELETE /api/users/me',
    label: 'delete own account at once (1002, delete-account feature on); a wrong password keeps the fixture',
    allow: profile(1002),
    outcome: 400,
    requests: () => one('DELETE', '/api/users/me', { password: 'ni-pravo-geslo' }),
  },
  { route: 'GET /api/users/me/consents', label: 'own consents', allow: SIGNED_IN, requests: () => one('GET', '/api/users/me/consents') },
  {
    route: 'POST /api/users/me/consents',
    label: 'gives own consents',
    allow: SIGNED_IN,
    requests: () => one('POST', '/api/users/me/consents', { consents: consentsGiven }),
  },
  {
    route: 'POST /api/users/me/consents/:type/withdraw',
    label: 'withdraws an own consent, then gives it again',
    allow: SIGNED_IN,
    requests: () => [
      { method: 'POST', url: '/api/users/me/consents/4/withdraw' },
      { method: 'POST', url: '/api/users/me/consents', body: { consents: consentsGiven } },
    ],
  },
  { route: 'GET /api/live', label: 'live stream', allow: SIGNED_IN, requests: () => one('GET', '/api/live') },

  // ------------------------------------------------------------------ consents of others (admin on behalf 1006; auditor 1070)
  {
    route: 'POST /api/users/:id/consents',
    label: "records a consent on the user's behalf (1006)",
    allow: system(1006),
    requests: (f) => one('POST', `/api/users/${f.users.participant}/consents`, { action: 'give', type: 1, note: 'Podpisan obrazec.' }),
  },
  { route: 'GET /api/consents/users', label: 'audit search (1070)', allow: system(1070), requests: () => one('GET', '/api/consents/users?search=mpart') },
  ...['history', 'verify', 'history.xlsx', 'history.pdf'].map(
    (path): MatrixCase => ({
      route: `GET /api/users/:id/consents/${path}`,
      label: `audit ${path} (1070)`,
      allow: system(1070),
      requests: (f) => one('GET', `/api/users/${f.users.participant}/consents/${path}`),
    }),
  ),
  {
    route: 'GET /api/users/:id/consents/contact',
    label: 'may we contact (1070)',
    allow: system(1070),
    requests: (f) => one('GET', `/api/users/${f.users.participant}/consents/contact?channel=email`),
  },
  // Decision 0052: a signed checkpoint of the consent log, then a user's receipt against it (the checkpoint row comes first).
  {
    route: 'POST /api/consents/checkpoints',
    label: 'sign a consent checkpoint (1070)',
    allow: system(1070),
    requests: () => one('POST', '/api/consents/checkpoints'),
  },
  {
    route: 'GET /api/users/:id/consents/receipt',
    label: 'consent receipt (1070)',
    allow: system(1070),
    requests: (f) => one('GET', `/api/users/${f.users.participant}/consents/receipt`),
  },
  // Issue 36 item 3 (decision 0064): a course's approval trail and its exports, for auditors and admins (1072).
  {
    route: 'GET /api/approval-trail/courses',
    label: 'find a course to audit (1072)',
    allow: system(1072),
    requests: () => one('GET', '/api/approval-trail/courses?search=te'),
  },
  ...['trail', 'trail.xlsx', 'trail.pdf'].map(
    (path): MatrixCase => ({
      route: `GET /api/courses/:id/approval/${path}`,
      label: `approval ${path} (1072)`,
      allow: system(1072),
      requests: (f) => one('GET', `/api/courses/${f.courseA}/approval/${path}`),
    }),
  ),
  // Issue 36 item 2 (decision 0063): approval settings (read 1011, set 1073), a course's approval (its editors, named approvers, 1072), submit, sign (1071).
  {
    route: 'GET /api/approval-settings/:scope',
    label: 'approval settings (1011)',
    allow: system(1011),
    requests: () => one('GET', '/api/approval-settings/platform'),
  },
  {
    route: 'PUT /api/approval-settings/:scope',
    label: 'set approval settings (1073, admins only); left off, so no course changes',
    allow: system(1073),
    requests: (f) =>
      one('PUT', `/api/approval-settings/${f.companyB}`, {
        enabled: false,
        codePrefix: 'MATR',
        steps: [{ key: 'medical', label: 'Medicinski pregled', approverIds: [] }],
      }),
  },
  {
    route: 'GET /api/courses/:id/approval',
    label: "a platform course's approval (1019, 1072; an approver only of the scopes that name them)",
    allow: any(system(1019), system(1072)),
    hideFrom: any(community(2006), system(1071)),
    requests: (f) => one('GET', `/api/courses/${f.courseEdit}/approval`),
  },
  {
    route: 'GET /api/courses/:id/approval',
    label: "A1's own course's approval (1019, 1072, or 2006 in A1)",
    allow: any(system(1019), system(1072), community(2006, 'A1')),
    hideFrom: any(community(2006), system(1071)),
    requests: (f) => one('GET', `/api/courses/${f.courseOwnedA1}/approval`),
  },
  {
    route: 'GET /api/courses/:id/approval/versions/:approvalVersion/content',
    label: 'content of a version never submitted: 404 for who may read the approval',
    allow: any(system(1019), system(1072)),
    hideFrom: any(community(2006), system(1071)),
    outcome: 404,
    requests: (f) => one('GET', `/api/courses/${f.courseEdit}/approval/versions/1/content`),
  },
  {
    route: 'GET /api/courses/:id/approval/versions/:approvalVersion/names',
    label: 'names of what a version never submitted names: 404 for who may read the approval',
    allow: any(system(1019), system(1072)),
    hideFrom: any(community(2006), system(1071)),
    outcome: 404,
    requests: (f) => one('GET', `/api/courses/${f.courseEdit}/approval/versions/1/names`),
  },
  {
    route: 'POST /api/courses/:id/approval/submit',
    label: "submit (the course's editors, 1019); approval is off in the platform's scope, so refused with 422",
    allow: system(1019),
    hideFrom: community(2006),
    outcome: 422,
    requests: (f) => one('POST', `/api/courses/${f.courseEdit}/approval/submit`, { contentHash: '0'.repeat(64) }),
  },
  {
    route: 'POST /api/courses/:id/approval/withdraw',
    label: "withdraw (the course's editors, 1019); nothing waits, so 409",
    allow: system(1019),
    hideFrom: community(2006),
    outcome: 409,
    requests: (f) => one('POST', `/api/courses/${f.courseEdit}/approval/withdraw`, { approvalVersion: 1 }),
  },
  {
    route: 'POST /api/courses/:id/approval/sign',
    label: 'sign (1071, with the password); nothing waits, so 409',
    allow: system(1071),
    outcome: 409,
    requests: (f) =>
      one('POST', `/api/courses/${f.courseEdit}/approval/sign`, {
        approvalVersion: 1,
        step: 'medical',
        decision: 'approved',
        contentHash: '0'.repeat(64),
        password: 'Geslo1234!',
      }),
  },
  {
    route: 'POST /api/courses/:id/approval/sign/code',
    label: "a signature's second-factor code (1071); the fixture's signers have no second factor, so 422",
    allow: system(1071),
    outcome: 422,
    requests: (f) => one('POST', `/api/courses/${f.courseEdit}/approval/sign/code`),
  },
  {
    route: 'GET /api/approvals/inbox',
    label: "what waits for the caller's signature (1071)",
    allow: system(1071),
    requests: () => one('GET', '/api/approvals/inbox'),
  },

  // ------------------------------------------------------------------ companies
  {
    route: 'POST /api/companies',
    label: 'create (1010)',
    allow: system(1010),
    requests: (_f, _fresh, _who, tag) => one('POST', '/api/companies', { name: `Podjetje ${tag}`, address: 'Cesta 1' }),
  },
  {
    route: 'PUT /api/companies/:id',
    label: 'update (1011)',
    allow: system(1011),
    requests: (f) => one('PUT', `/api/companies/${f.companyA}`, { ...NO_COMPANY_DETAILS, name: 'Podjetje A', address: 'Cesta 1' }),
  },
  {
    route: 'PUT /api/companies/:id/signature',
    label: 'signature (1011)',
    allow: system(1011),
    requests: (f) => one('PUT', `/api/companies/${f.companyA}/signature`, { name: 'Ana Novak', role: 'Direktorica', imageFileId: f.signatureFile }),
  },
  {
    route: 'DELETE /api/companies/:id',
    label: 'delete an empty company (1012)',
    allow: system(1012),
    requests: async (_f, fresh) => one('DELETE', `/api/companies/${await fresh.company()}`),
  },
  {
    route: 'GET /api/companies',
    label: 'list (1009, or 2000 somewhere)',
    allow: any(system(1009), community(2000)),
    requests: () => one('GET', '/api/companies'),
  },
  {
    route: 'GET /api/companies/:id',
    label: 'own company (2000 in it)',
    allow: any(system(1009), community(2000, 'companyA')),
    requests: (f) => one('GET', `/api/companies/${f.companyA}`),
  },
  {
    route: 'GET /api/companies/:id',
    label: 'another company: hidden from community readers',
    allow: system(1009),
    hideFrom: community(2000),
    requests: (f) => one('GET', `/api/companies/${f.companyB}`),
  },

  // ------------------------------------------------------------------ units
  {
    route: 'POST /api/units',
    label: 'create (1010)',
    allow: system(1010),
    requests: (f, _fresh, _who, tag) => one('POST', '/api/units', { name: `Enota ${tag}`, companyId: f.companyA }),
  },
  ...(['A1', 'A2', 'B1'] as const).flatMap((place): MatrixCase[] => {
    const unitOf = (f: Fixture) => (place === 'A1' ? f.unitA1 : place === 'A2' ? f.unitA2 : f.unitB1);
    const companyOf = (f: Fixture) => (place === 'B1' ? f.companyB : f.companyA);
    return [
      {
        route: 'PUT /api/units/:id',
        label: `update unit ${place} (1011, or 2001 there)`,
        allow: any(system(1011), community(2001, place)),
        hideFrom: community(2001),
        requests: (f) => one('PUT', `/api/units/${unitOf(f)}`, { ...NO_UNIT_DETAILS, name: `Enota ${place}`, companyId: companyOf(f) }),
      },
      ...(['publish', 'unpublish'] as const).map(
        (action): MatrixCase => ({
          route: `POST /api/units/:id/${action}`,
          label: `${action} unit ${place}`,
          allow: any(system(1011), community(2001, place)),
          hideFrom: community(2001),
          // Unit A1 is published again at once: the course fixture needs it so.
          requests: (f) =>
            action === 'unpublish' && place === 'A1'
              ? [
                  { method: 'POST', url: `/api/units/${unitOf(f)}/unpublish` },
                  { method: 'POST', url: `/api/units/${unitOf(f)}/publish` },
                ]
              : one('POST', `/api/units/${unitOf(f)}/${action}`),
        }),
      ),
      {
        route: 'PUT /api/units/:id/signature',
        label: `the certificate signature of unit ${place} (issue 18; 1011, or 2001 there)`,
        allow: any(system(1011), community(2001, place)),
        hideFrom: community(2001),
        requests: (f) => one('PUT', `/api/units/${unitOf(f)}/signature`, { name: 'Maja Kos', role: 'Vodja enote', imageFileId: f.signatureFile }),
      },
      {
        route: 'DELETE /api/units/:id/signature',
        label: `unit ${place} signs no more, its company does (issue 18; 1011, or 2001 there)`,
        allow: any(system(1011), community(2001, place)),
        hideFrom: community(2001),
        requests: (f) => one('DELETE', `/api/units/${unitOf(f)}/signature`),
      },
      {
        route: 'GET /api/units/:id',
        label: `read unit ${place} (1009, or 2000 there)`,
        allow: any(system(1009), community(2000, place)),
        hideFrom: community(2000),
        requests: (f) => one('GET', `/api/units/${unitOf(f)}`),
      },
      {
        route: 'GET /api/units/:id/members',
        label: `members of ${place} (1004, or 1051 there)`,
        allow: any(system(1004), community(1051, place)),
        hideFrom: community(1051),
        requests: (f) => one('GET', `/api/units/${unitOf(f)}/members`),
      },
      {
        route: 'POST /api/units/:id/members',
        label: `add a member to ${place} (1006, or 1049 there)`,
        allow: any(system(1006), community(1049, place)),
        hideFrom: community(1049),
        requests: (f) => one('POST', `/api/units/${unitOf(f)}/members`, { userId: f.users.newcomer }),
      },
      {
        route: 'DELETE /api/units/:id/members/:userId',
        label: `remove a member from ${place} (1006, or 1050 there)`,
        allow: any(system(1006), community(1050, place)),
        hideFrom: community(1050),
        requests: (f) => one('DELETE', `/api/units/${unitOf(f)}/members/${f.users.newcomer}`),
      },
    ];
  }),
  {
    route: 'DELETE /api/units/:id',
    label: 'delete an empty unit (1012; 2002 is granted to no community role)',
    allow: any(system(1012), community(2002, 'A2')),
    requests: async (f, fresh) => one('DELETE', `/api/units/${await fresh.unit(f.companyA)}`),
  },
  {
    route: 'POST /api/units/:id/join',
    label: 'join a published unit of the company one belongs to, then leave it (1047, 1048; decision 0009)',
    allow: all(profile(1047), profile(1048), JOINS_A),
    // Who may not join leaves nothing to leave.
    requests: (f, _fresh, who) => [
      { method: 'POST', url: `/api/units/${f.unitJoin}/join` },
      ...(who !== 'anonymous' && allows(who, JOINS_A) ? [{ method: 'POST' as const, url: `/api/units/${f.unitJoin}/leave` }] : []),
    ],
  },
  { route: 'POST /api/units/:id/leave', label: 'leave a unit (1048)', allow: profile(1048), requests: (f) => one('POST', `/api/units/${f.unitJoin}/leave`) },
  {
    route: 'GET /api/units',
    label: 'list (1009, or 1046 read communities)',
    allow: any(system(1009), profile(1046)),
    requests: () => one('GET', '/api/units'),
  },
  {
    route: 'GET /api/communities',
    label: 'lookup by id (1009, or 1046)',
    allow: any(system(1009), profile(1046)),
    requests: (f) => one('GET', `/api/communities?filterIds[]=${f.unitA1}`),
  },
  {
    route: 'GET /api/manager/units',
    label: 'units one runs (2010, 2011, 2012)',
    allow: any(community(2010), community(2011), community(2012)),
    requests: () => one('GET', '/api/manager/units'),
  },

  // ------------------------------------------------------------------ community groups, professions, tags
  {
    route: 'POST /api/community-groups',
    label: 'create (1063)',
    allow: system(1063),
    requests: (f, _fresh, _who, tag) => one('POST', '/api/community-groups', { name: `Skupina ${tag}`, unitIds: [f.unitA1] }),
  },
  {
    route: 'PUT /api/community-groups/:id',
    label: 'update (1063)',
    allow: system(1063),
    requests: (f) => one('PUT', `/api/community-groups/${f.group}`, { name: 'Skupina matrike', unitIds: [f.unitA1, f.unitA2] }),
  },
  {
    route: 'DELETE /api/community-groups/:id',
    label: 'delete (1063)',
    allow: system(1063),
    requests: async (_f, fresh) => one('DELETE', `/api/community-groups/${await fresh.group()}`),
  },
  {
    route: 'GET /api/community-groups',
    label: 'list (1009, 1063)',
    allow: any(system(1009), system(1063)),
    requests: () => one('GET', '/api/community-groups'),
  },
  {
    route: 'GET /api/community-groups/:id',
    label: 'read (1009, 1063)',
    allow: any(system(1009), system(1063)),
    requests: (f) => one('GET', `/api/community-groups/${f.group}`),
  },
  {
    route: 'POST /api/professions',
    label: 'create (1010)',
    allow: system(1010),
    requests: (_f, _fresh, _who, tag) => one('POST', '/api/professions', { name: `Poklic ${tag}` }),
  },
  {
    route: 'PUT /api/professions/:id',
    label: 'update (1011)',
    allow: system(1011),
    requests: (f) => one('PUT', `/api/professions/${f.profession}`, { name: 'Poklic matrike', groupId: f.professionGroup }),
  },
  {
    route: 'DELETE /api/professions/:id',
    label: 'delete a profession nobody holds (1012)',
    allow: system(1012),
    requests: async (_f, fresh) => one('DELETE', `/api/professions/${await fresh.profession()}`),
  },
  { route: 'GET /api/professions', label: 'public (registration lists them)', allow: PUBLIC, requests: () => one('GET', '/api/professions') },
  { route: 'GET /api/professions/:id', label: 'public', allow: PUBLIC, requests: (f) => one('GET', `/api/professions/${f.profession}`) },
  {
    route: 'POST /api/profession-groups',
    label: 'create (1010)',
    allow: system(1010),
    requests: (_f, _fresh, _who, tag) => one('POST', '/api/profession-groups', { name: `Skupina poklicev ${tag}` }),
  },
  {
    route: 'PUT /api/profession-groups/:id',
    label: 'rename (1011)',
    allow: system(1011),
    requests: (f) => one('PUT', `/api/profession-groups/${f.professionGroup}`, { name: 'Skupina poklicev matrike' }),
  },
  { route: 'GET /api/profession-groups', label: 'public', allow: PUBLIC, requests: () => one('GET', '/api/profession-groups') },
  { route: 'GET /api/profession-groups/:id', label: 'public', allow: PUBLIC, requests: (f) => one('GET', `/api/profession-groups/${f.professionGroup}`) },
  {
    route: 'POST /api/tags',
    label: 'create (1062)',
    allow: system(1062),
    requests: (_f, _fresh, _who, tag) => one('POST', '/api/tags', { kind: 'unit', name: `Značka ${tag}` }),
  },
  {
    route: 'PUT /api/tags/:id',
    label: 'update (1062)',
    allow: system(1062),
    requests: (f) => one('PUT', `/api/tags/${f.unitTag}`, { name: 'Značka matrike' }),
  },
  {
    route: 'DELETE /api/tags/:id',
    label: 'delete (1062)',
    allow: system(1062),
    requests: async (_f, fresh) => one('DELETE', `/api/tags/${await fresh.tag()}`),
  },
  {
    route: 'GET /api/tags',
    label: 'list (1062, 1009, 1017)',
    allow: any(system(1062), system(1009), system(1017)),
    requests: () => one('GET', '/api/tags?kind=unit'),
  },
  {
    route: 'GET /api/tags/:id',
    label: 'read (1062, 1009, 1017)',
    allow: any(system(1062), system(1009), system(1017)),
    requests: (f) => one('GET', `/api/tags/${f.unitTag}`),
  },

  // ------------------------------------------------------------------ course authoring (system 1017 to 1026) and deals (1052 to 1055)
  {
    route: 'GET /api/courses',
    label: "admin list (1017); a community's readers (2004) the courses its units own",
    allow: any(system(1017), community(2004)),
    requests: () => one('GET', '/api/courses'),
  },
  {
    route: 'GET /api/courses/:id',
    label: 'as authored (1017); a community reader learns nothing of a platform course',
    allow: system(1017),
    hideFrom: community(2004),
    requests: (f) => one('GET', `/api/courses/${f.courseEdit}`),
  },
  {
    route: 'GET /api/courses/:id',
    label: "as authored: A1's own course to A1's readers (2004)",
    allow: any(system(1017), community(2004, 'A1')),
    hideFrom: community(2004),
    requests: (f) => one('GET', `/api/courses/${f.courseOwnedA1}`),
  },
  {
    route: 'GET /api/courses/:id',
    label: "as authored: B1's own course, not to company A",
    allow: system(1017),
    hideFrom: community(2004),
    requests: (f) => one('GET', `/api/courses/${f.courseOwnedB1}`),
  },
  {
    route: 'POST /api/courses/audience-count',
    label: 'live count of an audience (1017; a client within its company, 2005)',
    allow: any(system(1017), community(2005)),
    requests: (f) => one('POST', '/api/courses/audience-count', { public: false, audience: { unitIds: [f.unitA1] } }),
  },
  {
    route: 'POST /api/courses/audience-count',
    label: "live count of another company's unit: the platform's authors only; a client names it out of reach (400)",
    allow: system(1017),
    refusedByField: community(2005),
    requests: (f) => one('POST', '/api/courses/audience-count', { public: false, audience: { unitIds: [f.unitB1] } }),
  },
  {
    route: 'GET /api/courses/:id/participants',
    label: 'who took the course (1017)',
    allow: system(1017),
    hideFrom: community(2004),
    requests: (f) => one('GET', `/api/courses/${f.courseEdit}/participants`),
  },
  {
    route: 'POST /api/courses',
    label: "create (1018), or a client's course in its unit (2005)",
    allow: any(system(1018), community(2005)),
    requests: (_f, _fresh, _who, tag) =>
      one('POST', '/api/courses', { type: 3, title: `Tečaj ${tag}`, description: 'Opis izobraževanja za matriko pravic.', cover: '/c.jpg', creditPoints: 1 }),
  },
  {
    route: 'POST /api/courses/:id/duplicate',
    label: 'duplicate (1018)',
    allow: system(1018),
    hideFrom: community(2005),
    requests: (f) => one('POST', `/api/courses/${f.courseEdit}/duplicate`),
  },
  {
    route: 'POST /api/courses/:id/duplicate',
    label: "duplicate A1's own course (1018, or 2005 in A1)",
    allow: any(system(1018), community(2005, 'A1')),
    hideFrom: community(2005),
    requests: (f) => one('POST', `/api/courses/${f.courseOwnedA1}/duplicate`),
  },
  {
    route: 'PUT /api/courses/:id',
    label: 'update (1019)',
    allow: system(1019),
    hideFrom: community(2006),
    requests: (f) =>
      one('PUT', `/api/courses/${f.courseEdit}`, {
        type: 3,
        title: 'Urejanje',
        description: 'Opis izobraževanja za matriko pravic.',
        cover: '/c.jpg',
        creditPoints: 1,
      }),
  },
  ...(['courseOwnedA1', 'courseOwnedB1'] as const).map(
    (key): MatrixCase => ({
      route: 'PUT /api/courses/:id',
      label: `update a community's own course (${key}: 1019, or 2006 in its unit)`,
      allow: key === 'courseOwnedA1' ? any(system(1019), community(2006, 'A1')) : system(1019),
      hideFrom: community(2006),
      requests: (f) =>
        one('PUT', `/api/courses/${f[key]}`, {
          type: 3,
          title: 'Urejanje v skupnosti',
          description: 'Opis izobraževanja za matriko pravic.',
          cover: '/c.jpg',
          creditPoints: 1,
          audience: { unitIds: [key === 'courseOwnedA1' ? f.unitA1 : f.unitB1] },
        }),
    }),
  ),
  ...(['publish', 'unpublish', 'archive', 'restore'] as const).map(
    (action): MatrixCase => ({
      route: `POST /api/courses/:id/${action}`,
      label: `${action} (1019)`,
      allow: system(1019),
      hideFrom: community(2006),
      requests: (f) => one('POST', `/api/courses/${f.courseEdit}/${action}`),
    }),
  ),
  {
    route: 'POST /api/courses/:id/unpublish',
    label: "withdraw A1's own course (1019, or 2006 in A1)",
    allow: any(system(1019), community(2006, 'A1')),
    hideFrom: community(2006),
    requests: (f) => one('POST', `/api/courses/${f.courseOwnedA1}/unpublish`),
  },
  {
    route: 'DELETE /api/courses/:id',
    label: 'delete (1020; no role holds 2007)',
    allow: system(1020),
    requests: async (_f, fresh) => one('DELETE', `/api/courses/${await fresh.course()}`),
  },
  {
    route: 'POST /api/courses/:id/blocks',
    label: 'add a block (1024)',
    allow: system(1024),
    hideFrom: community(1028),
    requests: (f) => one('POST', `/api/courses/${f.courseEdit}/blocks`, { block: { kind: 'points', name: 'Točke', points: 1 } }),
  },
  {
    route: 'POST /api/courses/:id/blocks',
    label: "add a block to A1's own course (1024, or 1028 in A1)",
    allow: any(system(1024), community(1028, 'A1')),
    hideFrom: community(1028),
    requests: (f) => one('POST', `/api/courses/${f.courseOwnedA1}/blocks`, { block: { kind: 'points', name: 'Točke', points: 1 } }),
  },
  {
    route: 'PUT /api/courses/:id/blocks/:blockId',
    label: 'update a block (1025)',
    allow: system(1025),
    hideFrom: community(1029),
    requests: (f) => one('PUT', `/api/courses/${f.courseEdit}/blocks/${f.blockEdit}`, { kind: 'points', name: 'Točke za udeležbo', points: 2 }),
  },
  {
    route: 'PUT /api/courses/:id/blocks/:blockId',
    label: "update a block of A1's own course (1025, or 1029 in A1)",
    allow: any(system(1025), community(1029, 'A1')),
    hideFrom: community(1029),
    requests: (f) => one('PUT', `/api/courses/${f.courseOwnedA1}/blocks/${f.blockOwnedA1}`, { kind: 'points', name: 'Točke skupnosti', points: 2 }),
  },
  {
    route: 'POST /api/courses/:id/blocks/:blockId/move',
    label: 'move a block (1025)',
    allow: system(1025),
    hideFrom: community(1029),
    requests: (f) => one('POST', `/api/courses/${f.courseEdit}/blocks/${f.blockEdit}/move`, { position: 0 }),
  },
  {
    route: 'DELETE /api/courses/:id/blocks/:blockId',
    label: 'remove a block (1026; no role holds 1030)',
    allow: system(1026),
    requests: async (f, fresh) => one('DELETE', `/api/courses/${f.courseEdit}/blocks/${await fresh.block(f.courseEdit)}`),
  },
  {
    route: 'GET /api/courses/:id/notifications',
    label: "a course's notifications (1017)",
    allow: system(1017),
    hideFrom: community(2004),
    requests: (f) => one('GET', `/api/courses/${f.courseEdit}/notifications`),
  },
  {
    route: 'GET /api/courses/:id/notifications',
    label: "A1's own course's notifications (1017, or 2004 in A1)",
    allow: any(system(1017), community(2004, 'A1')),
    hideFrom: community(2004),
    requests: (f) => one('GET', `/api/courses/${f.courseOwnedA1}/notifications`),
  },
  {
    route: 'POST /api/courses/:id/notifications',
    label: 'send a notification (1019; each on a fresh course, the 10-minute rule aside)',
    allow: system(1019),
    hideFrom: community(2006),
    requests: async (_f, fresh) => one('POST', `/api/courses/${await fresh.course()}/notifications`, { subject: 'Obvestilo', message: 'Besedilo obvestila.' }),
  },
  {
    route: 'POST /api/courses/:id/attachments',
    label: 'offer an uploaded file with a course (1019)',
    allow: system(1019),
    hideFrom: community(2006),
    requests: (f) => one('POST', `/api/courses/${f.courseEdit}/attachments`, { fileId: f.signatureFile }),
  },
  {
    route: 'DELETE /api/courses/:id/attachments/:fileId',
    label: 'stop offering an attachment (1019)',
    allow: system(1019),
    hideFrom: community(2006),
    requests: async (f, fresh) => one('DELETE', `/api/courses/${f.courseEdit}/attachments/${await fresh.attachment(f.courseEdit)}`),
  },
  {
    route: 'POST /api/courses/:id/costs',
    label: 'agree a deal (1053)',
    allow: system(1053),
    requests: async (f, fresh) => one('POST', `/api/courses/${await fresh.course()}/costs`, { companyId: f.companyA }),
  },
  {
    route: 'PUT /api/courses/:id/costs',
    label: 'change a deal (1054)',
    allow: system(1054),
    requests: (f) => one('PUT', `/api/courses/${f.courseEdit}/costs`, { companyId: f.companyA, discount: 5 }),
  },
  {
    route: 'DELETE /api/courses/:id/costs',
    label: 'withdraw a deal (1055), then agree it again',
    allow: all(system(1055), system(1053)),
    requests: (f) => [
      { method: 'DELETE', url: `/api/courses/${f.courseEdit}/costs` },
      { method: 'POST', url: `/api/courses/${f.courseEdit}/costs`, body: { companyId: f.companyA } },
    ],
  },
  {
    route: 'GET /api/courses/:id/costs',
    label: "costs of a course billed to company A (1052, or 2009 in A's units)",
    allow: any(system(1052), community(2009, 'A1')),
    requests: (f) => one('GET', `/api/courses/${f.courseA}/costs`),
  },
  {
    route: 'GET /api/courses/:id/costs',
    label: "costs of another company's course: hidden from accountants",
    allow: system(1052),
    hideFrom: community(2009),
    requests: (f) => one('GET', `/api/courses/${f.courseB}/costs`),
  },
  {
    route: 'GET /api/companies/:id/costs',
    label: "company A's cost timeline (1052, or 2009 there)",
    allow: any(system(1052), community(2009, 'A1')),
    requests: (f) => one('GET', `/api/companies/${f.companyA}/costs`),
  },

  // ------------------------------------------------------------------ chamber credit points (issue 17 item 6, decision 0030)
  {
    route: 'GET /api/courses/:id/chamber-credits',
    label: "course A's credit points reported to its chamber (1017, 1064)",
    allow: any(system(1017), system(1064)),
    requests: (f) => one('GET', `/api/courses/${f.courseA}/chamber-credits`),
  },
  {
    route: 'GET /api/users/:id/chamber-credits',
    label: "a participant's credit points reported to the chambers (1004)",
    allow: system(1004),
    requests: (f) => one('GET', `/api/users/${f.users.participant}/chamber-credits`),
  },
  {
    route: 'GET /api/users/me/chamber-credits',
    label: 'own credit points reported to the chambers',
    allow: SIGNED_IN,
    requests: () => one('GET', '/api/users/me/chamber-credits'),
  },

  // ------------------------------------------------------------------ exports (issue 17 item 2, decision 0026)
  {
    route: 'GET /api/exports',
    label: 'the exports one may read (1004, 1017, 1056, 1052, 1070, or 2009 somewhere)',
    allow: EXPORT_REACH,
    requests: () => one('GET', '/api/exports'),
  },
  {
    route: 'GET /api/exports/options',
    label: 'what one may export, and the courses and companies to choose from',
    allow: EXPORT_REACH,
    requests: () => one('GET', '/api/exports/options'),
  },
  ...(
    [
      ['users', { companyId: 0, status: 'all' }, system(1004)],
      ['participants', (f: Fixture) => ({ courseId: f.courseA, intervalId: 0 }), system(1017)],
      ['nps', (f: Fixture) => ({ courseId: f.courseA, from: '2026-01-01', to: '2026-12-31' }), system(1056)],
      ['consents', { companyId: 0, from: '2026-01-01', to: '2026-12-31' }, system(1070)],
      ['chambers', { chamber: 1, from: '2026-01-01', to: '2026-12-31' }, system(1017)],
    ] as const
  ).map(
    ([kind, parameters, allow]): MatrixCase => ({
      route: 'POST /api/exports',
      label: `ask for a ${kind} export`,
      allow,
      requests: (f) => one('POST', '/api/exports', { kind, parameters: typeof parameters === 'function' ? parameters(f) : parameters }),
    }),
  ),
  {
    route: 'POST /api/exports',
    label: "ask for company A's costs (1052, or 2009 in A)",
    allow: any(system(1052), community(2009, 'A1')),
    requests: (f) => one('POST', '/api/exports', { kind: 'costs', parameters: { companyId: f.companyA, from: '2026-01-01', to: '2026-12-31' } }),
  },
  {
    route: 'POST /api/exports',
    label: "ask for another company's costs: out of accountants' reach (400 on the company)",
    allow: system(1052),
    refusedByField: community(2009),
    requests: (f) => one('POST', '/api/exports', { kind: 'costs', parameters: { companyId: f.companyB, from: '2026-01-01', to: '2026-12-31' } }),
  },
  ...(
    [
      ['users', () => ({ companyId: 0, status: 'all' }), system(1004)],
      ['costs', (f: Fixture) => ({ companyId: f.companyA, from: '2026-01-01', to: '2026-12-31' }), any(system(1052), community(2009, 'A1'))],
      ['costs', (f: Fixture) => ({ companyId: f.companyB, from: '2026-01-01', to: '2026-12-31' }), system(1052)],
      ['consents', () => ({ companyId: 0, from: '2026-01-01', to: '2026-12-31' }), system(1070)],
    ] as const
  ).map(
    ([kind, parameters, allow]): MatrixCase => ({
      route: 'GET /api/exports/:id/file',
      label: `the file of a ${kind} export still in queue: its readers are told it is not finished (409), others that it does not exist`,
      allow,
      outcome: 409,
      hideFrom: EXPORT_REACH,
      requests: async (f, fresh) => one('GET', `/api/exports/${await fresh.export({ kind, parameters: parameters(f) })}/file`),
    }),
  ),

  // ------------------------------------------------------------------ academies
  { route: 'GET /api/academies', label: 'admin list (1017)', allow: system(1017), requests: () => one('GET', '/api/academies') },
  { route: 'GET /api/academies/:id', label: 'as authored (1017)', allow: system(1017), requests: (f) => one('GET', `/api/academies/${f.academy}`) },
  {
    route: 'POST /api/academies',
    label: 'create (1018)',
    allow: system(1018),
    requests: (f, _fresh, _who, tag) =>
      one('POST', '/api/academies', {
        title: `Akademija ${tag}`,
        description: 'Opis akademije za matriko pravic.',
        cover: '/a.jpg',
        courseIds: [f.coursePublic],
      }),
  },
  {
    route: 'PUT /api/academies/:id',
    label: 'update (1019)',
    allow: system(1019),
    requests: (f) =>
      one('PUT', `/api/academies/${f.academy}`, {
        title: 'Akademija matrike',
        description: 'Opis akademije za matriko pravic.',
        cover: '/a.jpg',
        courseIds: [f.coursePublic, f.courseA],
      }),
  },
  ...(['publish', 'unpublish'] as const).map(
    (action): MatrixCase => ({
      route: `POST /api/academies/:id/${action}`,
      label: `${action} (1019)`,
      allow: system(1019),
      requests: async (_f, fresh) => {
        const id = await fresh.academy();
        return action === 'publish' ? one('POST', `/api/academies/${id}/publish`) : one('POST', `/api/academies/${id}/unpublish`);
      },
    }),
  ),
  {
    route: 'DELETE /api/academies/:id',
    label: 'delete (1020)',
    allow: system(1020),
    requests: async (_f, fresh) => one('DELETE', `/api/academies/${await fresh.academy()}`),
  },
  { route: 'GET /api/user-academies', label: 'academies for the caller', allow: COURSE_READERS, requests: () => one('GET', '/api/user-academies') },
  {
    route: 'GET /api/user-academies/:id',
    label: 'an academy with a public course',
    allow: COURSE_READERS,
    requests: (f) => one('GET', `/api/user-academies/${f.academy}`),
  },

  // ------------------------------------------------------------------ a participant's side of courses
  { route: 'GET /api/user-courses', label: 'course list', allow: COURSE_READERS, requests: () => one('GET', '/api/user-courses') },
  {
    route: 'GET /api/user-courses/:id',
    label: 'a course for unit A1: those with a role in A1 (the audience rule), others 404',
    allow: all(COURSE_READERS, { audience: 'A1' }),
    hideFrom: COURSE_READERS,
    requests: (f) => one('GET', `/api/user-courses/${f.courseA}`),
  },
  {
    route: 'GET /api/user-courses/:id',
    label: 'a public course',
    allow: COURSE_READERS,
    requests: (f) => one('GET', `/api/user-courses/${f.coursePublic}`),
  },
  {
    route: 'GET /api/user-courses/:id',
    label: 'a course of another company: nobody here (404)',
    allow: { only: [] },
    hideFrom: COURSE_READERS,
    requests: (f) => one('GET', `/api/user-courses/${f.courseB}`),
  },
  {
    route: 'GET /api/block',
    label: "blocks of A1's own (unpublished) course, as authored, to A1's block readers (1027)",
    allow: any(system(1023), community(1027, 'A1')),
    hideFrom: BLOCK_READERS,
    requests: (f) => one('GET', `/api/block?course_id=${f.courseOwnedA1}`),
  },
  {
    route: 'GET /api/block',
    label: 'blocks of the A1 course (system 1023 any course)',
    allow: any(system(1023), all(BLOCK_READERS, { audience: 'A1' })),
    hideFrom: BLOCK_READERS,
    requests: (f) => one('GET', `/api/block?course_id=${f.courseA}`),
  },
  {
    route: 'GET /api/record',
    label: 'own records of the A1 course',
    allow: all(COURSE_READERS, { audience: 'A1' }),
    hideFrom: COURSE_READERS,
    requests: (f) => one('GET', `/api/record?course_id=${f.courseA}`),
  },
  {
    route: 'POST /api/user-courses/:id/start',
    label: 'start the A1 course (1045)',
    allow: membership(1045),
    requests: (f) => one('POST', `/api/user-courses/${f.courseA}/start`),
  },
  {
    route: 'POST /api/user-courses/:id/start',
    label: "start another company's course: hidden (404)",
    allow: { only: [] },
    hideFrom: membership(1045),
    requests: (f) => one('POST', `/api/user-courses/${f.courseB}/start`),
  },
  {
    route: 'POST /api/user-courses/:id/blocks/:blockId/open',
    label: 'open the video (1045)',
    allow: membership(1045),
    requests: (f) => one('POST', `/api/user-courses/${f.courseA}/blocks/${f.blocksA.video}/open`),
  },
  {
    route: 'POST /api/user-courses/:id/blocks/:blockId/video-progress',
    label: 'report video progress (1045)',
    allow: membership(1045),
    requests: (f) => one('POST', `/api/user-courses/${f.courseA}/blocks/${f.blocksA.video}/video-progress`, { seconds: 60, duration: 60 }),
  },
  {
    route: 'POST /api/user-courses/:id/blocks/:blockId/alternative',
    label: 'read the alternative (1045)',
    allow: membership(1045),
    requests: (f) => one('POST', `/api/user-courses/${f.courseA}/blocks/${f.blocksA.video}/alternative`),
  },
  {
    route: 'POST /api/user-courses/:id/live/presence',
    label: 'confirm presence at a live webinar (1045; course A has none: the participant is told so, 400)',
    allow: membership(1045),
    outcome: 400,
    requests: (f) => one('POST', `/api/user-courses/${f.courseA}/live/presence`, { checkIndex: 0 }),
  },
  {
    route: 'POST /api/user-courses/:id/blocks/:blockId/quiz',
    label: 'answer the quiz (1045; the auditor is refused by permission, not validation)',
    allow: membership(1045),
    requests: (f) => one('POST', `/api/user-courses/${f.courseA}/blocks/${f.blocksA.quiz}/quiz`, { answers: { q1: 'a' } }),
  },
  {
    route: 'GET /api/user-courses/:id/blocks/:blockId/quiz/attempts',
    label: "own attempts of the A1 course's quiz (issue 33; like the records)",
    allow: all(COURSE_READERS, { audience: 'A1' }),
    hideFrom: COURSE_READERS,
    requests: (f) => one('GET', `/api/user-courses/${f.courseA}/blocks/${f.blocksA.quiz}/quiz/attempts`),
  },
  {
    route: 'POST /api/user-courses/:id/blocks/:blockId/nps',
    label: 'answer the NPS survey (1045)',
    allow: membership(1045),
    requests: (f) => one('POST', `/api/user-courses/${f.courseA}/blocks/${f.blocksA.nps}/nps`, { score: 9 }),
  },
  {
    route: 'GET /api/user-courses/:id/certificate',
    label: 'the certificate of a completed course: its participant only',
    allow: { only: ['participant'] },
    hideFrom: COURSE_READERS,
    requests: (f) => one('GET', `/api/user-courses/${f.courseA}/certificate`),
  },

  // ------------------------------------------------------------------ posts
  {
    route: 'GET /api/post',
    label: 'posts of the A1 course (system 1031 any course)',
    allow: any(system(1031), all(POST_READERS, { audience: 'A1' })),
    hideFrom: POST_READERS,
    requests: (f) => one('GET', `/api/post?courseId=${f.courseA}`),
  },
  {
    route: 'POST /api/post',
    label: 'post on the A1 course (1040, 1042 in the audience, 1041 anywhere)',
    allow: any(system(1041), all(POST_WRITERS, { audience: 'A1' })),
    hideFrom: POST_WRITERS,
    requests: (f) => one('POST', '/api/post', { courseId: f.courseA, message: 'Vprašanje iz matrike.' }),
  },
  {
    route: 'POST /api/post',
    label: "post on another company's course: only system writers; others name it out of reach (400 on courseId)",
    allow: system(1041),
    refusedByField: POST_WRITERS,
    requests: (f) => one('POST', '/api/post', { courseId: f.courseB, message: 'Vprašanje iz matrike.' }),
  },
  {
    route: 'PUT /api/post/:id',
    label: "edit the participant's post: the author (1043), system (1033), a client of the author's unit (1036); hidden from those who do not see the course",
    allow: any({ only: ['participant'] }, system(1033), community(1036, 'A1')),
    hideFrom: { not: { audience: 'A1' } },
    requests: (f) => one('PUT', `/api/post/${f.postA}`, { message: 'Popravljeno besedilo.' }),
  },
  {
    route: 'PUT /api/post/:id',
    label: "edit a post on another company's course: hidden from everyone but system moderators",
    allow: system(1033),
    hideFrom: SIGNED_IN,
    requests: (f) => one('PUT', `/api/post/${f.postB}`, { message: 'Popravljeno besedilo.' }),
  },
  {
    route: 'DELETE /api/post/:id',
    label: "delete the participant's post: the author (1044), system (1039); 1037 is granted to no community role",
    allow: any({ only: ['participant'] }, system(1039), community(1037, 'A1')),
    hideFrom: { not: { audience: 'A1' } },
    requests: async (f, fresh) => one('DELETE', `/api/post/${await fresh.post('participant', f.courseA)}`),
  },
  // The course team (issue 15): system ids anywhere, community ids in the company of the post's course.
  {
    route: 'POST /api/post/:id/team-replies',
    label: "reply as the team to the participant's post: system 1041, or 1042 in company A (the course's company)",
    allow: any(system(1041), community(1042, 'companyA')),
    hideFrom: community(1042),
    requests: (f) => one('POST', `/api/post/${f.postA}/team-replies`, { message: 'Odgovor ekipe iz matrike.' }),
  },
  {
    route: 'POST /api/post/:id/team-replies',
    label: "reply as the team on another company's course: only system writers",
    allow: system(1041),
    hideFrom: community(1042),
    requests: (f) => one('POST', `/api/post/${f.postB}/team-replies`, { message: 'Odgovor ekipe iz matrike.' }),
  },
  {
    route: 'PUT /api/post/:id/hidden',
    label: "hide a participant's post: system 1033, or 1036 in company A (the course's company)",
    allow: any(system(1033), community(1036, 'companyA')),
    hideFrom: community(1036),
    requests: async (f, fresh) => one('PUT', `/api/post/${await fresh.post('participant', f.courseA)}/hidden`, { hidden: true }),
  },
  {
    route: 'PUT /api/post/:id/hidden',
    label: "hide a post on another company's course: only system moderators",
    allow: system(1033),
    hideFrom: community(1036),
    requests: async (f, fresh) => one('PUT', `/api/post/${await fresh.post('participantB', f.courseB)}/hidden`, { hidden: true }),
  },
  {
    route: 'PUT /api/post/:id/answered',
    label: "mark a participant's question answered: system 1033, or 1036 in company A (the course's company)",
    allow: any(system(1033), community(1036, 'companyA')),
    hideFrom: community(1036),
    requests: async (f, fresh) => one('PUT', `/api/post/${await fresh.post('participant', f.courseA)}/answered`, { answered: true }),
  },
  {
    route: 'PUT /api/post/:id/answered',
    label: "mark a question on another company's course answered: only system moderators",
    allow: system(1033),
    hideFrom: community(1036),
    requests: (f) => one('PUT', `/api/post/${f.postB}/answered`, { answered: true }),
  },

  // ------------------------------------------------------------------ public surveys (issue 17, /anketa)
  {
    route: 'GET /api/surveys/:id',
    label: 'a survey to answer: public; course A is no survey, so anyone is told it is missing (404)',
    allow: PUBLIC,
    outcome: 404,
    requests: (f) => one('GET', `/api/surveys/${f.courseA}`),
  },
  {
    route: 'POST /api/surveys/:id/answers',
    label: 'answer a survey: public; course A is no survey (404)',
    allow: PUBLIC,
    outcome: 404,
    requests: (f) => one('POST', `/api/surveys/${f.courseA}/answers`, { ballot: 'glasovnica', answers: [{ blockId: f.blocksA.nps, score: 9 }] }),
  },

  // ------------------------------------------------------------------ certificate verification (issue 18 item 3, /certifikat)
  {
    route: 'GET /api/certificates/:number',
    label: 'verify a certificate by its number: public; a forged number is no certificate (404)',
    allow: PUBLIC,
    outcome: 404,
    requests: () => one('GET', '/api/certificates/ML-2026-ABCDE-FGHJK'),
  },

  // ------------------------------------------------------------------ the embeddable course list (issue 17 item 7, /glp)
  {
    route: 'GET /api/public-courses',
    label: 'public, published courses running now: public',
    allow: PUBLIC,
    requests: () => one('GET', '/api/public-courses'),
  },

  // ------------------------------------------------------------------ files
  {
    route: 'POST /api/files',
    label: "upload (1011, 1019, 1025, 1065; a community's authors 2006, 1029; a unit's signature image 2001)",
    allow: any(system(1011), system(1019), system(1025), system(1065), community(2006), community(1029), community(2001)),
    requests: () => [{ method: 'POST', url: '/api/files?name=slika.png', raw: { contentType: 'image/png', bytes: png() } }],
  },
  {
    route: 'GET /api/files/:id',
    label: "company A's signature: authors and those who read company A (2000); others 404",
    allow: any(system(1011), system(1019), system(1025), system(1065), system(1009), community(2000, 'companyA')),
    hideFrom: SIGNED_IN,
    requests: (f) => one('GET', `/api/files/${f.signatureFile}`),
  },

  {
    route: 'POST /api/videos',
    label: "upload a course video (1024, 1025; a community's authors 1028, 1029)",
    allow: any(system(1024), system(1025), community(1028), community(1029)),
    requests: () => [
      {
        method: 'POST',
        url: '/api/videos?name=uvod.mp4',
        raw: { contentType: 'video/mp4', bytes: Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmp42', 'latin1'), Buffer.alloc(64)]) },
      },
    ],
  },

  // ------------------------------------------------------------------ SCORM and cmi5 packages (issue 35)
  {
    route: 'POST /api/packages',
    label: "upload a package (1024, 1025; a community's authors 1028, 1029), as videos",
    allow: any(system(1024), system(1025), community(1028), community(1029)),
    requests: () => [{ method: 'POST', url: '/api/packages?name=paket.zip', raw: { contentType: 'application/zip', bytes: scorm12Package() } }],
  },
  {
    route: 'GET /api/packages/:id',
    label: 'what a package holds (its uploader, or 1025 anywhere): a made-up one is missing (404) to those let in',
    allow: any(system(1024), system(1025), community(1028), community(1029)),
    outcome: 404,
    requests: () => one('GET', '/api/packages/999999'),
  },
  {
    route: 'POST /api/user-courses/:id/blocks/:blockId/package/launch',
    label: 'launch a package item (1045; course A has no package block: 404 to those let in)',
    allow: membership(1045),
    outcome: 404,
    requests: (f) => one('POST', `/api/user-courses/${f.courseA}/blocks/${f.blocksA.video}/package/launch`, { itemId: 'sco' }),
  },
  {
    route: 'POST /api/user-courses/:id/blocks/:blockId/package/commit',
    label: "a SCORM package's commit (1045; a made-up launch is missing: 404 to those let in)",
    allow: membership(1045),
    outcome: 404,
    requests: (f) =>
      one('POST', `/api/user-courses/${f.courseA}/blocks/${f.blocksA.video}/package/commit`, {
        registration: '00000000-0000-4000-8000-000000000000',
        session: '00000000-0000-4000-8000-000000000001',
        reportId: 'matrix-commit-1',
        cmi: { cmi: { core: { lesson_status: 'completed' } } },
      }),
  },

  // ------------------------------------------------------------------ newsletters (1065 to write; readers see published issues)
  { route: 'GET /api/newsletters', label: 'admin list (1065)', allow: system(1065), requests: () => one('GET', '/api/newsletters') },
  { route: 'GET /api/newsletters/:id', label: 'as written (1065)', allow: system(1065), requests: (f) => one('GET', `/api/newsletters/${f.newsletter}`) },
  {
    route: 'POST /api/newsletters',
    label: 'write (1065)',
    allow: system(1065),
    requests: (_f, _fresh, _who, tag) => one('POST', '/api/newsletters', { title: `Novičnik ${tag}`, description: 'Novosti.' }),
  },
  {
    route: 'PUT /api/newsletters/:id',
    label: 'change (1065)',
    allow: system(1065),
    requests: (f) => one('PUT', `/api/newsletters/${f.newsletter}`, { title: 'Novičnik matrike', description: 'Novosti.', published: true }),
  },
  {
    route: 'DELETE /api/newsletters/:id',
    label: 'delete (1065)',
    allow: system(1065),
    requests: async (_f, fresh) => one('DELETE', `/api/newsletters/${await fresh.newsletter()}`),
  },
  { route: 'GET /api/user-newsletters', label: 'published issues for the reader', allow: SIGNED_IN, requests: () => one('GET', '/api/user-newsletters') },
  {
    route: 'GET /api/user-newsletters/:id',
    label: 'a published issue for every profession',
    allow: SIGNED_IN,
    requests: (f) => one('GET', `/api/user-newsletters/${f.newsletter}`),
  },

  // ------------------------------------------------------------------ news (1065 to write, spec §6; every signed-in reader asks and answers, spec §7)
  { route: 'GET /api/news', label: 'admin list with reach (1065)', allow: system(1065), requests: () => one('GET', '/api/news') },
  {
    route: 'POST /api/linked-rx-courses',
    label: "the RX courses a text links to, the news and newsletter editors' warning (1065, issue 36)",
    allow: system(1065),
    requests: (f) => one('POST', '/api/linked-rx-courses', { texts: [`/izobrazevanja/${f.courseA}`] }),
  },
  { route: 'GET /api/news/:id', label: 'as written (1065)', allow: system(1065), requests: (f) => one('GET', `/api/news/${f.news.everyone}`) },
  {
    route: 'POST /api/news',
    label: 'write (1065)',
    allow: system(1065),
    requests: (_f, _fresh, _who, tag) => one('POST', '/api/news', newsBody(`Novica ${tag}`, false)),
  },
  {
    route: 'PUT /api/news/:id',
    label: 'change (1065)',
    allow: system(1065),
    requests: (f) => one('PUT', `/api/news/${f.news.everyone}`, newsBody('Novica za vse', true)),
  },
  {
    route: 'DELETE /api/news/:id',
    label: 'delete (1065)',
    allow: system(1065),
    requests: async (_f, fresh) => one('DELETE', `/api/news/${await fresh.news()}`),
  },
  {
    route: 'GET /api/news/user',
    label: 'the item for the reader now (both array styles)',
    allow: SIGNED_IN,
    requests: () => [
      { method: 'GET', url: '/api/news/user?location[]=1&location[]=2' },
      { method: 'GET', url: '/api/news/user?location=1&location=2' },
    ],
  },
  {
    route: 'PUT /api/news/:id/user/stats',
    label: 'an action on an item for everyone',
    allow: SIGNED_IN,
    requests: (f) => one('PUT', `/api/news/${f.news.everyone}/user/stats`, { action: 1 }),
  },
  {
    route: 'PUT /api/news/:id/user/stats',
    label: 'an action on an item for unit A1: those with a role there',
    allow: { audience: 'A1' },
    hideFrom: SIGNED_IN,
    requests: (f) => one('PUT', `/api/news/${f.news.a1}/user/stats`, { action: 4 }),
  },
  {
    route: 'PUT /api/news/:id/user/stats',
    label: 'an action on an item for unit B1: nobody here (404)',
    allow: { only: [] },
    hideFrom: SIGNED_IN,
    requests: (f) => one('PUT', `/api/news/${f.news.b1}/user/stats`, { action: 2 }),
  },

  // ------------------------------------------------------------------ statistics (1056 to 1058, 1059 to 1061; 1064)
  {
    route: 'GET /api/courses/:id/nps/:blockId/overview',
    label: 'NPS of the A1 course (1056, or 1059 for a course of their company)',
    allow: any(system(1056), community(1059, 'companyA')),
    requests: (f) => one('GET', `/api/courses/${f.courseA}/nps/${f.blocksA.nps}/overview`),
  },
  {
    route: 'GET /api/courses/:id/nps/:blockId/overview',
    label: "NPS of another company's course: hidden from community readers",
    allow: system(1056),
    hideFrom: community(1059),
    requests: (f) => one('GET', `/api/courses/${f.courseB}/nps/${f.blocksB.nps}/overview`),
  },
  {
    route: 'GET /api/courses/:id/nps/:blockId/communities',
    label: 'NPS by community (1057, or 1060)',
    allow: any(system(1057), community(1060, 'companyA')),
    requests: (f) => one('GET', `/api/courses/${f.courseA}/nps/${f.blocksA.nps}/communities`),
  },
  {
    route: 'GET /api/courses/:id/success',
    label: 'success of the A1 course (1056, or 1059)',
    allow: any(system(1056), community(1059, 'companyA')),
    requests: (f) => one('GET', `/api/courses/${f.courseA}/success`),
  },
  {
    route: 'GET /api/courses/:id/success',
    label: 'success narrowed to unit B1: hidden from community readers',
    allow: system(1056),
    hideFrom: community(1059),
    requests: (f) => one('GET', `/api/courses/${f.courseA}/success?communityId=${f.unitB1}`),
  },
  {
    route: 'GET /api/courses/:id/blocks/:blockId/answers',
    label: "per-question answers of a block of the A1 course (issue 35; 1056 only, decision 0059); the course's video has none: an empty list",
    allow: system(1056),
    requests: (f) => one('GET', `/api/courses/${f.courseA}/blocks/${f.blocksA.video}/answers`),
  },
  {
    route: 'GET /api/academies/:id/success',
    label: 'academy success (1056, or 1059)',
    allow: any(system(1056), community(1059, 'companyA')),
    requests: (f) => one('GET', `/api/academies/${f.academy}/success`),
  },
  { route: 'GET /api/stats', label: 'platform statistics (1064)', allow: system(1064), requests: () => one('GET', '/api/stats') },
  {
    route: 'GET /api/stats/community',
    label: "one's community at a glance: its courses' participants, completions and NPS (1059 somewhere, or 1056)",
    allow: any(system(1056), community(1059)),
    requests: () => one('GET', '/api/stats/community'),
  },
  { route: 'GET /api/stats/trends', label: 'platform trends per month (1064)', allow: system(1064), requests: () => one('GET', '/api/stats/trends') },
  // xAPI out (issue 35 item 5, decision 0061): the platform's reporting to an LRS, read and restarted with 1064.
  { route: 'GET /api/xapi-out', label: 'where xAPI statements go and how far (1064)', allow: system(1064), requests: () => one('GET', '/api/xapi-out') },
  {
    route: 'GET /api/xapi-out/deliveries',
    label: 'the xAPI delivery log (1064)',
    allow: system(1064),
    requests: () => one('GET', '/api/xapi-out/deliveries?status=failed'),
  },
  {
    route: 'POST /api/xapi-out/backfill',
    label: 'send xAPI statements again from a day (1064); the fixture has no LRS set, so there is nothing to send (409)',
    allow: system(1064),
    outcome: 409,
    requests: () => one('POST', '/api/xapi-out/backfill', { from: '2026-01-01' }),
  },

  // ------------------------------------------------------------------ course reports (issue 17 item 3): generate 1064; read 1064, or the statistics' 1056/1059
  {
    route: 'POST /api/courses/:id/reports',
    label: 'generate a course report (1064)',
    allow: system(1064),
    requests: (f) => one('POST', `/api/courses/${f.courseA}/reports`, { intervalId: 0, children: true }),
  },
  ...(
    [
      ['GET /api/courses/:id/reports', 'report log', (course: number) => `/api/courses/${course}/reports`],
      ['GET /api/courses/:id/reports/:reportId', 'a report', (course: number, report: number) => `/api/courses/${course}/reports/${report}`],
      ['GET /api/courses/:id/reports/:reportId/pdf', 'a report as PDF', (course: number, report: number) => `/api/courses/${course}/reports/${report}/pdf`],
    ] as const
  ).flatMap(([route, what, url]): MatrixCase[] => [
    {
      route,
      label: `${what} of the A1 course (1064, 1056, or 1059 for a course of their company)`,
      allow: any(system(1064), system(1056), community(1059, 'companyA')),
      requests: (f) => one('GET', url(f.courseA, f.reports.a)),
    },
    {
      route,
      label: `${what} of another company's course: hidden from community readers`,
      allow: any(system(1064), system(1056)),
      hideFrom: community(1059),
      requests: (f) => one('GET', url(f.courseB, f.reports.b)),
    },
  ]),
  {
    route: 'GET /api/mail',
    label: 'the outbox and delivery log: links that sign people in (1008)',
    allow: system(1008),
    requests: () => one('GET', '/api/mail'),
  },

  // ------------------------------------------------------------------ users imports (issue 17, decision 0025): system user create (1005)
  {
    route: 'POST /api/imports',
    label: 'upload and precheck a users file (1005)',
    allow: system(1005),
    requests: async (_f, _fresh, _who, tag) => [
      {
        method: 'POST',
        url: '/api/imports?name=matrika.xlsx',
        raw: {
          contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
          bytes: await importXlsx([
            {
              username: `muvoz${tag.replace(/\W/g, '')}`,
              email: `muvoz${tag.replace(/\W/g, '')}@matrika.si`,
              firstName: 'Uvoz',
              lastName: 'Matrike',
              phone: '041 000 000',
              company: 'Podjetje A',
              unit: 'Enota A1',
            },
          ]),
        },
      },
    ],
  },
  {
    route: 'POST /api/imports/:id/start',
    label: 'start a clean import (1005)',
    allow: system(1005),
    requests: async (_f, fresh) => one('POST', `/api/imports/${await fresh.userImport()}/start`, { sendWelcome: false }),
  },
  { route: 'GET /api/imports', label: 'the imports (1005)', allow: system(1005), requests: () => one('GET', '/api/imports') },
  { route: 'GET /api/imports/template', label: 'the import template (1005)', allow: system(1005), requests: () => one('GET', '/api/imports/template') },
  {
    route: 'GET /api/imports/:id',
    label: 'one import with its precheck and progress (1005)',
    allow: system(1005),
    requests: async (_f, fresh) => one('GET', `/api/imports/${await fresh.userImport()}`),
  },
  {
    route: 'GET /api/imports/:id/rows',
    label: "an import's rows and their outcomes (1005)",
    allow: system(1005),
    requests: async (_f, fresh) => one('GET', `/api/imports/${await fresh.userImport()}/rows`),
  },
];

/** Users administration (issue 14): 1004 read, 1005 create, 1006 update, 1007 delete; managers' view and change requests (2011, 2012 where the user sits). */
function userAdminCases(): MatrixCase[] {
  const MANAGERS = any(community(2011), community(2012));
  const managersIn = (place: 'A1' | 'B1') => any(community(2011, place), community(2012, place));
  const freshA1 = (f: Fixture, fresh: Fresh) => fresh.user(f.unitA1, f.companyA);
  const form = (tag: string, f: Fixture) => ({
    username: `mnov${tag.replace(/\W/g, '')}`,
    email: `mnov${tag.replace(/\W/g, '')}@matrika.si`,
    firstName: 'Nova',
    lastName: 'Oseba',
    phone: '041 000 000',
    professionId: f.profession,
    roles: [{ roleId: 10, companyId: f.companyA, unitId: f.unitA1 }],
  });
  return [
    { route: 'GET /api/users', label: 'the users list (1004)', allow: system(1004), requests: () => one('GET', '/api/users?search=m&status=active') },
    {
      route: 'GET /api/users/change-requests',
      label: "managers' change requests (1004)",
      allow: system(1004),
      requests: () => one('GET', '/api/users/change-requests'),
    },
    { route: 'GET /api/users/:id', label: "a user's page (1004)", allow: system(1004), requests: (f) => one('GET', `/api/users/${f.users.participant}`) },
    {
      route: 'POST /api/users',
      label: 'create a user (1005)',
      allow: system(1005),
      requests: (f, _fresh, _who, tag) => one('POST', '/api/users', { ...form(tag, f), sendWelcome: false }),
    },
    {
      route: 'PUT /api/users/:id',
      label: 'save a user (1006)',
      allow: system(1006),
      requests: async (f, fresh, _who, tag) => one('PUT', `/api/users/${await freshA1(f, fresh)}`, form(tag, f)),
    },
    {
      route: 'POST /api/users/:id/deactivate',
      label: 'deactivate (1006)',
      allow: system(1006),
      requests: async (f, fresh) => one('POST', `/api/users/${await freshA1(f, fresh)}/deactivate`),
    },
    {
      route: 'POST /api/users/:id/activate',
      label: 'activate (1006)',
      allow: system(1006),
      requests: async (f, fresh) => one('POST', `/api/users/${await freshA1(f, fresh)}/activate`),
    },
    {
      route: 'DELETE /api/users/:id',
      label: 'delete (1007)',
      allow: system(1007),
      requests: async (f, fresh) => one('DELETE', `/api/users/${await freshA1(f, fresh)}`),
    },
    {
      route: 'POST /api/users/:id/reactivate',
      label: 'reactivate (1007)',
      allow: system(1007),
      requests: async (f, fresh) => one('POST', `/api/users/${await freshA1(f, fresh)}/reactivate`),
    },
    {
      route: 'POST /api/users/bulk-status',
      label: 'bulk deactivate (1006)',
      allow: system(1006),
      requests: async (f, fresh) => one('POST', '/api/users/bulk-status', { userIds: [await freshA1(f, fresh)], active: false }),
    },
    {
      route: 'POST /api/users/:id/welcome',
      label: 'mail the welcome link (1005)',
      allow: system(1005),
      requests: async (f, fresh) => one('POST', `/api/users/${await freshA1(f, fresh)}/welcome`),
    },
    {
      route: 'POST /api/users/:id/change-requests',
      label: 'a change request about a user of A1 (2011 or 2012 there)',
      allow: managersIn('A1'),
      hideFrom: MANAGERS,
      requests: async (f, fresh) => one('POST', `/api/users/${await freshA1(f, fresh)}/change-requests`, { kind: 'other', description: 'Napačen priimek.' }),
    },
    {
      route: 'POST /api/users/:id/change-requests',
      label: 'a change request about a user of B1 (no manager of the fixture reaches B1)',
      allow: managersIn('B1'),
      hideFrom: MANAGERS,
      requests: (f) => one('POST', `/api/users/${f.users.participantB}/change-requests`, { kind: 'other', description: 'Napačen priimek.' }),
    },
    {
      route: 'POST /api/users/change-requests/:requestId/resolve',
      label: 'resolve a change request (1006)',
      allow: system(1006),
      requests: async (f, fresh) =>
        one('POST', `/api/users/change-requests/${await fresh.changeRequest(await freshA1(f, fresh))}/resolve`, {
          outcome: 'rejected',
          reason: 'Ni potrebno.',
        }),
    },
    {
      route: 'POST /api/users/login-tokens/export',
      label: 'login links as xlsx (1066)',
      allow: system(1066),
      requests: async (f, fresh) => one('POST', '/api/users/login-tokens/export', { userIds: [await freshA1(f, fresh)] }),
    },
    ...(['', '.pdf'] as const).flatMap((suffix): MatrixCase[] => [
      {
        route: `GET /api/users/me/personal-data${suffix}`,
        label: 'one’s own data export (any signed-in user)',
        allow: SIGNED_IN,
        requests: () => one('GET', `/api/users/me/personal-data${suffix}`),
      },
      {
        route: `GET /api/users/:id/personal-data${suffix}`,
        label: 'a user’s data export (1004)',
        allow: system(1004),
        requests: (f) => one('GET', `/api/users/${f.users.participant}/personal-data${suffix}`),
      },
    ]),
    {
      route: 'DELETE /api/users/:id/personal-data',
      label: 'erase a person for good (1007)',
      allow: system(1007),
      requests: async (f, fresh) => one('DELETE', `/api/users/${await freshA1(f, fresh)}/personal-data`),
    },
    { route: 'GET /api/manager/users', label: "a manager's users (2011, 2012)", allow: MANAGERS, requests: () => one('GET', '/api/manager/users') },
    {
      route: 'GET /api/manager/users/:id',
      label: 'a user of A1 (2011 or 2012 there)',
      allow: managersIn('A1'),
      hideFrom: MANAGERS,
      requests: (f) => one('GET', `/api/manager/users/${f.users.participant}`),
    },
    {
      route: 'GET /api/manager/users/:id',
      label: 'a user of B1, outside every manager’s reach',
      allow: managersIn('B1'),
      hideFrom: MANAGERS,
      requests: (f) => one('GET', `/api/manager/users/${f.users.participantB}`),
    },
    {
      route: 'GET /api/manager/change-requests',
      label: 'the change requests one filed (2011, 2012)',
      allow: MANAGERS,
      requests: () => one('GET', '/api/manager/change-requests'),
    },
  ];
}
