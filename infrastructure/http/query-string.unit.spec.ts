import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { queryArray } from './http.port.ts';
import { parseQueryString } from './query-string.ts';

describe('query strings', () => {
  it('reads lists in both array styles', () => {
    expect(parseQueryString('location[]=1&location[]=2')).toEqual({ location: ['1', '2'] });
    expect(parseQueryString('location=1&location=2')).toEqual({ location: ['1', '2'] });
    expect(parseQueryString('location[]=1')).toEqual({ location: ['1'] });
    expect(parseQueryString('course_id=7&limit=NO_LIMIT')).toEqual({ course_id: '7', limit: 'NO_LIMIT' });
    expect(parseQueryString('q=a%20b&q=%C4%8D')).toEqual({ q: ['a b', 'č'] });
  });

  it('ignores keys that would reach the prototype', () => {
    const parsed = parseQueryString('__proto__[]=1&constructor=2&a=3');
    expect(parsed).toEqual({ a: '3' });
    expect(Object.getPrototypeOf(parsed)).toBeNull();
  });

  it('turns a single value into a one-element list where a route expects a list', () => {
    const schema = z.object({ companyIds: queryArray(z.coerce.number().int()).optional() });
    expect(schema.parse(parseQueryString('companyIds=4'))).toEqual({ companyIds: [4] });
    expect(schema.parse(parseQueryString('companyIds[]=4&companyIds[]=5'))).toEqual({ companyIds: [4, 5] });
    expect(schema.parse(parseQueryString(''))).toEqual({});
    expect(schema.safeParse(parseQueryString('companyIds=x')).success).toBe(false);
  });
});
