import type { ContentSnapshot, SnapshotAttachment, SnapshotBlock } from '../api/approvals.ts';

/**
 * What changed between the last approved content and the version under review (issue 36 item 2):
 * the course's fields, its blocks (matched by id: added, removed, moved, changed) and attachments,
 * each leaf value by its path, so a reviewer sees a typo fix as one changed word and not a new course.
 */

export type ChangeKind = 'added' | 'removed' | 'changed';

export type FieldChange = { path: string; kind: ChangeKind; before: string | null; after: string | null };

export type BlockChange = {
  id: number;
  kind: ChangeKind | 'moved';
  blockKind: string | null;
  title: string | null;
  /** 1-based places before and after (null where the block is not). */
  from: number | null;
  to: number | null;
  fields: FieldChange[];
};

export type AttachmentChange = { fileId: number; kind: 'added' | 'removed'; name: string | null };

export type ContentDiff = { fields: FieldChange[]; blocks: BlockChange[]; attachments: AttachmentChange[] };

/** Keys of a snapshot that are not the course's own fields. */
const CONTAINERS = new Set(['blocks', 'attachments']);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The course's fields of a snapshot: its `fields`, or its top-level values beside blocks and attachments. */
export const snapshotFields = (snapshot: ContentSnapshot | null): Record<string, unknown> => {
  if (!snapshot) return {};
  if (isObject(snapshot.fields)) return snapshot.fields;
  return Object.fromEntries(Object.entries(snapshot).filter(([key]) => !CONTAINERS.has(key)));
};

/** A value as a reviewer reads it: text as it is, numbers and booleans as text, anything else as JSON. */
const display = (value: unknown): string => {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
};

/**
 * Leaf values by dotted path (`quiz.questions.2.text`). Arrays of plain values stay one leaf (a
 * list of ids reads best whole); arrays of objects are walked by index.
 */
export const flatten = (value: unknown, prefix = '', out: Map<string, string> = new Map()): Map<string, string> => {
  if (isObject(value)) {
    for (const [key, inner] of Object.entries(value)) flatten(inner, prefix ? `${prefix}.${key}` : key, out);
  } else if (Array.isArray(value) && value.some((item) => isObject(item) || Array.isArray(item))) {
    value.forEach((item, index) => {
      flatten(item, prefix ? `${prefix}.${index}` : String(index), out);
    });
  } else if (prefix) {
    out.set(prefix, display(value));
  }
  return out;
};

export const diffValues = (before: unknown, after: unknown): FieldChange[] => {
  const a = flatten(before);
  const b = flatten(after);
  const changes: FieldChange[] = [];
  for (const [path, value] of b) {
    const old = a.get(path);
    if (old === undefined) {
      if (value !== '') changes.push({ path, kind: 'added', before: null, after: value });
    } else if (old !== value) changes.push({ path, kind: 'changed', before: old, after: value });
  }
  for (const [path, value] of a) if (!b.has(path) && value !== '') changes.push({ path, kind: 'removed', before: value, after: null });
  return changes;
};

const blockFields = (block: SnapshotBlock): Record<string, unknown> => {
  if (isObject(block.fields)) return block.fields;
  const { id: _id, order: _order, position: _position, ...rest } = block;
  return rest;
};

/** A block's heading for the reviewer: its title, name or question, whichever it has. */
export const blockTitle = (block: SnapshotBlock): string | null => {
  const fields = blockFields(block);
  for (const key of ['title', 'name', 'heading', 'question']) {
    const value = fields[key] ?? block[key];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return null;
};

const blockKind = (block: SnapshotBlock): string | null => {
  const fields = blockFields(block);
  const kind = block.kind ?? fields.kind;
  return typeof kind === 'string' ? kind : null;
};

/** Blocks in the order participants take them (their `order` or `position`, else as listed). */
export const orderedBlocks = (snapshot: ContentSnapshot | null): SnapshotBlock[] => {
  const blocks = [...(snapshot?.blocks ?? [])];
  const place = (b: SnapshotBlock, i: number) => (typeof b.order === 'number' ? b.order : typeof b.position === 'number' ? b.position : i);
  return blocks
    .map((b, i) => ({ b, p: place(b, i) }))
    .sort((x, y) => x.p - y.p)
    .map((x) => x.b);
};

const attachmentsOf = (snapshot: ContentSnapshot | null): SnapshotAttachment[] =>
  (snapshot?.attachments ?? []).map((a) => (typeof a === 'number' ? { fileId: a } : a));

/** The difference from `before` (the last approved content; null when none was approved) to `after`. */
export const diffContent = (before: ContentSnapshot | null, after: ContentSnapshot): ContentDiff => {
  const fields = diffValues(snapshotFields(before), snapshotFields(after));
  const oldBlocks = orderedBlocks(before);
  const newBlocks = orderedBlocks(after);
  const oldById = new Map(oldBlocks.map((b, i) => [b.id, { block: b, place: i + 1 }]));
  const newIds = new Set(newBlocks.map((b) => b.id));
  const blocks: BlockChange[] = [];
  // Moves are judged by the order of the blocks both versions have: adding one does not "move" the rest.
  const keptOld = oldBlocks.filter((b) => newIds.has(b.id)).map((b) => b.id);
  const keptNew = newBlocks.filter((b) => oldById.has(b.id)).map((b) => b.id);
  newBlocks.forEach((block, index) => {
    const old = oldById.get(block.id);
    const base = { id: block.id, blockKind: blockKind(block), title: blockTitle(block), to: index + 1 };
    if (!old) {
      blocks.push({ ...base, kind: 'added', from: null, fields: diffValues({}, blockFields(block)) });
      return;
    }
    const changes = diffValues(blockFields(old.block), blockFields(block));
    const moved = keptOld.indexOf(block.id) !== keptNew.indexOf(block.id);
    if (changes.length > 0) blocks.push({ ...base, kind: 'changed', from: old.place, fields: changes });
    else if (moved) blocks.push({ ...base, kind: 'moved', from: old.place, fields: [] });
  });
  for (const [id, old] of oldById) {
    if (!newIds.has(id))
      blocks.push({
        id,
        kind: 'removed',
        blockKind: blockKind(old.block),
        title: blockTitle(old.block),
        from: old.place,
        to: null,
        fields: diffValues(blockFields(old.block), {}),
      });
  }
  const oldFiles = new Map(attachmentsOf(before).map((a) => [a.fileId, a]));
  const newFiles = new Map(attachmentsOf(after).map((a) => [a.fileId, a]));
  const attachments: AttachmentChange[] = [
    ...[...newFiles.values()].filter((a) => !oldFiles.has(a.fileId)).map((a) => ({ fileId: a.fileId, kind: 'added' as const, name: a.name ?? null })),
    ...[...oldFiles.values()].filter((a) => !newFiles.has(a.fileId)).map((a) => ({ fileId: a.fileId, kind: 'removed' as const, name: a.name ?? null })),
  ];
  return { fields, blocks, attachments };
};

export const isEmptyDiff = (diff: ContentDiff) => diff.fields.length === 0 && diff.blocks.length === 0 && diff.attachments.length === 0;

/** Rich text is compared as the words a participant reads: tags go, entities are read. */
export const readableText = (value: string) =>
  value
    .replace(/<\s*(br|\/p|\/li|\/h[1-6]|\/div)\s*\/?>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'");

export type TextPart = { kind: 'same' | 'added' | 'removed'; text: string };

/** Past this many words on either side the texts are shown whole, removed and added (the table would be too big). */
const MAX_WORDS = 3000;

/**
 * A word diff (longest common subsequence over words and the spaces between them): the parts of
 * both texts in reading order, each kept, removed or added. Neighbouring parts of a kind are joined.
 */
export const diffText = (before: string, after: string): TextPart[] => {
  const a = before.split(/(\s+)/).filter((w) => w !== '');
  const b = after.split(/(\s+)/).filter((w) => w !== '');
  const parts: TextPart[] = [];
  const push = (kind: TextPart['kind'], text: string) => {
    const last = parts[parts.length - 1];
    if (last && last.kind === kind) last.text += text;
    else parts.push({ kind, text });
  };
  if (a.length > MAX_WORDS || b.length > MAX_WORDS) {
    if (before) push('removed', before);
    if (after) push('added', after);
    return parts;
  }
  // lengths[i][j]: the longest common subsequence of a[i..] and b[j..].
  const lengths: Uint16Array[] = Array.from({ length: a.length + 1 }, () => new Uint16Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--) {
    const row = lengths[i] as Uint16Array;
    const below = lengths[i + 1] as Uint16Array;
    for (let j = b.length - 1; j >= 0; j--) row[j] = a[i] === b[j] ? (below[j + 1] as number) + 1 : Math.max(below[j] as number, row[j + 1] as number);
  }
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      push('same', a[i] as string);
      i++;
      j++;
    } else if ((lengths[i + 1]?.[j] ?? 0) >= (lengths[i]?.[j + 1] ?? 0)) {
      push('removed', a[i] as string);
      i++;
    } else {
      push('added', b[j] as string);
      j++;
    }
  }
  for (; i < a.length; i++) push('removed', a[i] as string);
  for (; j < b.length; j++) push('added', b[j] as string);
  return parts;
};
