import type { z } from 'zod';
import type { blockRule } from '../../../../../domain/courses/course.rules.ts';
import { api } from '../../../lib/api-client.ts';

/** A block as the authoring API takes it (the domain's rule is the contract). */
export type BlockInput = z.input<typeof blockRule>;
export type BlockKind = BlockInput['kind'];
export const BLOCK_KINDS: BlockKind[] = ['video', 'quiz', 'nps', 'points', 'article', 'textFile', 'typeform', 'interactr', 'package'];

/** A block as authored: every field, the correct quiz answers included (1023). */
export type AuthoredBlock = { id: number; course_id: number; position: number; kind: BlockKind; name: string; fields: BlockInput };

/** spec §7 GET /block?course_id=: for an author, the blocks as authored. */
export const listAuthoredBlocks = (courseId: number) =>
  api<{ items: AuthoredBlock[] }>('GET', '/block', { query: { course_id: courseId } }).then((r) => r.items);

/** Added at the end, or at `position` (1024). */
export const addBlock = (courseId: number, block: BlockInput, position?: number) =>
  api<{ id: number }>('POST', `/courses/${courseId}/blocks`, { body: position === undefined ? { block } : { block, position } });
export const updateBlock = (courseId: number, blockId: number, block: BlockInput) =>
  api<{ id: number }>('PUT', `/courses/${courseId}/blocks/${blockId}`, { body: block });
export const moveBlock = (courseId: number, blockId: number, position: number) =>
  api<{ id: number }>('POST', `/courses/${courseId}/blocks/${blockId}/move`, { body: { position } });
export const removeBlock = (courseId: number, blockId: number) => api<{ id: number }>('DELETE', `/courses/${courseId}/blocks/${blockId}`);

/** A course video to the video host (the "Vimeo upload" feature of spec §1): a Vimeo id, or a file the platform plays itself. */
export const uploadVideo = (file: File) =>
  api<{ vimeoId: string | null; fileUrl: string | null; name: string; size: number }>('POST', '/videos', { query: { name: file.name }, body: file });
/** A PNG, JPEG or PDF (checked by its content on the server); served back at /api/files/{id}. */
export const uploadFile = (file: File) =>
  api<{ id: number; name: string; contentType: string; size: number }>('POST', '/files', { query: { name: file.name }, body: file });

/** Profession groups an NPS follow-up question can be meant for (the first hundred by name). */
export const listProfessionGroupOptions = () =>
  api<{ items: { id: number; name: string }[] }>('GET', '/profession-groups', { query: { pageSize: 100, sort: 'name', order: 'asc' } }).then((r) => r.items);
