import { type NewsAction, type NewsFields, newsRule } from '../../domain/news/news.rules.ts';
import { newsDecider, newsNotFound, newsReaderDecider, newsReaderStream, newsStream } from '../../domain/news/news.ts';
import { DomainError } from '../../domain/shared/domain-error.ts';
import type { EventMetadata, EventStore } from '../../infrastructure/event-store/event-store.port.ts';
import type { IdAllocator } from '../../infrastructure/ids/id-allocator.port.ts';
import { type NewsReadDb, newsOfReader } from '../../projections/news/news.queries.ts';
import { handleCommand } from '../shared/handle-command.ts';
import { sanitizeNewsContent } from './sanitize-news.ts';

export type NewsDeps = { readonly store: EventStore; readonly ids: IdAllocator; readonly db: NewsReadDb; readonly now: () => Date };

/**
 * The content is sanitised before it is decided on; content that held nothing but what was removed
 * (a script, a frame) is then empty, which the rule refuses like an empty field.
 */
const prepare = (fields: NewsFields): NewsFields => {
  const clean = { ...fields, htmlContent: sanitizeNewsContent(fields.htmlContent) };
  const checked = newsRule.safeParse(clean);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new DomainError('400', issue?.message ?? 'Vnos je obvezen', { status: 400, field: issue?.path.map(String).join('.') || 'htmlContent' });
  }
  return checked.data;
};

/** News (spec §3; permission 1065 for the menu and creation, spec §6). */
export const createNews = async (deps: NewsDeps, fields: NewsFields, metadata: EventMetadata) => {
  const prepared = prepare(fields);
  const newsId = await deps.ids.next('news');
  const result = await handleCommand(deps.store, {
    streamName: newsStream(newsId),
    decider: newsDecider,
    command: { type: 'CreateNews', newsId, fields: prepared },
    metadata,
  });
  return { id: newsId, position: result.position };
};

export const changeNews = async (
  deps: NewsDeps,
  newsId: number,
  command: { type: 'UpdateNews'; fields: NewsFields } | { type: 'DeleteNews' },
  metadata: EventMetadata,
) => {
  const decided = command.type === 'UpdateNews' ? { type: 'UpdateNews' as const, fields: prepare(command.fields) } : command;
  const result = await handleCommand(deps.store, { streamName: newsStream(newsId), decider: newsDecider, command: decided, metadata });
  return { id: newsId, position: result.position };
};

/**
 * spec §7 PUT /news/{id}/user/stats: the reader's action (1 shown, 2 declined, 3 engaged, 4 deferred)
 * is recorded, once per call, on a news item meant for them; any other id answers 404 (it tells
 * nothing of news meant for others). The item need not be on any more: a reader who answers just as
 * it ends is still counted.
 */
export const recordNewsAction = async (deps: NewsDeps, userId: number, newsId: number, action: NewsAction, metadata: EventMetadata) => {
  if (!(await newsOfReader(deps.db, userId, newsId))) throw newsNotFound();
  const result = await handleCommand(deps.store, {
    streamName: newsReaderStream(newsId, userId),
    decider: newsReaderDecider,
    command: { type: 'RecordNewsAction', newsId, userId, action },
    metadata,
  });
  return { id: newsId, action, position: result.position };
};
