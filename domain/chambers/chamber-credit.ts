import { z } from 'zod';
import type { Decider } from '../shared/decider.ts';
import { defineEvent, type EventsOf } from '../shared/event.ts';

/**
 * Credit points a participant earned on a course that reports to a professional chamber (spec §3
 * course "external id and sync destination", chambers 1-3; issue 17 item 6; decision 0030): earned
 * when the course is completed, then reported to the chamber until the chamber acknowledges it.
 * One record per person and course, in `chambercredit-<courseId>_<userId>` (like the enrollment it
 * comes from), so a completion seen twice is earned once and acknowledged once. The events hold ids,
 * points, dates and the chamber's receipt; the person's numbers are read when the report is sent.
 */
export const chamberCreditStream = (courseId: number, userId: number) => `chambercredit-${courseId}_${userId}`;

export const CHAMBERS = [1, 2, 3] as const;
export type Chamber = (typeof CHAMBERS)[number];

/**
 * Why a credit waits without being sent: the chamber matches people by a number the person has not
 * given (`missing-number`), or the person's profession names no chamber to send it to (`no-chamber`,
 * issue 32 item 4: a credit goes to the person's chamber, not to one the course names).
 */
export const HOLD_REASONS = ['missing-number', 'no-chamber'] as const;
export type HoldReason = (typeof HOLD_REASONS)[number];

const chamber = z.union([z.literal(1), z.literal(2), z.literal(3)]);
const attempt = z.number().int().positive();

export const chamberCreditEvents = [
  defineEvent(
    'ChamberCreditEarned',
    z.object({
      courseId: z.number().int().positive(),
      userId: z.number().int().positive(),
      /** The chamber of the person's profession when earned; null: none yet (held until it has one). */
      chamber: chamber.nullable(),
      points: z.number().min(0).max(10),
      earnedAt: z.iso.datetime(),
      courseExternalId: z.string().nullable(),
    }),
  ),
  defineEvent('ChamberCreditHeld', z.object({ reason: z.enum(HOLD_REASONS) })),
  /** A credit earned without a chamber, sent to the one the person's profession names now. */
  defineEvent('ChamberCreditRouted', z.object({ chamber })),
  defineEvent('ChamberCreditReportFailed', z.object({ attempt, reason: z.string().min(1).max(500) })),
  defineEvent('ChamberCreditReported', z.object({ attempt, receipt: z.string().min(1).max(200), reportedAt: z.iso.datetime() })),
] as const;

export type ChamberCreditEvent = EventsOf<typeof chamberCreditEvents>;

type Earned = {
  readonly courseId: number;
  readonly userId: number;
  readonly chamber: Chamber | null;
  readonly points: number;
  readonly earnedAt: string;
  readonly courseExternalId: string | null;
  /** Reports tried so far (failed or acknowledged). */
  readonly attempts: number;
};

export type ChamberCreditState =
  | { readonly status: 'none' }
  | (Earned & { readonly status: 'pending'; readonly held: HoldReason | null })
  | (Earned & { readonly status: 'reported'; readonly receipt: string; readonly reportedAt: string });

export type ChamberCreditCommand =
  | {
      type: 'EarnChamberCredit';
      courseId: number;
      userId: number;
      chamber: Chamber | null;
      points: number;
      earnedAt: string;
      courseExternalId: string | null;
    }
  | { type: 'RouteChamberCredit'; chamber: Chamber }
  | { type: 'HoldChamberCredit'; reason: HoldReason }
  | { type: 'FailChamberCreditReport'; reason: string }
  | { type: 'ConfirmChamberCreditReported'; receipt: string; reportedAt: string };

export const evolveChamberCredit = (state: ChamberCreditState, event: ChamberCreditEvent): ChamberCreditState => {
  switch (event.type) {
    case 'ChamberCreditEarned':
      return state.status === 'none' ? { status: 'pending', held: null, attempts: 0, ...event.data } : state;
    case 'ChamberCreditHeld':
      return state.status === 'pending' ? { ...state, held: event.data.reason } : state;
    case 'ChamberCreditRouted':
      return state.status === 'pending' ? { ...state, chamber: event.data.chamber, held: null } : state;
    case 'ChamberCreditReportFailed':
      return state.status === 'pending' ? { ...state, held: null, attempts: event.data.attempt } : state;
    case 'ChamberCreditReported':
      return state.status === 'pending'
        ? {
            status: 'reported',
            courseId: state.courseId,
            userId: state.userId,
            chamber: state.chamber,
            points: state.points,
            earnedAt: state.earnedAt,
            courseExternalId: state.courseExternalId,
            attempts: event.data.attempt,
            receipt: event.data.receipt,
            reportedAt: event.data.reportedAt,
          }
        : state;
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
};

/**
 * Every step is safe to repeat, because the job that takes them may run twice (a retry after a crash,
 * the sweep meeting a job still queued): earned once, held once per wait, and nothing after the
 * chamber's acknowledgment. A credit never earned has nothing to hold, fail or confirm.
 */
export const decideChamberCredit = (command: ChamberCreditCommand, state: ChamberCreditState): ChamberCreditEvent[] => {
  switch (command.type) {
    case 'EarnChamberCredit': {
      if (state.status !== 'none') return [];
      const { courseId, userId, chamber: to, points, earnedAt, courseExternalId } = command;
      return [{ type: 'ChamberCreditEarned', data: { courseId, userId, chamber: to, points, earnedAt, courseExternalId } }];
    }
    case 'RouteChamberCredit':
      return state.status === 'pending' && state.chamber === null ? [{ type: 'ChamberCreditRouted', data: { chamber: command.chamber } }] : [];
    case 'HoldChamberCredit':
      return state.status === 'pending' && state.held !== command.reason ? [{ type: 'ChamberCreditHeld', data: { reason: command.reason } }] : [];
    case 'FailChamberCreditReport':
      return state.status === 'pending'
        ? [{ type: 'ChamberCreditReportFailed', data: { attempt: state.attempts + 1, reason: command.reason.slice(0, 500) || '?' } }]
        : [];
    case 'ConfirmChamberCreditReported':
      return state.status === 'pending'
        ? [{ type: 'ChamberCreditReported', data: { attempt: state.attempts + 1, receipt: command.receipt.slice(0, 200), reportedAt: command.reportedAt } }]
        : [];
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
};

export const chamberCreditDecider: Decider<ChamberCreditCommand, ChamberCreditEvent, ChamberCreditState> = {
  initialState: { status: 'none' },
  evolve: evolveChamberCredit,
  decide: decideChamberCredit,
};

/** The reference the chamber files the credit under: the same for every attempt, so a resend is recognised as one. */
export const chamberCreditReference = (courseId: number, userId: number) => `medilearn-${courseId}-${userId}`;
