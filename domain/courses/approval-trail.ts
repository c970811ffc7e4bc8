import { type Course, type CourseEvent, type CourseState, evolveCourse } from './course.ts';

/**
 * The approval trail of one course for auditors (issue 36 item 3, decision 0064): every submission,
 * signature (approval or rejection), withdrawal, grant, publish and unpublish, and every change of
 * the content once the course has been submitted, replayed from the course stream as recorded, up to
 * an as-of moment. The verification recomputes the content's hash from the replayed state (never
 * from a read model), so an edited table cannot fake it.
 *
 * Pure: the stream's recorded events come in with their recorded times, the names of the people they
 * name (the application looks them up) and the content hash function (course-content-hash.ts).
 */

/** One event of the course stream as the log recorded it. */
export type RecordedCourseEvent = {
  readonly type: string;
  readonly data: unknown;
  /** When the log recorded it: the as-of cut and the row's time. */
  readonly recordedAt: Date;
  /** Who caused it (the event's metadata). */
  readonly actorId: number | null;
  /** Its revision in the stream (0 first): the auditor's reference into the log. */
  readonly revision: number;
};

export const TRAIL_KINDS = [
  'submitted',
  'signed',
  'rejected',
  'withdrawn',
  'granted',
  'published',
  'unpublished',
  'content-changed',
  'settings-changed',
] as const;
export type TrailKind = (typeof TRAIL_KINDS)[number];

export type TrailRow = {
  readonly at: string;
  readonly kind: TrailKind;
  readonly approvalVersion: number | null;
  readonly step: string | null;
  readonly stepLabel: string | null;
  readonly who: { readonly id: number; readonly name: string } | null;
  /** What the row means, in Slovenian: a signature's own meaning as signed, otherwise the trail's sentence. */
  readonly meaning: string;
  readonly comment: string | null;
  readonly contentHash: string | null;
  readonly code: string | null;
  /** How a signature was given ('password': re-entered password). */
  readonly method: string | null;
  /**
   * For rows whose event records a content hash (submitted, signed, granted, published): whether it
   * equals the hash recomputed from the content replayed to that point of the log; null otherwise.
   */
  readonly hashMatchesContent: boolean | null;
  readonly revision: number;
  /** A 'settings-changed' row: the approval settings of the course's scope as saved (on or off, prefix, steps with their approvers). */
  readonly settings: TrailSettings | null;
};

export type TrailSettings = {
  readonly enabled: boolean;
  readonly codePrefix: string;
  // Plain arrays: the API's response schema takes them as they are.
  readonly steps: { readonly key: string; readonly label: string; readonly approvers: { readonly id: number; readonly name: string }[] }[];
};

export type VerificationStatus = 'verified' | 'mismatch' | 'unapproved' | 'not-published' | 'no-course';

export type TrailVerification = {
  /** The hash the publish recorded (null when not published as of, or published before approval). */
  readonly publishedHash: string | null;
  /** The hash of the grant the course was published under (its approval code). */
  readonly approvedHash: string | null;
  /** The hash of the content replayed from the log to the as-of moment. */
  readonly currentHash: string | null;
  readonly approvalCode: string | null;
  readonly approvalVersion: number | null;
  readonly publishedAt: string | null;
  readonly matches: boolean;
  readonly status: VerificationStatus;
  /** Why, in Slovenian. */
  readonly reason: string;
};

export type ApprovalTrail = {
  readonly rows: readonly TrailRow[];
  readonly verification: TrailVerification;
  /** The course replayed to the as-of moment (null before it was created). */
  readonly course: Course | null;
};

/** Types of the approval events (contract of the session; course.ts defines them). */
const APPROVAL_EVENTS = new Set(['CourseApprovalSubmitted', 'CourseApprovalSigned', 'CourseApprovalWithdrawn', 'CourseApprovalGranted']);
/** Events that change what the content hash covers (course fields, blocks, attachments). */
const CONTENT_EVENTS = new Set([
  'CourseCreated',
  'CourseUpdated',
  'CourseBlockAdded',
  'CourseBlockUpdated',
  'CourseBlockRemoved',
  'CourseBlockMoved',
  'CourseAttachmentAdded',
  'CourseAttachmentRemoved',
]);

type Submitted = {
  approvalVersion: number;
  contentHash: string;
  steps?: readonly { key: string; label: string }[];
  submittedBy?: number | null;
  /** The submitter's name as recorded, when the event carries it. */
  submittedByName?: string;
  submittedAt?: string;
  comment?: string | null;
};
type Signed = {
  approvalVersion: number;
  step: string;
  decision: 'approved' | 'rejected';
  comment?: string | null;
  signerId?: number;
  signerName?: string;
  meaning?: string;
  contentHash?: string;
  signedAt?: string;
  method?: string;
};
/** `reason: 'content-changed'`: withdrawn because the content was changed under it (decision 0063). */
type Withdrawn = { approvalVersion: number; by?: number | null; at?: string; comment?: string | null; reason?: 'author' | 'content-changed' };
type Granted = { approvalVersion: number; contentHash: string; code: string; grantedAt?: string };
type Published = { contentHash?: string | null; approvalCode?: string | null };

// To the second: two signatures a minute apart must not read as one moment (the page shows seconds too).
const WHEN = new Intl.DateTimeFormat('sl-SI', { timeZone: 'Europe/Ljubljana', dateStyle: 'medium', timeStyle: 'medium' });
/** An instant as people in Ljubljana read it, to the second, for the trail's sentences and its PDF and xlsx. */
export const ljubljanaText = (at: Date | string) => WHEN.format(typeof at === 'string' ? new Date(at) : at);
const short = (hash: string | null) => (hash ? `${hash.slice(0, 12)}…` : '–');

type SettingsSet = { enabled: boolean; codePrefix: string; steps: readonly { key: string; label: string; approverIds: readonly number[] }[] };

/** The ids of the people the rows name by id (submitter, withdrawer, actors of publishes and changes, approvers named in settings), for a name look-up. */
export const trailPeople = (events: readonly RecordedCourseEvent[]): number[] => {
  const ids = new Set<number>();
  for (const e of events) {
    if (e.actorId !== null) ids.add(e.actorId);
    const d = e.data as Partial<Submitted & Withdrawn & Signed>;
    for (const id of [d.submittedBy, d.by, d.signerId]) if (typeof id === 'number') ids.add(id);
    if (e.type === 'ApprovalSettingsSet') for (const step of (e.data as SettingsSet).steps ?? []) for (const id of step.approverIds) ids.add(id);
  }
  return [...ids];
};

/** The sentence of a settings row: on or off, and who approves which step. */
const settingsMeaning = (settings: TrailSettings) => {
  const steps = settings.steps
    .map((s) => `${s.label} (${s.approvers.length === 0 ? 'brez odobritelja' : s.approvers.map((a) => a.name).join(', ')})`)
    .join('; ');
  return `Nastavitve odobritev, ki veljajo za to izobraževanje, so spremenjene: odobritev pred objavo je ${
    settings.enabled ? `vključena (predpona kod ${settings.codePrefix})` : 'izključena'
  }; koraki in odobritelji: ${steps || 'brez korakov'}.`;
};

type Grant = { approvalVersion: number; contentHash: string; code: string; at: string };

/**
 * Replays `events` (the course stream in log order) up to `asOf` (null: everything) into trail rows
 * and the verification. `names` names people by id; `contentHash` is courseContentHash.
 */
export const approvalTrail = (
  events: readonly RecordedCourseEvent[],
  options: {
    readonly asOf: Date | null;
    readonly names: ReadonlyMap<number, string>;
    readonly contentHash: (course: Course) => string;
    /**
     * The approval settings of the course's scope as the log recorded them (ApprovalSettingsSet of its
     * settings stream, decision 0064): each one saved while the course exists is a row, where it fell
     * among the course's events; one saved before the course was created is not its history.
     */
    readonly settings?: readonly RecordedCourseEvent[];
  },
): ApprovalTrail => {
  const { asOf, names, contentHash } = options;
  const person = (id: number | null | undefined, recorded?: string) => (typeof id === 'number' ? { id, name: recorded ?? names.get(id) ?? `#${id}` } : null);
  const rows: TrailRow[] = [];
  const submissions = new Map<number, Submitted>();
  const grants: Grant[] = [];
  let state: CourseState = { status: 'none' };
  let hash: string | null = null;
  let submittedOnce = false;
  let pending: number | null = null;
  let publish: { hash: string | null; code: string | null; at: string; recomputed: string | null } | null = null;
  let changedSincePublish: string | null = null;
  const settings = [...(options.settings ?? [])].sort((a, b) => a.recordedAt.getTime() - b.recordedAt.getTime());
  let nextSetting = 0;
  /** The settings rows recorded before `until` (all that are left: null), once the course exists. */
  const settingsUntil = (until: Date | null) => {
    for (; nextSetting < settings.length; nextSetting++) {
      const s = settings[nextSetting] as RecordedCourseEvent;
      if (until && s.recordedAt.getTime() >= until.getTime()) return;
      if (asOf && s.recordedAt.getTime() > asOf.getTime()) return;
      if (state.status === 'none' || s.type !== 'ApprovalSettingsSet') continue;
      const d = s.data as SettingsSet;
      const saved: TrailSettings = {
        enabled: d.enabled,
        codePrefix: d.codePrefix,
        steps: d.steps.map((step) => ({
          key: step.key,
          label: step.label,
          approvers: step.approverIds.map((id) => person(id) as { id: number; name: string }),
        })),
      };
      rows.push(row(s, s.recordedAt.toISOString(), 'settings-changed', { who: person(s.actorId), meaning: settingsMeaning(saved), settings: saved }));
    }
  };

  for (const e of events) {
    if (asOf && e.recordedAt.getTime() > asOf.getTime()) break;
    settingsUntil(e.recordedAt);
    const at = e.recordedAt.toISOString();
    // Approval events change no content; the course's own evolve handles the rest.
    if (!APPROVAL_EVENTS.has(e.type)) state = evolveCourse(state, { type: e.type, data: e.data } as CourseEvent);
    const course = state.status === 'none' ? null : state;
    if (CONTENT_EVENTS.has(e.type) && course) {
      const next = contentHash(course);
      if (next !== hash && e.type !== 'CourseCreated' && submittedOnce) {
        const last = grants.at(-1);
        const meaning =
          pending !== null
            ? `Vsebina je bila spremenjena med pregledom različice ${pending}; ta različica ne velja več za trenutno vsebino.`
            : last && last.contentHash === hash
              ? `Vsebina je bila spremenjena po odobritvi različice ${last.approvalVersion} (koda ${last.code}); spremenjena vsebina potrebuje novo odobritev.`
              : 'Vsebina je bila spremenjena; spremenjena vsebina potrebuje odobritev.';
        rows.push(row(e, at, 'content-changed', { who: person(e.actorId), meaning, contentHash: next }));
        if (publish && course.published) changedSincePublish ??= at;
      }
      hash = next;
    }
    switch (e.type) {
      case 'CourseApprovalSubmitted': {
        const d = e.data as Submitted;
        submissions.set(d.approvalVersion, d);
        submittedOnce = true;
        pending = d.approvalVersion;
        const steps = (d.steps ?? []).map((s) => s.label).join(', ');
        rows.push(
          row(e, at, 'submitted', {
            approvalVersion: d.approvalVersion,
            who: person(d.submittedBy ?? e.actorId, d.submittedByName),
            meaning: `Različica ${d.approvalVersion} je predložena v odobritev${steps ? ` (koraki: ${steps})` : ''}.`,
            comment: d.comment ?? null,
            contentHash: d.contentHash,
            hashMatchesContent: hash === null ? null : d.contentHash === hash,
          }),
        );
        break;
      }
      case 'CourseApprovalSigned': {
        const d = e.data as Signed;
        const label = submissions.get(d.approvalVersion)?.steps?.find((s) => s.key === d.step)?.label ?? d.step;
        const approved = d.decision === 'approved';
        if (!approved && pending === d.approvalVersion) pending = null;
        rows.push(
          row(e, at, approved ? 'signed' : 'rejected', {
            approvalVersion: d.approvalVersion,
            step: d.step,
            stepLabel: label,
            who: person(d.signerId ?? e.actorId, d.signerName),
            meaning: d.meaning ?? (approved ? `Odobreno: ${label}.` : `Zavrnjeno: ${label}.`),
            comment: d.comment ?? null,
            contentHash: d.contentHash ?? null,
            method: d.method ?? null,
            hashMatchesContent: d.contentHash && hash !== null ? d.contentHash === hash : null,
          }),
        );
        break;
      }
      case 'CourseApprovalWithdrawn': {
        const d = e.data as Withdrawn;
        if (pending === d.approvalVersion) pending = null;
        rows.push(
          row(e, at, 'withdrawn', {
            approvalVersion: d.approvalVersion,
            who: person(d.by ?? e.actorId),
            meaning:
              d.reason === 'content-changed'
                ? `Predložitev različice ${d.approvalVersion} je umaknjena, ker je bila vsebina med pregledom spremenjena.`
                : `Predložitev različice ${d.approvalVersion} je umaknjena.`,
            comment: d.comment ?? null,
            contentHash: submissions.get(d.approvalVersion)?.contentHash ?? null,
          }),
        );
        break;
      }
      case 'CourseApprovalGranted': {
        const d = e.data as Granted;
        if (pending === d.approvalVersion) pending = null;
        grants.push({ approvalVersion: d.approvalVersion, contentHash: d.contentHash, code: d.code, at });
        rows.push(
          row(e, at, 'granted', {
            approvalVersion: d.approvalVersion,
            meaning: `Različica ${d.approvalVersion} je odobrena v vseh korakih in je dobila kodo odobritve ${d.code}.`,
            contentHash: d.contentHash,
            code: d.code,
            hashMatchesContent: hash === null ? null : d.contentHash === hash,
          }),
        );
        break;
      }
      // A restore of a published course publishes it again; under approval it records the hash and code (decision 0063).
      case 'CourseRestored':
      case 'CoursePublished': {
        const d = (e.data ?? {}) as Published;
        const restored = e.type === 'CourseRestored';
        if (restored && !(course?.published && d.contentHash)) break;
        publish = { hash: d.contentHash ?? null, code: d.approvalCode ?? null, at, recomputed: hash };
        changedSincePublish = null;
        const grant = d.approvalCode ? grants.find((g) => g.code === d.approvalCode) : undefined;
        rows.push(
          row(e, at, 'published', {
            approvalVersion: grant?.approvalVersion ?? null,
            who: person(e.actorId),
            meaning: `${restored ? 'Izobraževanje je obnovljeno iz arhiva in znova objavljeno' : 'Izobraževanje je objavljeno'}${
              d.approvalCode ? ` z odobreno vsebino (koda ${d.approvalCode}).` : ' brez kode odobritve.'
            }`,
            contentHash: d.contentHash ?? null,
            code: d.approvalCode ?? null,
            hashMatchesContent: d.contentHash && hash !== null ? d.contentHash === hash : null,
          }),
        );
        break;
      }
      case 'CourseUnpublished':
        publish = null;
        changedSincePublish = null;
        rows.push(row(e, at, 'unpublished', { who: person(e.actorId), meaning: 'Objava izobraževanja je umaknjena.' }));
        break;
      default:
        break;
    }
  }
  settingsUntil(null);
  const course = state.status === 'none' ? null : state;
  return { rows, verification: verify(course, hash, publish, grants, changedSincePublish), course };
};

const row = (e: RecordedCourseEvent, at: string, kind: TrailKind, fields: Partial<TrailRow> & { meaning: string }): TrailRow => ({
  at,
  kind,
  approvalVersion: null,
  step: null,
  stepLabel: null,
  who: null,
  comment: null,
  contentHash: null,
  code: null,
  method: null,
  hashMatchesContent: null,
  revision: e.revision,
  settings: null,
  ...fields,
});

const verify = (
  course: Course | null,
  currentHash: string | null,
  publish: { hash: string | null; code: string | null; at: string; recomputed: string | null } | null,
  grants: readonly Grant[],
  changedSincePublish: string | null,
): TrailVerification => {
  const base = { currentHash, publishedHash: null, approvedHash: null, approvalCode: null, approvalVersion: null, publishedAt: null };
  if (!course || course.status === 'deleted') return { ...base, matches: false, status: 'no-course', reason: 'Izobraževanje na izbrani trenutek ne obstaja.' };
  const last = grants.at(-1);
  if (!course.published || !publish) {
    const standing = !last
      ? ' Nobena različica še ni odobrena.'
      : last.contentHash === currentHash
        ? ` Vsebina je enaka zadnji odobreni različici ${last.approvalVersion} (koda ${last.code}).`
        : ` Vsebina se razlikuje od zadnje odobrene različice ${last.approvalVersion} (koda ${last.code}).`;
    return { ...base, approvedHash: last?.contentHash ?? null, matches: false, status: 'not-published', reason: `Izobraževanje ni objavljeno.${standing}` };
  }
  const published = { ...base, publishedHash: publish.hash, approvalCode: publish.code, publishedAt: publish.at };
  if (!publish.code) {
    return {
      ...published,
      matches: false,
      status: 'unapproved',
      reason: 'Izobraževanje je objavljeno brez kode odobritve (objavljeno, ko odobritev ni bila zahtevana, ali pred njeno uvedbo).',
    };
  }
  const grant = grants.find((g) => g.code === publish.code);
  if (!grant) return { ...published, matches: false, status: 'mismatch', reason: `Koda odobritve ${publish.code} v dnevniku tega izobraževanja ne obstaja.` };
  const approved = { ...published, approvedHash: grant.contentHash, approvalVersion: grant.approvalVersion };
  const mismatch = (reason: string): TrailVerification => ({ ...approved, matches: false, status: 'mismatch', reason });
  if (publish.hash !== grant.contentHash)
    return mismatch(
      `Zgoščena vrednost objavljene vsebine (${short(publish.hash)}) ni enaka zgoščeni vrednosti vsebine, odobrene s kodo ${grant.code} (${short(grant.contentHash)}).`,
    );
  if (publish.recomputed !== grant.contentHash)
    return mismatch(
      `Vsebina, preračunana iz dnevnika dogodkov ob objavi (${short(publish.recomputed)}), ni vsebina, odobrena s kodo ${grant.code} (${short(grant.contentHash)}).`,
    );
  if (currentHash !== grant.contentHash)
    return mismatch(
      `Vsebina je bila po objavi spremenjena${changedSincePublish ? ` (${ljubljanaText(changedSincePublish)})` : ''}: zgoščena vrednost, preračunana iz dnevnika dogodkov (${short(currentHash)}), ni enaka odobreni (${short(grant.contentHash)}).`,
    );
  return {
    ...approved,
    matches: true,
    status: 'verified',
    reason: `Objavljena vsebina je enaka vsebini, odobreni s kodo ${grant.code} (različica ${grant.approvalVersion}, odobrena ${ljubljanaText(grant.at)}); zgoščena vrednost, preračunana iz dnevnika dogodkov, se ujema.`,
  };
};
