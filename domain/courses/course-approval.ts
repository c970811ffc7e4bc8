import { z } from 'zod';
import { DomainError } from '../shared/domain-error.ts';
import { defineEvent, type EventsOf } from '../shared/event.ts';

/**
 * Approval before publishing (issue 36 item 2, decision 0063): an author submits the course's
 * content as it stands (its hash) for approval; each step's approver signs it, re-entering their
 * password; the last approval grants the version a code. Publishing needs a grant for the content
 * as it is now. The events live in the course's stream (course.ts lists them), so a signature and
 * the content it signs are decided on one revision: no signature lands on content changed since.
 *
 * This file knows nothing of course.ts (no import circle): course.ts hands it the approval state,
 * the current content hash and whether the course is published.
 */

/** A step as a version records it: its key and its label at the time. */
const stepRef = z.object({ key: z.string().min(1).max(40), label: z.string().min(1).max(100) });
export type ApprovalStepRef = z.infer<typeof stepRef>;
const hash = z.string().regex(/^[0-9a-f]{64}$/);
const comment = z.string().max(2000).nullable();
export const SIGNATURE_METHODS = ['password', 'password-second-factor'] as const;
export type SignatureMethod = (typeof SIGNATURE_METHODS)[number];

export const courseApprovalEvents = [
  defineEvent(
    'CourseApprovalSubmitted',
    z.object({
      approvalVersion: z.number().int().positive(),
      contentHash: hash,
      contentVersion: z.number().int().min(0),
      steps: z.array(stepRef).min(1).max(10),
      submittedBy: z.number().int().positive().nullable(),
      submittedByName: z.string().max(300).optional(),
      submittedAt: z.iso.datetime(),
      comment,
    }),
  ),
  defineEvent(
    'CourseApprovalSigned',
    z.object({
      approvalVersion: z.number().int().positive(),
      step: z.string().min(1).max(40),
      decision: z.enum(['approved', 'rejected']),
      comment,
      signerId: z.number().int().positive(),
      signerName: z.string().max(300),
      /** What the signature means, in the words the signer was shown (Slovenian). */
      meaning: z.string().max(1000),
      contentHash: hash,
      signedAt: z.iso.datetime(),
      /** How the signer proved it was them: the password re-entered, and the second factor's code where they have it on (decision 0063). */
      method: z.enum(SIGNATURE_METHODS),
    }),
  ),
  defineEvent(
    'CourseApprovalWithdrawn',
    z.object({
      approvalVersion: z.number().int().positive(),
      /** Who withdrew it: the author, or whoever changed the content under it (`reason: 'content-changed'`). */
      by: z.number().int().positive().nullable(),
      at: z.iso.datetime(),
      comment,
      reason: z.enum(['author', 'content-changed']).optional(),
    }),
  ),
  defineEvent(
    'CourseApprovalGranted',
    z.object({ approvalVersion: z.number().int().positive(), contentHash: hash, code: z.string().min(1).max(40), grantedAt: z.iso.datetime() }),
  ),
] as const;

export type ApprovalSignature = {
  readonly step: string;
  readonly decision: 'approved' | 'rejected';
  readonly comment: string | null;
  readonly signerId: number;
  readonly signerName: string;
  readonly signedAt: string;
  readonly meaning: string;
};

export type ApprovalVersion = {
  readonly approvalVersion: number;
  readonly status: 'pending' | 'approved' | 'rejected' | 'withdrawn';
  readonly contentHash: string;
  readonly contentVersion: number;
  readonly steps: readonly ApprovalStepRef[];
  readonly submittedBy: number | null;
  readonly submittedByName: string | null;
  readonly submittedAt: string;
  readonly comment: string | null;
  readonly signatures: readonly ApprovalSignature[];
  readonly code: string | null;
  readonly grantedAt: string | null;
};

/** Every version submitted so far (version n at index n - 1), and what was published under which hash and code. */
export type CourseApprovalState = {
  readonly versions: readonly ApprovalVersion[];
  readonly published: { readonly contentHash: string | null; readonly approvalCode: string | null } | null;
};

export const NO_APPROVALS: CourseApprovalState = { versions: [], published: null };

export type CourseApprovalEvent = EventsOf<typeof courseApprovalEvents>;

const withVersion = (state: CourseApprovalState, n: number, change: (v: ApprovalVersion) => ApprovalVersion): CourseApprovalState => ({
  ...state,
  versions: state.versions.map((v) => (v.approvalVersion === n ? change(v) : v)),
});

export const evolveApproval = (state: CourseApprovalState, event: CourseApprovalEvent): CourseApprovalState => {
  switch (event.type) {
    case 'CourseApprovalSubmitted': {
      const d = event.data;
      const version: ApprovalVersion = {
        approvalVersion: d.approvalVersion,
        status: 'pending',
        contentHash: d.contentHash,
        contentVersion: d.contentVersion,
        steps: d.steps,
        submittedBy: d.submittedBy,
        submittedByName: d.submittedByName ?? null,
        submittedAt: d.submittedAt,
        comment: d.comment,
        signatures: [],
        code: null,
        grantedAt: null,
      };
      return { ...state, versions: [...state.versions, version] };
    }
    case 'CourseApprovalSigned': {
      const d = event.data;
      const signature: ApprovalSignature = {
        step: d.step,
        decision: d.decision,
        comment: d.comment,
        signerId: d.signerId,
        signerName: d.signerName,
        signedAt: d.signedAt,
        meaning: d.meaning,
      };
      return withVersion(state, d.approvalVersion, (v) => ({
        ...v,
        signatures: [...v.signatures, signature],
        status: d.decision === 'rejected' ? 'rejected' : v.status,
      }));
    }
    case 'CourseApprovalWithdrawn':
      return withVersion(state, event.data.approvalVersion, (v) => ({ ...v, status: 'withdrawn' }));
    case 'CourseApprovalGranted':
      return withVersion(state, event.data.approvalVersion, (v) => ({ ...v, status: 'approved', code: event.data.code, grantedAt: event.data.grantedAt }));
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
};

// ------------------------------------------------------------------ decisions

/**
 * What the application knows that the course's stream does not (decision 0063): the steps the
 * course's scope requires now (null: its scope has approval off, the course behaves as before
 * issue 36), and who acts when.
 */
export type ApprovalContext = { readonly steps: readonly ApprovalStepRef[] | null; readonly actorId: number | null; readonly now: Date };

export type ApprovalCommand =
  | {
      type: 'SubmitCourseApproval';
      contentHash: string;
      comment: string | null;
      steps: readonly ApprovalStepRef[] | null;
      submittedBy: number;
      submittedByName: string;
      now: Date;
    }
  | { type: 'WithdrawCourseApproval'; approvalVersion: number; comment: string | null; by: number; now: Date }
  | {
      type: 'SignCourseApproval';
      approvalVersion: number;
      step: string;
      decision: 'approved' | 'rejected';
      comment: string | null;
      contentHash: string;
      signer: { readonly id: number; readonly name: string; readonly mayApprove: boolean };
      method: SignatureMethod;
      /** The people the course's scope names on this step now (its settings). */
      approverIds: readonly number[];
      /** The code for the grant, when this signature may be the last approval (allocated by the application). */
      code: string | null;
      now: Date;
    };

/** The version waiting for signatures, if any: only the newest may be pending. */
export const pendingVersion = (state: CourseApprovalState): ApprovalVersion | null => {
  const last = state.versions.at(-1);
  return last?.status === 'pending' ? last : null;
};

/** The newest granted version of this content, if any. */
export const grantFor = (state: CourseApprovalState, contentHash: string): ApprovalVersion | null =>
  state.versions.findLast((v) => v.status === 'approved' && v.contentHash === contentHash) ?? null;

export const lastGranted = (state: CourseApprovalState): ApprovalVersion | null => state.versions.findLast((v) => v.status === 'approved') ?? null;

const approvedSteps = (version: ApprovalVersion) => new Set(version.signatures.filter((s) => s.decision === 'approved').map((s) => s.step));

/**
 * The required steps this content lacks approval of: none when a grant of the content covers them
 * all; else those not approved in the newest version of this content that is granted or pending.
 */
export const missingApprovals = (state: CourseApprovalState, contentHash: string, steps: readonly ApprovalStepRef[]): ApprovalStepRef[] => {
  const granted = grantFor(state, contentHash);
  const candidate = granted ?? state.versions.findLast((v) => v.contentHash === contentHash && v.status === 'pending') ?? null;
  const approved = candidate ? approvedSteps(candidate) : new Set<string>();
  const missing = steps.filter((s) => !approved.has(s.key));
  // A grant is whole only when it was granted; a pending version with every current step signed (steps removed since) still needs its grant.
  return missing.length === 0 && !granted ? [...steps] : missing;
};

export const approvalMissingMessage = (missing: readonly ApprovalStepRef[]) =>
  `Izobraževanje mora biti pred objavo odobreno (manjkajo odobritve: ${missing.map((s) => s.label).join(', ')}).`;

export const PUBLISHED_UNDER_APPROVAL =
  'Objavljenega izobraževanja, ki ga je treba pred objavo odobriti, ni mogoče spreminjati. Najprej umaknite objavo, nato spremenjeno vsebino oddajte v odobritev.';

/**
 * The sentence a signer signs: the API hands it to the signature dialog (meaningToSign of the pending
 * version's steps) and the signature records the same one, so what was shown is what was signed.
 */
export const signatureMeaning = (decision: 'approved' | 'rejected', stepLabel: string, approvalVersion: number, contentHash: string) =>
  decision === 'approved'
    ? `S tem elektronskim podpisom potrjujem, da sem pregledal(a) vsebino izobraževanja v različici ${approvalVersion} (zgoščena vrednost ${contentHash.slice(0, 16)}…) in jo v koraku »${stepLabel}« odobravam.`
    : `S tem elektronskim podpisom potrjujem, da sem pregledal(a) vsebino izobraževanja v različici ${approvalVersion} (zgoščena vrednost ${contentHash.slice(0, 16)}…) in jo v koraku »${stepLabel}« zavračam.`;

export const SUBMITTER_MAY_NOT_SIGN = 'Različice, ki ste jo sami oddali v odobritev, ne morete podpisati; podpisati jo mora druga oseba.';
export const ONE_STEP_PER_PERSON = (stepLabel: string) =>
  `V tej različici ste že podpisali korak »${stepLabel}«. Vsak korak iste različice mora podpisati druga oseba.`;

/**
 * Separation of duties (decision 0063): whoever submitted a version does not sign it, and one person
 * signs at most one step of a version. The reason in Slovenian, or null when the person may sign.
 */
export const separationOfDuties = (version: ApprovalVersion, signerId: number): string | null => {
  if (version.submittedBy === signerId) return SUBMITTER_MAY_NOT_SIGN;
  const own = version.signatures.find((s) => s.signerId === signerId);
  if (!own) return null;
  return ONE_STEP_PER_PERSON(version.steps.find((s) => s.key === own.step)?.label ?? own.step);
};

/**
 * Manual notifications of a course under approval (decision 0063): they carry the course to its
 * audience, so only a published course whose content as it is now has a grant may send them.
 */
export const NOTIFY_NEEDS_GRANT =
  'Obvestila ni mogoče poslati: izobraževanje, ki ga je treba pred objavo odobriti, mora biti objavljeno z odobreno trenutno vsebino.';
export const requireGrantToNotify = (state: CourseApprovalState, contentHash: string, published: boolean, steps: readonly ApprovalStepRef[] | null) => {
  if (steps === null) return;
  if (!published || grantFor(state, contentHash) === null) throw new DomainError('422', NOTIFY_NEEDS_GRANT, { status: 422 });
};

/** The decider needs a grant code for this signature: the application allocates one and asks again. */
export const CODE_NEEDED = 'approval-code-needed';

const conflict = (message: string) => new DomainError('409', message, { status: 409 });

/** Publishing, or restoring a published course: refused unless the content as it is now has a grant covering the required steps. */
export const requireGrant = (
  state: CourseApprovalState,
  contentHash: string,
  steps: readonly ApprovalStepRef[] | null,
): { contentHash: string; approvalCode: string } | null => {
  if (steps === null) return null;
  const missing = missingApprovals(state, contentHash, steps);
  if (missing.length > 0) throw new DomainError('422', approvalMissingMessage(missing), { status: 422 });
  return { contentHash, approvalCode: (grantFor(state, contentHash) as ApprovalVersion).code as string };
};

/**
 * A content change (the events a command produced change the content): refused on a published
 * course under approval; a version waiting for signatures ends with it (a new one must be submitted).
 */
export const onContentChange = (state: CourseApprovalState, published: boolean, context: ApprovalContext | undefined): CourseApprovalEvent[] => {
  if (published && context?.steps) throw new DomainError('422', PUBLISHED_UNDER_APPROVAL, { status: 422 });
  const pending = pendingVersion(state);
  if (!pending) return [];
  // Every route that changes content passes its context; a caller that does not would let a signature land on other content.
  if (!context) throw new Error('A content change of a course with a pending approval needs the approval context.');
  return [
    {
      type: 'CourseApprovalWithdrawn',
      data: {
        approvalVersion: pending.approvalVersion,
        by: context.actorId,
        at: context.now.toISOString(),
        comment: 'Vsebina se je spremenila; različico je treba znova oddati v odobritev.',
        reason: 'content-changed',
      },
    },
  ];
};

export const decideApproval = (
  command: ApprovalCommand,
  course: { readonly approval: CourseApprovalState; readonly contentHash: string; readonly contentVersion: number },
): CourseApprovalEvent[] => {
  const state = course.approval;
  switch (command.type) {
    case 'SubmitCourseApproval': {
      if (command.steps === null) throw new DomainError('422', 'Za to izobraževanje odobritev pred objavo ni vključena.', { status: 422 });
      if (command.contentHash !== course.contentHash)
        throw conflict('Vsebina izobraževanja se je medtem spremenila. Osvežite stran in preglejte, kaj oddajate.');
      const pending = pendingVersion(state);
      if (pending) throw conflict(`Različica ${pending.approvalVersion} že čaka na odobritev. Počakajte na odločitev ali jo umaknite.`);
      if (missingApprovals(state, command.contentHash, command.steps).length === 0) throw conflict('Ta vsebina je že odobrena.');
      return [
        {
          type: 'CourseApprovalSubmitted',
          data: {
            approvalVersion: state.versions.length + 1,
            contentHash: command.contentHash,
            contentVersion: course.contentVersion,
            steps: command.steps.map((s) => ({ key: s.key, label: s.label })),
            submittedBy: command.submittedBy,
            submittedByName: command.submittedByName,
            submittedAt: command.now.toISOString(),
            comment: command.comment,
          },
        },
      ];
    }
    case 'WithdrawCourseApproval': {
      const pending = pendingVersion(state);
      if (!pending || pending.approvalVersion !== command.approvalVersion) throw conflict('Ta različica ne čaka na odobritev.');
      return [
        {
          type: 'CourseApprovalWithdrawn',
          data: { approvalVersion: pending.approvalVersion, by: command.by, at: command.now.toISOString(), comment: command.comment, reason: 'author' },
        },
      ];
    }
    case 'SignCourseApproval': {
      // A signature names the version, the step and the content it signs: any of them not the current one is a replay or a forgery.
      const pending = pendingVersion(state);
      if (!pending || pending.approvalVersion !== command.approvalVersion) throw conflict('Ta različica ne čaka več na odobritev; podpis ni bil shranjen.');
      if (command.contentHash !== pending.contentHash || command.contentHash !== course.contentHash)
        throw conflict('Podpis se ne nanaša na vsebino, ki čaka na odobritev; podpis ni bil shranjen.');
      const step = pending.steps.find((s) => s.key === command.step);
      if (!step) throw conflict('Ta različica nima tega koraka odobritve.');
      if (!command.signer.mayApprove || !command.approverIds.includes(command.signer.id))
        throw new DomainError('403', 'Tega koraka odobritve ne morete podpisati.', { status: 403 });
      if (pending.signatures.some((s) => s.step === step.key)) throw conflict(`Korak »${step.label}« je že podpisan.`);
      const duty = separationOfDuties(pending, command.signer.id);
      if (duty) throw new DomainError('403', duty, { status: 403 });
      if (command.decision === 'rejected' && !command.comment?.trim())
        throw new DomainError('422', 'Pri zavrnitvi vpišite razlog.', { status: 422, field: 'comment' });
      const signedAt = command.now.toISOString();
      const signed: CourseApprovalEvent = {
        type: 'CourseApprovalSigned',
        data: {
          approvalVersion: pending.approvalVersion,
          step: step.key,
          decision: command.decision,
          comment: command.comment?.trim() || null,
          signerId: command.signer.id,
          signerName: command.signer.name,
          meaning: signatureMeaning(command.decision, step.label, pending.approvalVersion, pending.contentHash),
          contentHash: pending.contentHash,
          signedAt,
          method: command.method,
        },
      };
      if (command.decision === 'rejected') return [signed];
      const approved = approvedSteps(pending);
      approved.add(step.key);
      if (!pending.steps.every((s) => approved.has(s.key))) return [signed];
      if (command.code === null) throw new DomainError(CODE_NEEDED, 'Koda odobritve še ni dodeljena.', { status: 409 });
      return [
        signed,
        {
          type: 'CourseApprovalGranted',
          data: { approvalVersion: pending.approvalVersion, contentHash: pending.contentHash, code: command.code, grantedAt: signedAt },
        },
      ];
    }
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
};

/** Whether this signature, if valid, is the last approval of its version (the application then allocates a code first). */
export const wouldGrant = (state: CourseApprovalState, approvalVersion: number, step: string, decision: 'approved' | 'rejected') => {
  const pending = pendingVersion(state);
  if (!pending || pending.approvalVersion !== approvalVersion || decision !== 'approved') return false;
  const approved = approvedSteps(pending);
  approved.add(step);
  return pending.steps.every((s) => approved.has(s.key));
};
