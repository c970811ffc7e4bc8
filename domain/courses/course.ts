import { z } from 'zod';
import type { Decider } from '../shared/decider.ts';
import { DomainError } from '../shared/domain-error.ts';
import { defineEvent, type EventsOf } from '../shared/event.ts';
import type { BlockFields, CourseFields } from './course.rules.ts';
import {
  type ApprovalCommand,
  type ApprovalContext,
  type CourseApprovalEvent,
  type CourseApprovalState,
  courseApprovalEvents,
  decideApproval,
  evolveApproval,
  NO_APPROVALS,
  onContentChange,
  requireGrant,
  requireGrantToNotify,
} from './course-approval.ts';
import { contentFieldsDiffer, courseContentHash } from './course-content-hash.ts';
import type { CourseCosts } from './course-costs.rules.ts';
import { courseStatus } from './course-status.ts';

/**
 * A course and its blocks, in order (spec §3). The blocks live in the course's stream, so their
 * order and the course's state change together. Editing is validated by course.rules.ts before a
 * command is made; the decider keeps what the rules cannot see (status, block ids, self-reference).
 */
export const courseStream = (courseId: number) => `course-${courseId}`;

/** A stored file offered with the course: jpg, png, gif, pdf or zip up to 25 MB (spec §5), checked by content when uploaded. */
const attachmentSchema = z.object({
  fileId: z.number().int().positive(),
  name: z.string().min(1).max(200),
  contentType: z.string().min(1).max(100),
  size: z.number().int().min(0),
});
export type CourseAttachment = z.infer<typeof attachmentSchema>;
/** spec §9: manual notifications of a course at least 10 minutes apart; §8 "notification not sent". */
export const NOTIFICATION_INTERVAL_MS = 10 * 60 * 1000;
export const NOTIFICATION_TOO_SOON = 'Obvestilo ni bilo poslano: med dvema obvestiloma izobraževanja mora miniti vsaj 10 minut.';

/** How many files a course offers at most. */
export const MAX_ATTACHMENTS = 50;

const ownerSchema = z.object({ companyId: z.number().int().positive(), unitId: z.number().int().positive() });
/** Where a community-authored course belongs: its author's unit and company. */
export type CourseOwner = z.infer<typeof ownerSchema>;

/** Stored as validated; the schemas here only check the envelope. */
const courseFields = z.record(z.string(), z.unknown());
const publishedUnder = z.object({ contentHash: z.string().optional(), approvalCode: z.string().optional() });
const blockFields = z.object({ kind: z.string() }).passthrough();

export const courseEvents = [
  // `owner`: the unit (and its company) of a client who authored the course in their community (spec §6
  // course 2005-2007); absent for courses the platform's admins and editors author (system 1018).
  defineEvent('CourseCreated', z.object({ courseId: z.number().int().positive(), fields: courseFields, owner: ownerSchema.optional() })),
  defineEvent('CourseUpdated', z.object({ fields: courseFields })),
  // Issue 36 (decision 0063): under approval, the content hash published and the approval code it was granted.
  defineEvent('CoursePublished', publishedUnder),
  defineEvent('CourseUnpublished', z.object({})),
  defineEvent('CourseArchived', z.object({})),
  defineEvent('CourseRestored', publishedUnder),
  defineEvent('CourseDeleted', z.object({})),
  defineEvent('CourseBlockAdded', z.object({ blockId: z.number().int().positive(), position: z.number().int().min(0), block: blockFields })),
  defineEvent('CourseBlockUpdated', z.object({ blockId: z.number().int().positive(), block: blockFields })),
  defineEvent('CourseBlockRemoved', z.object({ blockId: z.number().int().positive() })),
  defineEvent('CourseBlockMoved', z.object({ blockId: z.number().int().positive(), position: z.number().int().min(0) })),
  // Issue 7: the course's costs as set by an admin (the whole set each time; decision 0015).
  defineEvent('CourseCostsSet', z.object({ costs: z.record(z.string(), z.unknown()) })),
  // Issue 12: the deal withdrawn; the course is back on the spec §9 defaults and billed to nobody (decision 0016).
  defineEvent('CourseCostsWithdrawn', z.object({})),
  // Issue 15: files participants can download from the course page (spec §3 attachments).
  defineEvent('CourseAttachmentAdded', z.object({ attachment: attachmentSchema })),
  defineEvent('CourseAttachmentRemoved', z.object({ fileId: z.number().int().positive() })),
  // Issue 16: a notification to the course's audience (a manual one, a reminder, a new-course notice); jobs deliver it.
  defineEvent(
    'CourseNotificationRequested',
    z.object({
      notificationId: z.uuid(),
      kind: z.enum(['manual', 'reminder', 'new-course']),
      subject: z.string().min(1).max(200),
      message: z.string().min(1).max(5000),
      requestedAt: z.iso.datetime(),
    }),
  ),
  // Issue 36: approval before publishing (course-approval.ts).
  ...courseApprovalEvents,
] as const;

export type CourseEvent = EventsOf<typeof courseEvents>;
export type CourseBlock = { readonly id: number; readonly fields: BlockFields };

export type Course = {
  readonly status: 'draft' | 'published' | 'archived' | 'deleted';
  readonly id: number;
  readonly fields: CourseFields;
  readonly blocks: readonly CourseBlock[];
  /** Publication survives archiving: a restored course is published again if it was before. */
  readonly published: boolean;
  /** The costs last set; the defaults of spec §9 until then. */
  readonly costs: CourseCosts | null;
  /**
   * The content version: how many block changes the course has had. Each version's blocks stay
   * (`contents[version]`), so an enrollment keeps the content it started with (decision 0021).
   */
  readonly contentVersion: number;
  readonly contents: readonly (readonly CourseBlock[])[];
  readonly attachments: readonly CourseAttachment[];
  /** A community's own course (authored by its client), or null for the platform's. */
  readonly owner: CourseOwner | null;
  /** Notifications asked for so far (issue 16): their ids (each is asked for once) and when the last manual one was. */
  readonly notificationIds: readonly string[];
  readonly lastManualNotificationAt: string | null;
  /** Issue 36: the versions submitted for approval, their signatures and grants, and what was published under which hash. */
  readonly approval: CourseApprovalState;
};

export type CourseState = { readonly status: 'none' } | Course;

export type CourseCommand =
  | { type: 'CreateCourse'; courseId: number; fields: CourseFields; owner?: CourseOwner | null }
  | { type: 'UpdateCourse'; fields: CourseFields; approval?: ApprovalContext }
  /** `approval` (decision 0063): the steps the course's scope requires, so that nothing publishes unapproved content. */
  | { type: 'PublishCourse'; approval: ApprovalContext }
  | { type: 'UnpublishCourse' }
  | { type: 'ArchiveCourse' }
  | { type: 'RestoreCourse'; approval: ApprovalContext }
  | { type: 'DeleteCourse' }
  | { type: 'AddBlock'; blockId: number; position?: number; block: BlockFields; approval?: ApprovalContext }
  | { type: 'UpdateBlock'; blockId: number; block: BlockFields; approval?: ApprovalContext }
  | { type: 'RemoveBlock'; blockId: number; approval?: ApprovalContext }
  | { type: 'MoveBlock'; blockId: number; position: number; approval?: ApprovalContext }
  | ApprovalCommand
  /**
   * The course's deal: its agreed costs and the company billed (decision 0016). `now` decides
   * whether the course is active (spec §4: costs cannot be edited then). `deal` says what the caller
   * expects: a new deal (create, 1053), a change of the existing one (update, 1054), or either.
   */
  | { type: 'SetCosts'; costs: CourseCosts; now: Date; deal?: 'new' | 'existing' }
  | { type: 'WithdrawCosts'; now: Date }
  | { type: 'AddAttachment'; attachment: CourseAttachment; approval?: ApprovalContext }
  /**
   * A notification to the course's audience (issue 16). Manual ones at least NOTIFICATION_INTERVAL_MS
   * apart (spec §8, §9: 10 minutes); an id already asked for is asked for once (a repeated tick).
   */
  | {
      type: 'RequestNotification';
      notificationId: string;
      kind: 'manual' | 'reminder' | 'new-course';
      subject: string;
      message: string;
      now: Date;
      /** Decision 0063: a manual notification of a course under approval needs it published with a grant of its content as it is now. */
      approval?: ApprovalContext;
    }
  | { type: 'RemoveAttachment'; fileId: number; approval?: ApprovalContext };

const move = <T>(list: readonly T[], from: number, to: number) => {
  const copy = [...list];
  const [item] = copy.splice(from, 1);
  copy.splice(Math.max(0, Math.min(to, copy.length)), 0, item as T);
  return copy;
};

const status = (published: boolean, archived: boolean): Course['status'] => (archived ? 'archived' : published ? 'published' : 'draft');

export const evolveCourse = (state: CourseState, event: CourseEvent): CourseState => {
  if (event.type === 'CourseCreated') {
    return {
      status: 'draft',
      id: event.data.courseId,
      fields: event.data.fields as unknown as CourseFields,
      blocks: [],
      published: false,
      costs: null,
      contentVersion: 0,
      contents: [[]],
      attachments: [],
      owner: event.data.owner ?? null,
      notificationIds: [],
      lastManualNotificationAt: null,
      approval: NO_APPROVALS,
    };
  }
  if (state.status === 'none') return state;
  const next = evolveCourseState(state, event);
  // Every block change is a new content version; the earlier ones stay for enrollments that started on them.
  return event.type.startsWith('CourseBlock') ? { ...next, contentVersion: state.contentVersion + 1, contents: [...state.contents, next.blocks] } : next;
};

/** The blocks of a content version; null (an enrollment from before versions were kept) or an unknown one: the current blocks. */
export const blocksAt = (course: Course, version: number | null): readonly CourseBlock[] =>
  version === null ? course.blocks : (course.contents[version] ?? course.blocks);

const evolveCourseState = (state: Course, event: CourseEvent): Course => {
  switch (event.type) {
    case 'CourseCreated':
      return state;
    case 'CourseUpdated':
      return { ...state, fields: event.data.fields as unknown as CourseFields };
    case 'CoursePublished':
      return {
        ...state,
        published: true,
        status: state.status === 'archived' ? 'archived' : 'published',
        approval: { ...state.approval, published: { contentHash: event.data.contentHash ?? null, approvalCode: event.data.approvalCode ?? null } },
      };
    case 'CourseUnpublished':
      return { ...state, published: false, status: state.status === 'archived' ? 'archived' : 'draft', approval: { ...state.approval, published: null } };
    case 'CourseArchived':
      return { ...state, status: 'archived' };
    case 'CourseRestored':
      return {
        ...state,
        status: status(state.published, false),
        approval:
          event.data.contentHash === undefined
            ? state.approval
            : { ...state.approval, published: { contentHash: event.data.contentHash, approvalCode: event.data.approvalCode ?? null } },
      };
    case 'CourseDeleted':
      return { ...state, status: 'deleted' };
    case 'CourseBlockAdded': {
      const block = { id: event.data.blockId, fields: event.data.block as unknown as BlockFields };
      const blocks = [...state.blocks];
      blocks.splice(Math.min(event.data.position, blocks.length), 0, block);
      return { ...state, blocks };
    }
    case 'CourseBlockUpdated':
      return { ...state, blocks: state.blocks.map((b) => (b.id === event.data.blockId ? { ...b, fields: event.data.block as unknown as BlockFields } : b)) };
    case 'CourseBlockRemoved':
      return { ...state, blocks: state.blocks.filter((b) => b.id !== event.data.blockId) };
    case 'CourseBlockMoved': {
      const from = state.blocks.findIndex((b) => b.id === event.data.blockId);
      return from < 0 ? state : { ...state, blocks: move(state.blocks, from, event.data.position) };
    }
    case 'CourseCostsSet':
      return { ...state, costs: event.data.costs as unknown as CourseCosts };
    case 'CourseCostsWithdrawn':
      return { ...state, costs: null };
    case 'CourseAttachmentAdded':
      return { ...state, attachments: [...state.attachments, event.data.attachment] };
    case 'CourseNotificationRequested':
      return {
        ...state,
        notificationIds: [...state.notificationIds, event.data.notificationId],
        lastManualNotificationAt: event.data.kind === 'manual' ? event.data.requestedAt : state.lastManualNotificationAt,
      };
    case 'CourseAttachmentRemoved':
      return { ...state, attachments: state.attachments.filter((a) => a.fileId !== event.data.fileId) };
    case 'CourseApprovalSubmitted':
    case 'CourseApprovalSigned':
    case 'CourseApprovalWithdrawn':
    case 'CourseApprovalGranted':
      return { ...state, approval: evolveApproval(state.approval, event as CourseApprovalEvent) };
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
};

const notFound = () => new DomainError('404', 'Izobraževanje ne obstaja.', { status: 404 });
const blockNotFound = () => new DomainError('404', 'Vsebinski blok ne obstaja.', { status: 404 });

const requireCourse = (state: CourseState): Course => {
  if (state.status === 'none' || state.status === 'deleted') throw notFound();
  return state;
};

const noDeal = () => new DomainError('404', 'Dogovor o stroških za to izobraževanje ne obstaja.', { status: 404 });

const refuseWhileActive = (course: Course, now: Date) => {
  if (course.published && courseStatus(course, { status: 'none' }, now) === 'active') {
    throw new DomainError('422', 'Stroškov ni mogoče urejati, ko je izobraževanje aktivno.', { field: 'costs' });
  }
};

const checkPrerequisites = (courseId: number, fields: CourseFields) => {
  if (fields.prerequisites.includes(courseId))
    throw new DomainError('400', 'Izobraževanje ne more biti pogoj samemu sebi.', { status: 400, field: 'prerequisites' });
};

/** Events that change what an approval signs (course-content-hash.ts); a CourseUpdated only when a content field changed. */
const CONTENT_EVENTS = new Set([
  'CourseBlockAdded',
  'CourseBlockUpdated',
  'CourseBlockRemoved',
  'CourseBlockMoved',
  'CourseAttachmentAdded',
  'CourseAttachmentRemoved',
]);
const changesContent = (course: Course, event: CourseEvent) =>
  CONTENT_EVENTS.has(event.type) || (event.type === 'CourseUpdated' && contentFieldsDiffer(course.fields, event.data.fields as unknown as CourseFields));

/**
 * Every command of the course stream. Approval (issue 36, decision 0063) wraps the rest: its own
 * commands are decided on the content hash as it is now; a content change is refused on a published
 * course under approval and ends a version waiting for signatures.
 */
export const decideCourse = (command: CourseCommand, state: CourseState): CourseEvent[] => {
  if (command.type === 'SubmitCourseApproval' || command.type === 'WithdrawCourseApproval' || command.type === 'SignCourseApproval') {
    const course = requireCourse(state);
    return decideApproval(command, { approval: course.approval, contentHash: courseContentHash(course), contentVersion: course.contentVersion });
  }
  const events = decideCourseChange(command, state);
  if (state.status === 'none' || state.status === 'deleted' || !events.some((e) => changesContent(state, e))) return events;
  return [...events, ...onContentChange(state.approval, state.published, 'approval' in command ? command.approval : undefined)];
};

const decideCourseChange = (command: Exclude<CourseCommand, ApprovalCommand>, state: CourseState): CourseEvent[] => {
  if (command.type === 'CreateCourse') {
    if (state.status !== 'none') throw new DomainError('409', 'Izobraževanje že obstaja.', { status: 409 });
    checkPrerequisites(command.courseId, command.fields);
    return [
      {
        type: 'CourseCreated',
        data: {
          courseId: command.courseId,
          fields: command.fields as unknown as Record<string, unknown>,
          ...(command.owner ? { owner: command.owner } : {}),
        },
      },
    ];
  }
  const course = requireCourse(state);
  switch (command.type) {
    case 'UpdateCourse':
      checkPrerequisites(course.id, command.fields);
      return JSON.stringify(course.fields) === JSON.stringify(command.fields)
        ? []
        : [{ type: 'CourseUpdated', data: { fields: command.fields as unknown as Record<string, unknown> } }];
    case 'PublishCourse': {
      if (course.blocks.length === 0) throw new DomainError('422', 'Izobraževanje brez vsebine ni mogoče objaviti.', { status: 422 });
      if (course.published) return [];
      const grant = requireGrant(course.approval, courseContentHash(course), command.approval.steps);
      return [{ type: 'CoursePublished', data: grant ?? {} }];
    }
    case 'UnpublishCourse':
      return course.published ? [{ type: 'CourseUnpublished', data: {} }] : [];
    case 'ArchiveCourse':
      return course.status === 'archived' ? [] : [{ type: 'CourseArchived', data: {} }];
    case 'RestoreCourse': {
      if (course.status !== 'archived') return [];
      // Restoring a published course makes it visible again: the same approval as publishing.
      const grant = course.published ? requireGrant(course.approval, courseContentHash(course), command.approval.steps) : null;
      return [{ type: 'CourseRestored', data: grant ?? {} }];
    }
    case 'DeleteCourse':
      return [{ type: 'CourseDeleted', data: {} }];
    case 'AddBlock':
      if (course.blocks.some((b) => b.id === command.blockId)) throw new DomainError('409', 'Vsebinski blok že obstaja.', { status: 409 });
      return [
        { type: 'CourseBlockAdded', data: { blockId: command.blockId, position: command.position ?? course.blocks.length, block: command.block as never } },
      ];
    case 'UpdateBlock': {
      const block = course.blocks.find((b) => b.id === command.blockId);
      if (!block) throw blockNotFound();
      if (block.fields.kind !== command.block.kind) throw new DomainError('400', 'Vrste bloka ni mogoče spremeniti.', { status: 400, field: 'kind' });
      return JSON.stringify(block.fields) === JSON.stringify(command.block)
        ? []
        : [{ type: 'CourseBlockUpdated', data: { blockId: command.blockId, block: command.block as never } }];
    }
    case 'RemoveBlock':
      if (!course.blocks.some((b) => b.id === command.blockId)) throw blockNotFound();
      return [{ type: 'CourseBlockRemoved', data: { blockId: command.blockId } }];
    case 'MoveBlock': {
      const from = course.blocks.findIndex((b) => b.id === command.blockId);
      if (from < 0) throw blockNotFound();
      return from === command.position ? [] : [{ type: 'CourseBlockMoved', data: { blockId: command.blockId, position: command.position } }];
    }
    case 'SetCosts':
      refuseWhileActive(course, command.now);
      if (command.deal === 'new' && course.costs !== null) throw new DomainError('409', 'Dogovor o stroških že obstaja. Uredite obstoječega.', { status: 409 });
      if (command.deal === 'existing' && course.costs === null) throw noDeal();
      return [{ type: 'CourseCostsSet', data: { costs: command.costs as unknown as Record<string, unknown> } }];
    case 'WithdrawCosts':
      if (course.costs === null) throw noDeal();
      refuseWhileActive(course, command.now);
      return [{ type: 'CourseCostsWithdrawn', data: {} }];
    case 'AddAttachment':
      if (course.attachments.some((a) => a.fileId === command.attachment.fileId)) return [];
      if (course.attachments.length >= MAX_ATTACHMENTS)
        throw new DomainError('422', `Izobraževanje ima lahko največ ${MAX_ATTACHMENTS} priponk.`, { status: 422, field: 'fileId' });
      return [{ type: 'CourseAttachmentAdded', data: { attachment: command.attachment } }];
    case 'RequestNotification': {
      if (course.notificationIds.includes(command.notificationId)) return [];
      if (command.kind === 'manual')
        requireGrantToNotify(course.approval, courseContentHash(course), course.published && course.status === 'published', command.approval?.steps ?? null);
      const last = course.lastManualNotificationAt === null ? null : new Date(course.lastManualNotificationAt).getTime();
      if (command.kind === 'manual' && last !== null && command.now.getTime() - last < NOTIFICATION_INTERVAL_MS)
        throw new DomainError('422', NOTIFICATION_TOO_SOON, { status: 422 });
      return [
        {
          type: 'CourseNotificationRequested',
          data: {
            notificationId: command.notificationId,
            kind: command.kind,
            subject: command.subject,
            message: command.message,
            requestedAt: command.now.toISOString(),
          },
        },
      ];
    }
    case 'RemoveAttachment':
      if (!course.attachments.some((a) => a.fileId === command.fileId)) throw new DomainError('404', 'Priponka ne obstaja.', { status: 404 });
      return [{ type: 'CourseAttachmentRemoved', data: { fileId: command.fileId } }];
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
};

export const courseDecider: Decider<CourseCommand, CourseEvent, CourseState> = {
  initialState: { status: 'none' },
  evolve: evolveCourse,
  decide: decideCourse,
};
