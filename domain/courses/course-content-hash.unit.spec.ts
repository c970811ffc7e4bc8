import { describe, expect, it } from 'vitest';
import { blockRule, courseRule } from './course.rules.ts';
import { canonicalJson, contentFieldsDiffer, courseContentHash } from './course-content-hash.ts';

const fields = courseRule.parse({
  type: 1,
  title: 'Zdravljenje hipertenzije',
  description: 'Smernice zdravljenja arterijske hipertenzije.',
  cover: '/c.jpg',
  creditPoints: 1,
});
const block = (id: number, name: string) => ({ id, fields: blockRule.parse({ kind: 'points', name, points: 1 }) });
const course = { fields, blocks: [block(1, 'Uvod'), block(2, 'Zaključek')], attachments: [{ fileId: 9, name: 'smernice.pdf' }] };

describe('course content hash (decision 0063)', () => {
  it('writes canonical JSON: keys sorted at every depth, undefined left out, arrays in order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: undefined }], c: null } })).toBe('{"a":{"c":null,"d":[3,{"z":1}]},"b":1}');
  });

  it('is a sha256 hex that does not depend on the order fields were written in', () => {
    const hash = courseContentHash(course);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    const reordered = Object.fromEntries(Object.entries(fields).reverse()) as typeof fields;
    expect(courseContentHash({ ...course, fields: reordered })).toBe(hash);
  });

  it('changes with any content: a typo, the type, the audience, the order of blocks, an attachment; not with costs or reminders', () => {
    const hash = courseContentHash(course);
    expect(courseContentHash({ ...course, fields: { ...fields, title: 'Zdravljenje hipertenzij' } })).not.toBe(hash);
    expect(courseContentHash({ ...course, fields: { ...fields, type: 2 } })).not.toBe(hash);
    expect(courseContentHash({ ...course, fields: { ...fields, public: true } })).not.toBe(hash);
    expect(courseContentHash({ ...course, blocks: [...course.blocks].reverse() })).not.toBe(hash);
    expect(courseContentHash({ ...course, blocks: [block(1, 'Uvod.'), block(2, 'Zaključek')] })).not.toBe(hash);
    expect(courseContentHash({ ...course, attachments: [] })).not.toBe(hash);
    expect(courseContentHash({ ...course, fields: { ...fields, discount: 20, notificationsEnabled: true } })).toBe(hash);
    expect(contentFieldsDiffer(fields, { ...fields, discount: 20 })).toBe(false);
    expect(contentFieldsDiffer(fields, { ...fields, description: `${fields.description} ` })).toBe(true);
  });
});
