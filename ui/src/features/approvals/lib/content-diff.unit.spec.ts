import { describe, expect, it } from 'vitest';
import type { ContentSnapshot } from '../api/approvals.ts';
import { diffContent, diffText, isEmptyDiff, readableText } from './content-diff.ts';

const approved: ContentSnapshot = {
  fields: { type: 1, title: 'Zdravljenje astme', description: 'Astma je kronična bolezen dihal.', creditPoints: 2, public: false, tagIds: [1, 2] },
  blocks: [
    { id: 10, kind: 'article', order: 0, fields: { title: 'Uvod', body: '<p>Inhalatorje uporabljamo dvakrat na dan.</p>' } },
    { id: 11, kind: 'quiz', order: 1, fields: { title: 'Preverjanje', questions: [{ text: 'Kaj je astma?', answers: ['bolezen', 'zdravilo'] }] } },
    { id: 12, kind: 'video', order: 2, fields: { title: 'Posnetek', vimeoId: '1' } },
  ],
  attachments: [{ fileId: 5, name: 'navodila.pdf' }],
};

describe('the diff of a version against the last approved one (issue 36)', () => {
  it('finds nothing between a version and itself', () => {
    expect(isEmptyDiff(diffContent(approved, structuredClone(approved)))).toBe(true);
  });

  it('shows a typo fix as one changed field with the word marked', () => {
    const fixed = structuredClone(approved);
    (fixed.blocks?.[0]?.fields as Record<string, unknown>).body = '<p>Inhalatorje uporabljamo dvakrat na dan!</p>';
    const diff = diffContent(approved, fixed);
    expect(diff.fields).toEqual([]);
    expect(diff.blocks).toHaveLength(1);
    expect(diff.blocks[0]).toMatchObject({ id: 10, kind: 'changed', title: 'Uvod', from: 1, to: 1 });
    expect(diff.blocks[0]?.fields).toEqual([
      { path: 'body', kind: 'changed', before: '<p>Inhalatorje uporabljamo dvakrat na dan.</p>', after: '<p>Inhalatorje uporabljamo dvakrat na dan!</p>' },
    ]);
    const parts = diffText(readableText('<p>Inhalatorje uporabljamo dvakrat na dan.</p>'), readableText('<p>Inhalatorje uporabljamo dvakrat na dan!</p>'));
    expect(parts.filter((p) => p.kind !== 'same')).toEqual([
      { kind: 'removed', text: 'dan.' },
      { kind: 'added', text: 'dan!' },
    ]);
    expect(parts[0]).toEqual({ kind: 'same', text: 'Inhalatorje uporabljamo dvakrat na ' });
  });

  it('names the course fields that changed, were added or removed', () => {
    const next = structuredClone(approved);
    Object.assign(next.fields as object, { title: 'Zdravljenje astme pri otrocih', creditPoints: 3, lecturer: 'dr. Novak' });
    delete (next.fields as Record<string, unknown>).tagIds;
    const diff = diffContent(approved, next);
    expect(diff.fields).toEqual([
      { path: 'title', kind: 'changed', before: 'Zdravljenje astme', after: 'Zdravljenje astme pri otrocih' },
      { path: 'creditPoints', kind: 'changed', before: '2', after: '3' },
      { path: 'lecturer', kind: 'added', before: null, after: 'dr. Novak' },
      { path: 'tagIds', kind: 'removed', before: '[1,2]', after: null },
    ]);
  });

  it('tells added, removed and moved blocks apart (adding one moves nothing), and a change deep in a quiz', () => {
    const next = structuredClone(approved);
    next.blocks = [
      { id: 12, kind: 'video', order: 0, fields: { title: 'Posnetek', vimeoId: '1' } },
      { id: 10, kind: 'article', order: 1, fields: { title: 'Uvod', body: '<p>Inhalatorje uporabljamo dvakrat na dan.</p>' } },
      { id: 13, kind: 'article', order: 2, fields: { title: 'Povzetek', body: 'Novo' } },
    ];
    const diff = diffContent(approved, next);
    expect(diff.blocks.map((b) => [b.id, b.kind, b.from, b.to])).toEqual([
      [12, 'moved', 3, 1],
      [10, 'moved', 1, 2],
      [13, 'added', null, 3],
      [11, 'removed', 2, null],
    ]);
    const quiz = structuredClone(approved);
    const quizFields = quiz.blocks?.[1]?.fields as { questions: { answers: string[] }[] };
    quizFields.questions = [{ ...(quizFields.questions[0] as { answers: string[] }), answers: ['bolezen dihal', 'zdravilo'] }];
    expect(diffContent(approved, quiz).blocks[0]?.fields).toEqual([
      { path: 'questions.0.answers', kind: 'changed', before: '["bolezen","zdravilo"]', after: '["bolezen dihal","zdravilo"]' },
    ]);
  });

  it('lists attachments added and removed by file', () => {
    const next = { ...structuredClone(approved), attachments: [{ fileId: 6, name: 'smernice.pdf' }] };
    expect(diffContent(approved, next).attachments).toEqual([
      { fileId: 6, kind: 'added', name: 'smernice.pdf' },
      { fileId: 5, kind: 'removed', name: 'navodila.pdf' },
    ]);
  });

  it('reads a snapshot whose course fields stand at its top level', () => {
    const flat: ContentSnapshot = { title: 'A', description: 'B', blocks: [] };
    expect(diffContent({ title: 'A', description: 'C', blocks: [] }, flat).fields).toEqual([{ path: 'description', kind: 'changed', before: 'C', after: 'B' }]);
  });

  it('shows very long texts whole rather than comparing them word by word', () => {
    const long = Array.from({ length: 4000 }, (_, i) => `w${i}`).join(' ');
    expect(diffText(long, `${long} x`).map((p) => p.kind)).toEqual(['removed', 'added']);
  });
});
