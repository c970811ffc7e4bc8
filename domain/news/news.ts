import { z } from 'zod';
import type { Decider } from '../shared/decider.ts';
import { DomainError } from '../shared/domain-error.ts';
import { defineEvent, type EventsOf } from '../shared/event.ts';
import { NEWS_ACTIONS, NEWS_LOCATIONS, type NewsAction, type NewsFields } from './news.rules.ts';

/**
 * A news item (spec §3 News): written, changed (also switched on and off through `active`),
 * deleted. Its readers' actions (spec §4) are facts of their own stream, `newsReaderStream`, so a
 * thousand readers answering at once never conflict with each other or with the author.
 */
export const newsStream = (newsId: number) => `news-${newsId}`;

const ids = z.array(z.number().int().positive());
/** The fields as stored: already validated by news.rules.ts when written. */
const fields = z.object({
  title: z.string(),
  htmlContent: z.string(),
  image: z.string().nullable(),
  actionUrl: z.string().nullable(),
  actionButtonText: z.string().nullable(),
  active: z.boolean(),
  dateFrom: z.string(),
  dateTo: z.string(),
  location: z.literal(NEWS_LOCATIONS),
  recipients: z.object({ professionIds: ids, companyIds: ids, unitIds: ids, groupIds: ids }),
});

export const newsEvents = [
  defineEvent('NewsCreated', z.object({ newsId: z.number().int().positive(), fields })),
  defineEvent('NewsUpdated', z.object({ fields })),
  defineEvent('NewsDeleted', z.object({})),
] as const;

export type NewsEvent = EventsOf<typeof newsEvents>;
export type NewsState =
  | { readonly status: 'none' }
  | { readonly status: 'written'; readonly id: number; readonly fields: NewsFields }
  | { readonly status: 'deleted'; readonly id: number };

export type NewsCommand = { type: 'CreateNews'; newsId: number; fields: NewsFields } | { type: 'UpdateNews'; fields: NewsFields } | { type: 'DeleteNews' };

export const newsNotFound = () => new DomainError('404', 'Novica ne obstaja.', { status: 404 });

export const evolveNews = (state: NewsState, event: NewsEvent): NewsState => {
  switch (event.type) {
    case 'NewsCreated':
      return { status: 'written', id: event.data.newsId, fields: event.data.fields };
    case 'NewsUpdated':
      return state.status === 'written' ? { ...state, fields: event.data.fields } : state;
    case 'NewsDeleted':
      return state.status === 'written' ? { status: 'deleted', id: state.id } : state;
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
};

export const decideNews = (command: NewsCommand, state: NewsState): NewsEvent[] => {
  if (command.type === 'CreateNews') {
    if (state.status !== 'none') throw new DomainError('409', 'Novica že obstaja.', { status: 409 });
    return [{ type: 'NewsCreated', data: { newsId: command.newsId, fields: command.fields } }];
  }
  if (state.status !== 'written') throw newsNotFound();
  switch (command.type) {
    case 'UpdateNews':
      return JSON.stringify(state.fields) === JSON.stringify(command.fields) ? [] : [{ type: 'NewsUpdated', data: { fields: command.fields } }];
    case 'DeleteNews':
      return [{ type: 'NewsDeleted', data: {} }];
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
};

export const newsDecider: Decider<NewsCommand, NewsEvent, NewsState> = { initialState: { status: 'none' }, evolve: evolveNews, decide: decideNews };

/**
 * One reader and one news item (spec §4 news user actions): every action the pop-up reports is a
 * fact, `NewsActionRecorded`, kept once per call. The stream's owner is the reader (the number after
 * the last `_`), like an enrollment's.
 */
export const newsReaderStream = (newsId: number, userId: number) => `newsreader-${newsId}_${userId}`;

export const newsReaderEvents = [
  defineEvent('NewsActionRecorded', z.object({ newsId: z.number().int().positive(), userId: z.number().int().positive(), action: z.literal(NEWS_ACTIONS) })),
] as const;

export type NewsReaderEvent = EventsOf<typeof newsReaderEvents>;

/** What the reader did so far: how often each action, and the answer that ends the pop-up for them (declined or engaged). */
export type NewsReaderState =
  | { readonly status: 'unseen' }
  | {
      readonly status: 'seen';
      readonly newsId: number;
      readonly userId: number;
      readonly counts: Readonly<Record<NewsAction, number>>;
      readonly answer: 2 | 3 | null;
    };

export type NewsReaderCommand = { type: 'RecordNewsAction'; newsId: number; userId: number; action: NewsAction };

export const evolveNewsReader = (state: NewsReaderState, event: NewsReaderEvent): NewsReaderState => {
  const { newsId, userId, action } = event.data;
  const counts = state.status === 'seen' ? state.counts : { 1: 0, 2: 0, 3: 0, 4: 0 };
  const previous = state.status === 'seen' ? state.answer : null;
  return {
    status: 'seen',
    newsId,
    userId,
    counts: { ...counts, [action]: counts[action] + 1 },
    // The latest of declined and engaged stands: a reader who declined and later followed the button engaged.
    answer: action === 2 || action === 3 ? action : previous,
  };
};

export const decideNewsReader = (command: NewsReaderCommand, state: NewsReaderState): NewsReaderEvent[] => {
  if (state.status === 'seen' && (state.newsId !== command.newsId || state.userId !== command.userId)) {
    throw new DomainError('409', 'Dejanje ne pripada tej novici.', { status: 409 });
  }
  return [{ type: 'NewsActionRecorded', data: { newsId: command.newsId, userId: command.userId, action: command.action } }];
};

export const newsReaderDecider: Decider<NewsReaderCommand, NewsReaderEvent, NewsReaderState> = {
  initialState: { status: 'unseen' },
  evolve: evolveNewsReader,
  decide: decideNewsReader,
};

/**
 * Whether a reader is among a news item's recipients (spec §3 recipients; none = everyone). As for
 * a course's audience (decision 0011): the organisation targets (a unit, a company, a community
 * group) are met by any one of them, and the profession targets, when set, must be met too.
 */
export type NewsReader = {
  readonly unitIds: ReadonlySet<number>;
  readonly companyIds: ReadonlySet<number>;
  readonly groupIds: ReadonlySet<number>;
  readonly professionId: number | null;
};

export const isNewsFor = (recipients: NewsFields['recipients'], reader: NewsReader) => {
  const byOrganisation = recipients.unitIds.length + recipients.companyIds.length + recipients.groupIds.length > 0;
  const byProfession = recipients.professionIds.length > 0;
  const organisationMet =
    !byOrganisation ||
    recipients.unitIds.some((id) => reader.unitIds.has(id)) ||
    recipients.companyIds.some((id) => reader.companyIds.has(id)) ||
    recipients.groupIds.some((id) => reader.groupIds.has(id));
  const professionMet = !byProfession || (reader.professionId !== null && recipients.professionIds.includes(reader.professionId));
  return organisationMet && professionMet;
};

/** Whether a news item is on now (spec §3 active, dateFrom, dateTo): from its start, until its end. */
export const isNewsOn = (fields: Pick<NewsFields, 'active' | 'dateFrom' | 'dateTo'>, now: Date) =>
  fields.active && new Date(fields.dateFrom).getTime() <= now.getTime() && now.getTime() < new Date(fields.dateTo).getTime();
