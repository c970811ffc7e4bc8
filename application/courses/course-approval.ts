import { randomUUID } from 'node:crypto';
import { type ApprovalScope, type ApprovalSettings, soleApproverWarnings } from '../../domain/courses/approval-settings.rules.ts';
import { approvalSettingsDecider, approvalSettingsStream } from '../../domain/courses/approval-settings.ts';
import { type Course, type CourseEvent, type CourseOwner, type CourseState, courseDecider, courseStream } from '../../domain/courses/course.ts';
import {
  type ApprovalContext,
  type ApprovalVersion,
  CODE_NEEDED,
  grantFor,
  lastGranted,
  missingApprovals,
  separationOfDuties,
  signatureMeaning,
  wouldGrant,
} from '../../domain/courses/course-approval.ts';
import { courseContentHash, courseContentOf } from '../../domain/courses/course-content-hash.ts';
import { can, type Subject } from '../../domain/permissions/can.ts';
import { systemPermissionsOf } from '../../domain/permissions/role-permissions.ts';
import type { RoleId } from '../../domain/permissions/roles.ts';
import { fold } from '../../domain/shared/decider.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import { ljubljanaWallClock } from '../../domain/shared/ljubljana-time.ts';
import { userDecider } from '../../domain/users/user.decide.ts';
import { evolveUser, initialUserState, type UserEvent, userStream } from '../../domain/users/user.ts';
import { wrongSignatureCodeMessage } from '../../domain/users/user-identity.decide.ts';
import type { PasswordHasher } from '../../infrastructure/auth/password-hasher.port.ts';
import type { SecretSealer } from '../../infrastructure/auth/secret-sealer.port.ts';
import type { EventMetadata, EventStore } from '../../infrastructure/event-store/event-store.port.ts';
import { approvalPeople } from '../../projections/courses/course-approvals.queries.ts';
import { handleCommand } from '../shared/handle-command.ts';
import { courseOwnerFromLog } from './course-owner.ts';
import { courseDeciderFor } from './course-type-rules.ts';
import type { CoursesDeps } from './courses.deps.ts';
import { hashSignatureCode, newSignatureCode, SIGNATURE_CODE_TTL_SECONDS } from './signature-code.ts';

/**
 * Approval before publishing (issue 36 item 2, decision 0063): the settings of a course's scope, the
 * context every course command is decided with, and the slices of submitting, withdrawing and
 * signing. Everything is decided on the course's stream and the settings' stream, never on a read
 * model, so a signature is checked against the content as stored.
 */
export type ApprovalDeps = CoursesDeps & {
  readonly passwords: PasswordHasher;
  /** Seals a signature's second-factor code for its mail (the identity mail job unseals it); the demo's loader, which signs with passwords only, has none. */
  readonly sealer?: SecretSealer;
};

const notFound = () => new DomainError('404', 'Izobraževanje ne obstaja.', { status: 404 });

export const scopeOf = (owner: CourseOwner | null): ApprovalScope => (owner ? owner.companyId : 'platform');

export const loadApprovalSettings = async (store: EventStore, scope: ApprovalScope): Promise<ApprovalSettings> =>
  fold(
    approvalSettingsDecider,
    (await store.readStream(approvalSettingsStream(scope))).events.map((e) => ({ type: e.type, data: e.data }) as never),
  );

const readCourse = async (store: EventStore, courseId: number): Promise<CourseState> =>
  fold(
    courseDecider,
    (await store.readStream(courseStream(courseId))).events.map((e) => ({ type: e.type, data: e.data }) as CourseEvent),
  );

export const loadCourse = async (store: EventStore, courseId: number): Promise<Course> => {
  const state = await readCourse(store, courseId);
  if (state.status === 'none' || state.status === 'deleted') throw notFound();
  return state;
};

/** The steps a scope requires now: null when its approval is off. */
export const requiredSteps = (settings: ApprovalSettings) => (settings.enabled ? settings.steps.map((s) => ({ key: s.key, label: s.label })) : null);

/**
 * The context a course command is decided with (course.ts): the steps the course's scope requires
 * now, who acts, when. The owner is read from the course's own stream (a read model may not hold a
 * course created a moment ago).
 */
export const approvalContextFor = async (deps: Pick<CoursesDeps, 'store' | 'now'>, courseId: number, metadata: EventMetadata): Promise<ApprovalContext> => {
  const settings = await loadApprovalSettings(deps.store, scopeOf(await courseOwnerFromLog(deps.store, courseId)));
  return { steps: requiredSteps(settings), actorId: metadata.actorId ?? null, now: deps.now() };
};

/** Whether the person holds 1071 (courses.approve) through their roles. */
const mayApprove = (roles: readonly { roleId: number }[]) => systemPermissionsOf(roles.map((r) => r.roleId as RoleId)).includes(1071);

/** The people named on a scope's steps. */
const approversOf = (settings: ApprovalSettings) => new Set(settings.steps.flatMap((s) => s.approverIds));

/**
 * Whether the caller may read a course's approval: its editors (1019, or 2006 in its owner's unit),
 * the auditor (1072), and approvers named in its scope's settings. Others answer 404: a company's
 * approvers learn nothing of another company's courses.
 */
export const checkApprovalReader = async (deps: Pick<CoursesDeps, 'store'>, subject: Subject, course: Course) => {
  if (can(subject, 1019, { kind: 'system' }) || can(subject, 1072, { kind: 'system' })) return;
  const owner = course.owner;
  if (owner && can(subject, 2006, { kind: 'community', companyId: owner.companyId, unitId: owner.unitId })) return;
  const settings = await loadApprovalSettings(deps.store, scopeOf(owner));
  if (can(subject, 1071, { kind: 'system' }) && approversOf(settings).has(subject.userId)) return;
  throw notFound();
};

const personName = (profile: { firstName: string; lastName: string }) => `${profile.firstName} ${profile.lastName}`.trim();

const loadPerson = async (store: EventStore, userId: number) => {
  const state = fold(
    { initialState: initialUserState, evolve: evolveUser },
    (await store.readStream(userStream(userId))).events.map((e) => ({ type: e.type, data: e.data }) as UserEvent),
  );
  return state.status === 'active' && state.lifecycle === 'active' ? state : null;
};

// ------------------------------------------------------------------ the approval page

type StepView = {
  key: string;
  label: string;
  decision: 'approved' | 'rejected' | null;
  signerName: string | null;
  signedAt: string | null;
  comment: string | null;
  meaning: string | null;
  /**
   * The exact sentence the caller would sign, per decision, while the step waits in the pending
   * version (null otherwise): the dialog shows it and the signature records it (decision 0063).
   */
  meaningToSign: { approved: string; rejected: string } | null;
  mayISign: boolean;
};

const versionView = (version: ApprovalVersion, settings: ApprovalSettings, subject: Subject, names: ReadonlyMap<number, string>) => {
  const steps: StepView[] = version.steps.map((step) => {
    const signature = version.signatures.find((s) => s.step === step.key) ?? null;
    const named = settings.enabled && (settings.steps.find((s) => s.key === step.key)?.approverIds ?? []).includes(subject.userId);
    const open = version.status === 'pending' && signature === null;
    return {
      key: step.key,
      label: step.label,
      decision: signature?.decision ?? null,
      signerName: signature?.signerName ?? null,
      signedAt: signature?.signedAt ?? null,
      comment: signature?.comment ?? null,
      meaning: signature?.meaning ?? null,
      meaningToSign: open
        ? {
            approved: signatureMeaning('approved', step.label, version.approvalVersion, version.contentHash),
            rejected: signatureMeaning('rejected', step.label, version.approvalVersion, version.contentHash),
          }
        : null,
      // Separation of duties: not the version's submitter, not a second step of one version.
      mayISign: open && named && can(subject, 1071, { kind: 'system' }) && separationOfDuties(version, subject.userId) === null,
    };
  });
  return {
    approvalVersion: version.approvalVersion,
    status: version.status,
    contentHash: version.contentHash,
    contentVersion: version.contentVersion,
    submittedBy: version.submittedBy === null ? null : { id: version.submittedBy, name: version.submittedByName ?? names.get(version.submittedBy) ?? '' },
    submittedAt: version.submittedAt,
    comment: version.comment,
    code: version.code,
    grantedAt: version.grantedAt,
    steps,
  };
};

/** GET /api/courses/:id/approval (the contract of the session, decision 0063). */
export const courseApprovalView = async (deps: Pick<CoursesDeps, 'store' | 'db'>, subject: Subject, courseId: number) => {
  const course = await loadCourse(deps.store, courseId);
  await checkApprovalReader(deps, subject, course);
  const scope = scopeOf(course.owner);
  const settings = await loadApprovalSettings(deps.store, scope);
  const steps = requiredSteps(settings);
  const contentHash = courseContentHash(course);
  const current = course.approval.versions.at(-1) ?? null;
  const granted = lastGranted(course.approval);
  const submitter = current?.submittedBy ?? null;
  const names = new Map((submitter === null ? [] : await approvalPeople(deps.db, [submitter])).map((p) => [p.id, p.name]));
  // What signing asks of the caller (an approver): their password, which a social-only account has not set, and the second factor where on.
  const me = can(subject, 1071, { kind: 'system' }) ? await loadPerson(deps.store, subject.userId) : null;
  return {
    required: steps !== null,
    scope,
    enabled: settings.enabled,
    codePrefix: settings.codePrefix,
    steps: settings.steps.map((s) => ({ key: s.key, label: s.label })),
    contentHash,
    current: current ? versionView(current, settings, subject, names) : null,
    lastApproved: granted
      ? { approvalVersion: granted.approvalVersion, contentHash: granted.contentHash, code: granted.code as string, grantedAt: granted.grantedAt as string }
      : null,
    published: course.published && course.approval.published ? course.approval.published : null,
    isPublished: course.published,
    upToDate: grantFor(course.approval, contentHash) !== null,
    missing: steps === null ? [] : missingApprovals(course.approval, contentHash, steps).map((s) => s.label),
    versions: course.approval.versions.map((v) => ({ approvalVersion: v.approvalVersion, status: v.status, contentHash: v.contentHash, code: v.code })),
    signing: me ? { passwordSet: me.passwordHash !== null, secondFactor: me.secondFactor } : null,
  };
};

/**
 * The content a version was submitted with (course fields that are content, blocks, attachments):
 * the course stream replayed up to that submission. For the review and the diff against the last
 * approved version.
 */
export const approvalVersionContent = async (deps: Pick<CoursesDeps, 'store'>, subject: Subject, courseId: number, approvalVersion: number) => {
  const events = (await deps.store.readStream(courseStream(courseId))).events.map((e) => ({ type: e.type, data: e.data }) as CourseEvent);
  const course = fold(courseDecider, events);
  if (course.status === 'none' || course.status === 'deleted') throw notFound();
  await checkApprovalReader(deps, subject, course);
  let state: CourseState = courseDecider.initialState;
  for (const event of events) {
    state = courseDecider.evolve(state, event);
    if (event.type === 'CourseApprovalSubmitted' && event.data.approvalVersion === approvalVersion && state.status !== 'none') {
      const content = courseContentOf(state);
      return { approvalVersion, contentHash: courseContentHash(state), ...content };
    }
  }
  throw new DomainError('404', 'Ta različica ne obstaja.', { status: 404 });
};

// ------------------------------------------------------------------ submit, withdraw, sign

export const submitForApproval = async (
  deps: CoursesDeps,
  courseId: number,
  input: { contentHash: string; comment: string | null },
  submitter: { userId: number },
  metadata: EventMetadata,
) => {
  const context = await approvalContextFor(deps, courseId, metadata);
  const person = await loadPerson(deps.store, submitter.userId);
  const result = await handleCommand(deps.store, {
    streamName: courseStream(courseId),
    // The rules of the course's type first (decision 0062): what could not be published is not submitted either.
    decider: await courseDeciderFor(deps, 'SubmitCourseApproval'),
    command: {
      type: 'SubmitCourseApproval',
      contentHash: input.contentHash,
      comment: input.comment?.trim() || null,
      steps: context.steps,
      submittedBy: submitter.userId,
      submittedByName: person ? personName(person.profile) : '',
      now: context.now,
    },
    metadata,
  });
  const submitted = result.events.find((e) => e.type === 'CourseApprovalSubmitted');
  return { id: courseId, approvalVersion: submitted?.type === 'CourseApprovalSubmitted' ? submitted.data.approvalVersion : 0, position: result.position };
};

export const withdrawApproval = async (
  deps: CoursesDeps,
  courseId: number,
  input: { approvalVersion: number; comment: string | null },
  by: number,
  metadata: EventMetadata,
) => {
  const result = await handleCommand(deps.store, {
    streamName: courseStream(courseId),
    decider: courseDecider,
    command: { type: 'WithdrawCourseApproval', approvalVersion: input.approvalVersion, comment: input.comment?.trim() || null, by, now: deps.now() },
    metadata,
  });
  return { id: courseId, position: result.position };
};

export const WRONG_PASSWORD = 'Geslo ni pravilno.';

/**
 * The code of a grant: `<PREFIX>-<YEAR>-<NNNN>`, numbered per prefix and year from a PostgreSQL
 * sequence (the id allocator), which hands no number out twice, however many sign at once and in
 * however many processes. A number drawn for a signature that in the end was not the last is not
 * reused: codes may skip a number, never repeat one.
 */
const allocateCode = async (deps: CoursesDeps, prefix: string, now: Date) => {
  const year = ljubljanaWallClock(now).getUTCFullYear();
  const n = await deps.ids.next(`approval_code_${prefix.toLowerCase()}_${year}`);
  return `${prefix}-${year}-${String(n).padStart(4, '0')}`;
};

export type SignInput = {
  approvalVersion: number;
  step: string;
  decision: 'approved' | 'rejected';
  comment: string | null;
  contentHash: string;
  password: string;
  /** Where the signer has the second factor on: the challenge the code was mailed for (requestSignatureCode) and the code. */
  secondFactorChallenge?: string | null;
  secondFactorCode?: string | null;
};

export const PASSWORD_NEEDED_TO_SIGN =
  'Za elektronski podpis potrebujete geslo, vaš račun pa ga nima (prijavljate se prek družbenega omrežja). V profilu pod Varnost si nastavite geslo, nato podpišite.';
export const CODE_NEEDED_TO_SIGN = 'Imate vklopljeno dvostopenjsko prijavo: za podpis zahtevajte kodo, ki jo pošljemo na vaš e-naslov, in jo vpišite.';
export const NO_SECOND_FACTOR = 'Dvostopenjska prijava za vaš račun ni vklopljena; za podpis zadošča geslo.';

/**
 * The second factor of a signature (decision 0063): for a signer who has it on, a 6-digit code by
 * mail, on a challenge of its own purpose (a login's code does not sign, a signature's does not log
 * in). Answers the challenge's id, which the signature names with the code.
 */
export const requestSignatureCode = async (deps: ApprovalDeps, courseId: number, signer: Subject, metadata: EventMetadata) => {
  const course = await loadCourse(deps.store, courseId);
  await checkApprovalReader(deps, signer, course);
  const person = await loadPerson(deps.store, signer.userId);
  if (!person) throw notFound();
  if (!person.secondFactor) throw new DomainError('422', NO_SECOND_FACTOR, { status: 422, field: 'secondFactorCode' });
  if (!deps.sealer) throw new Error('Signature codes need the secret sealer.');
  const challengeId = randomUUID();
  const code = newSignatureCode();
  const expiresAt = new Date(deps.now().getTime() + SIGNATURE_CODE_TTL_SECONDS * 1000);
  const result = await handleCommand(deps.store, {
    streamName: userStream(signer.userId),
    decider: userDecider,
    command: {
      type: 'ChallengeSecondFactor',
      purpose: 'signature',
      challengeId,
      tokenHash: hashSignatureCode(challengeId, code),
      sealed: deps.sealer.seal(code),
      expiresAt,
    },
    metadata: { ...metadata, actorId: signer.userId },
  });
  return { challengeId, expiresAt: expiresAt.toISOString(), position: result.position };
};

/** Checks the signer's password and, where they have it on, the second factor's code: the method the signature records. */
const authenticateSigner = async (deps: ApprovalDeps, userId: number, input: SignInput, metadata: EventMetadata) => {
  const person = await loadPerson(deps.store, userId);
  // A social-only account has no password to re-enter: say so, rather than "wrong password".
  if (person && person.passwordHash === null) throw new DomainError('422', PASSWORD_NEEDED_TO_SIGN, { status: 422, field: 'password' });
  const valid = await deps.passwords.verify(person?.passwordHash ?? deps.passwords.decoyHash, input.password);
  if (!person?.passwordHash || !valid) throw new DomainError('422', WRONG_PASSWORD, { status: 422, field: 'password' });
  if (!person.secondFactor) return { person, method: 'password' as const };
  if (!input.secondFactorChallenge || !input.secondFactorCode) throw new DomainError('422', CODE_NEEDED_TO_SIGN, { status: 422, field: 'secondFactorCode' });
  const challengeId = input.secondFactorChallenge;
  const now = deps.now();
  const checked = await handleCommand(deps.store, {
    streamName: userStream(userId),
    decider: userDecider,
    command: { type: 'ConfirmSignatureFactor', challengeId, codeHash: hashSignatureCode(challengeId, input.secondFactorCode), now },
    metadata: { ...metadata, actorId: userId },
  });
  // A wrong code, recorded: the same code may be typed again until the challenge has taken its last.
  if (checked.events.some((e) => e.type === 'UserSecondFactorFailed'))
    throw new DomainError('422', wrongSignatureCodeMessage(checked.state, challengeId, now), { status: 422, field: 'secondFactorCode' });
  return { person, method: 'password-second-factor' as const };
};

/**
 * A signature (21 CFR 11 style, decision 0063): the signer re-enters their password (checked with
 * argon2 against their stored hash, as logging in does); the signature names the version, step and
 * content hash it signs, and the decider refuses it unless they are the pending ones, the step is
 * unsigned and the signer is named on it and holds 1071. The last approval grants the version a code.
 */
export const signApproval = async (deps: ApprovalDeps, courseId: number, input: SignInput, signer: Subject, metadata: EventMetadata) => {
  const { person, method } = await authenticateSigner(deps, signer.userId, input, metadata);
  const course = await loadCourse(deps.store, courseId);
  const settings = await loadApprovalSettings(deps.store, scopeOf(course.owner));
  // Approvers of another scope learn nothing of the course.
  if (!approversOf(settings).has(signer.userId) && !can(signer, 1019, { kind: 'system' })) throw notFound();
  const approverIds = settings.enabled ? (settings.steps.find((s) => s.key === input.step)?.approverIds ?? []) : [];
  const signerInfo = { id: signer.userId, name: personName(person.profile), mayApprove: mayApprove(person.roles) && can(signer, 1071, { kind: 'system' }) };
  let code = wouldGrant(course.approval, input.approvalVersion, input.step, input.decision) ? await allocateCode(deps, settings.codePrefix, deps.now()) : null;
  for (let attempt = 0; ; attempt++) {
    try {
      const result = await handleCommand(deps.store, {
        streamName: courseStream(courseId),
        decider: courseDecider,
        command: {
          type: 'SignCourseApproval',
          approvalVersion: input.approvalVersion,
          step: input.step,
          decision: input.decision,
          comment: input.comment,
          contentHash: input.contentHash,
          signer: signerInfo,
          method,
          approverIds,
          code,
          now: deps.now(),
        },
        metadata,
      });
      const granted = result.events.find((e) => e.type === 'CourseApprovalGranted');
      return { id: courseId, position: result.position, code: granted?.type === 'CourseApprovalGranted' ? granted.data.code : null };
    } catch (error) {
      // Another signature landed first and made this one the last: draw a code and decide again.
      if (!(error instanceof DomainError && error.code === CODE_NEEDED) || attempt >= 3) throw error;
      code = await allocateCode(deps, settings.codePrefix, deps.now());
    }
  }
};

// ------------------------------------------------------------------ settings

/**
 * The admin's settings of a scope (system 1011): every approver named must hold 1071 (the approver
 * role, or admin) and be an active account; the ids were resolved for the caller before (decision 0047).
 */
export const setApprovalSettings = async (deps: CoursesDeps, scope: ApprovalScope, settings: ApprovalSettings, metadata: EventMetadata) => {
  const named = [...approversOf(settings)];
  const people = new Map((await approvalPeople(deps.db, named)).map((p) => [p.id, p]));
  for (const [index, step] of settings.steps.entries()) {
    for (const id of step.approverIds) {
      const person = people.get(id);
      if (person?.status !== 'active' || !mayApprove(person.roleIds.map((roleId) => ({ roleId }))))
        throw new DomainError('400', `Izbrana oseba ne sme odobravati izobraževanj (št. ${id}); dodelite ji vlogo odobritelja.`, {
          status: 400,
          field: `steps.${index}.approverIds`,
        });
    }
  }
  const result = await handleCommand(deps.store, {
    streamName: approvalSettingsStream(scope),
    decider: approvalSettingsDecider,
    command: { type: 'SetApprovalSettings', settings },
    metadata,
  });
  return { position: result.position, warnings: soleApproverWarnings(settings, new Map([...people.values()].map((p) => [p.id, p.name]))) };
};

/** The settings with each approver's name, for the admin's form. */
export const approvalSettingsView = async (deps: CoursesDeps, scope: ApprovalScope) => {
  const settings = await loadApprovalSettings(deps.store, scope);
  const people = new Map((await approvalPeople(deps.db, [...approversOf(settings)])).map((p) => [p.id, p]));
  return {
    scope,
    ...settings,
    steps: settings.steps.map((s) => ({ ...s, approvers: s.approverIds.map((id) => ({ id, name: people.get(id)?.name ?? '' })) })),
    warnings: soleApproverWarnings(settings, new Map([...people.values()].map((p) => [p.id, p.name]))),
  };
};
