import { sha256Hex } from '../shared/sha256.ts';
import type { BlockFields, CourseFields } from './course.rules.ts';

/**
 * What an approval signs (issue 36, decision 0063): the content participants see, and who they are.
 * The course's type, texts, cover, credit points, certificate, audience, lecturer, live webinar,
 * dates, prerequisites, tags, the course-level embeds, every block (id, order, fields) and every
 * attachment (file and name). Not what does not reach participants as content: costs, discount,
 * reminders, notifications, external ids, the campaign package, the estimated duration.
 *
 * The source is structural (a Course satisfies it) so this file imports nothing of course.ts.
 */
export type CourseContentSource = {
  readonly fields: CourseFields;
  readonly blocks: readonly { readonly id: number; readonly fields: BlockFields }[];
  readonly attachments: readonly { readonly fileId: number; readonly name: string }[];
};

/** The course fields that are content; absent ones (courses saved before a field existed) read as null. */
export const contentFieldsOf = (fields: CourseFields) => {
  const f = fields as Partial<CourseFields>;
  return {
    type: f.type ?? null,
    title: f.title ?? null,
    description: f.description ?? null,
    cover: f.cover ?? null,
    creditPoints: f.creditPoints ?? null,
    certificateEnabled: f.certificateEnabled ?? null,
    public: f.public ?? null,
    audience: f.audience ?? null,
    lecturer: f.lecturer ?? null,
    live: f.live ?? null,
    intervals: f.intervals ?? null,
    prerequisites: f.prerequisites ?? null,
    tagIds: f.tagIds ?? null,
    vimeoId: f.vimeoId ?? null,
    typeformId: f.typeformId ?? null,
    interactrHtml: f.interactrHtml ?? null,
    zoomUrl: f.zoomUrl ?? null,
  };
};

/** The content of a course as one value: what is hashed, and what an approver reviews. */
export const courseContentOf = (course: CourseContentSource) => ({
  fields: contentFieldsOf(course.fields),
  blocks: course.blocks.map((b) => ({ id: b.id, fields: b.fields })),
  attachments: course.attachments.map((a) => ({ fileId: a.fileId, name: a.name })),
});
export type CourseContent = ReturnType<typeof courseContentOf>;

/**
 * JSON with object keys in code-point order at every depth, no whitespace, undefined members left
 * out (as JSON.stringify leaves them), so equal content always gives equal text whatever the order
 * its fields were written or stored in. Arrays keep their order: the order of blocks is content.
 */
export const canonicalJson = (value: unknown): string => {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
};

/** sha256 (hex) of the canonical JSON of the course's content. */
export const courseContentHash = (course: CourseContentSource): string => sha256Hex(canonicalJson(courseContentOf(course)));

/** Whether two sets of course fields differ in content (an edit of costs or reminders is not a content change). */
export const contentFieldsDiffer = (a: CourseFields, b: CourseFields) => canonicalJson(contentFieldsOf(a)) !== canonicalJson(contentFieldsOf(b));
