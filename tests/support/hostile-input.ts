import fc from 'fast-check';

/**
 * The hostile-input generator: from the platform's own OpenAPI document, malformed path ids, bodies,
 * query strings and content types for every route. Values come from fast-check with a fixed seed,
 * so a failing case is reproduced by running the suite again (or with HOSTILE_SEED set).
 */

export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  additionalProperties?: boolean | JsonSchema;
  minimum?: number;
  maximum?: number;
  default?: unknown;
};

export type Operation = {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** OpenAPI form: `/api/units/{id}`. */
  readonly path: string;
  readonly pathParams: readonly string[];
  readonly query: Readonly<Record<string, JsonSchema>>;
  readonly body: JsonSchema | null;
};

type OpenApiDocument = {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: { in: string; name: string; schema?: JsonSchema }[];
        requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
      }
    >
  >;
};

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** Every operation of the document: a route added tomorrow is in it without touching the suite. */
export const operationsOf = (doc: OpenApiDocument): Operation[] =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((m) => {
      const op = item[m]!;
      const parameters = op.parameters ?? [];
      return {
        method: m.toUpperCase() as Operation['method'],
        path,
        pathParams: [...path.matchAll(/\{(\w+)\}/g)].map((x) => x[1] as string),
        query: Object.fromEntries(parameters.filter((p) => p.in === 'query').map((p) => [p.name, p.schema ?? {}])),
        body: op.requestBody?.content?.['application/json']?.schema ?? null,
      };
    }),
  );

export const fillPath = (op: Operation, values: Readonly<Record<string, string>>) => op.path.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? '1');

/** Path ids no route may choke on: non-numeric, fractional, negative, beyond 32 and 64 bits, traversal, encodings, very long. */
export const MALFORMED_IDS: readonly string[] = [
  'abc',
  '1.5',
  '-1',
  '0',
  '00',
  '1e3',
  '0x10',
  'NaN',
  'Infinity',
  '2147483648',
  '9223372036854775808',
  '99999999999999999999',
  '%20',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '..%2f..%2f',
  '%00',
  '1%00',
  '%ff%fe',
  "1'%20or%20'1'%3D'1",
  '1;drop%20table%20events',
  '%3Cscript%3Ealert(1)%3C%2Fscript%3E',
  '%E2%80%AE1',
  'x'.repeat(150),
  '9'.repeat(2000),
];

/** Strings PostgreSQL, an xlsx or PDF reader, or a browser would choke on. */
export const HOSTILE_STRINGS: readonly string[] = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '\u0001\u0002\u0007\u001b[31m',
  '\uFFFE\uFFFF',
  'vrstica\nvrstica\r\n\tzavihek',
  '\u202Eobrnjeno',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  "'; drop table events; --",
  "' or '1'='1",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template injection attempt, sent as plain text.
  '${7*7}{{7*7}}',
  '../../../../etc/passwd',
  '%s%n%x',
  '😀👨‍👩‍👧‍👦',
  'ščžŠČŽ',
  ' ',
  '',
  '1e309',
  '-0',
];

const hostileString = fc.oneof(
  fc.constantFrom(...HOSTILE_STRINGS),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 8 }),
  fc.string({ unit: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 3 }),
);

const hostileNumber = fc.oneof(
  fc.constantFrom(-1, 0, 0.5, -0.0001, 1e308, -1e308, 2 ** 31, 2 ** 53, -(2 ** 63), Number.MAX_SAFE_INTEGER + 2),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);

/** A value of any JSON type, hostile where it can be. */
export const hostileValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString,
    hostileNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(hostileString, tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** A plausible value for a schema: enough for the request to reach past shape checks to the field under attack. */
export const plausible = (schema: JsonSchema | undefined, depth = 0): unknown => {
  if (!schema || depth > 6) return null;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum && schema.enum.length > 0) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants && variants.length > 0) return plausible(variants.find((v) => v.type !== 'null') ?? variants[0], depth + 1);
  if (schema.allOf && schema.allOf.length > 0) return plausible(schema.allOf[0], depth + 1);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'string':
      return 'Preizkus vnosa';
    case 'integer':
    case 'number':
      return Math.max(1, schema.minimum ?? 1);
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, v]) => [k, plausible(v, depth + 1)]));
    default:
      return null;
  }
};

/** Raw request bodies that are not the JSON a route expects. */
export const MALFORMED_BODIES: readonly string[] = [
  '{',
  '{"a":',
  '}',
  'null',
  '[]',
  '"niz"',
  '1',
  'true',
  '{"__proto__":{"isAdmin":true}}',
  '{"constructor":{"prototype":{"isAdmin":true}}}',
  '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]',
  `{"a":${'['.repeat(2000)}${']'.repeat(2000)}}`,
  '\u0000',
  '\ufeff{}',
];

/** Every string leaf of a value (at any depth) replaced in turn by `replacement`. */
const replaceLeaves = (value: unknown, replacement: string): unknown[] => {
  if (typeof value === 'string') return [replacement];
  if (Array.isArray(value)) return value.flatMap((item, i) => replaceLeaves(item, replacement).map((r) => value.map((v, j) => (i === j ? r : v))));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) => replaceLeaves(item, replacement).map((r) => ({ ...value, [key]: r })));
  }
  return [];
};

/** Bodies built from the route's schema: missing fields, an extra field, each field made hostile, a 1 MB string. */
export const schemaBodies = (schema: JsonSchema | null, runs: number, seed: number): unknown[] => {
  const base = plausible(schema ?? undefined);
  const bodies: unknown[] = [{}, { neznano: 1 }];
  // Each text field, however deep, holding what PostgreSQL refuses: NUL and a lone surrogate.
  for (const bad of ['a\u0000b', '\ud800x']) bodies.push(...replaceLeaves(base, bad).slice(0, 30));
  if (base && typeof base === 'object' && !Array.isArray(base)) {
    bodies.push({ ...base, neznanoPolje: '<b>x</b>' });
    const keys = Object.keys(base);
    const values = fc.sample(hostileValue, { seed, numRuns: Math.max(runs, keys.length * 2) });
    values.forEach((value, i) => {
      const key = keys[i % Math.max(keys.length, 1)];
      bodies.push(key === undefined ? value : { ...base, [key]: value });
    });
    // Just under the 1 MB body limit, so it reaches the route's own length check.
    const first = keys.find((k) => typeof (base as Record<string, unknown>)[k] === 'string');
    if (first) bodies.push({ ...base, [first]: 'ž'.repeat(500_000) });
  } else {
    bodies.push(...fc.sample(hostileValue, { seed, numRuns: runs }));
  }
  return bodies;
};

/** Query strings: arrays in both styles, negative and huge limits, NUL and odd Unicode, unknown keys. */
export const hostileQueries = (op: Operation, runs: number, seed: number): string[] => {
  const names = Object.keys(op.query);
  const out = ['limit=-1', 'limit=99999999999999999999', 'page=-5&pageSize=1000000000', 'search=%00', 'search=%ED%A0%80', 'x[]=1&x[]=2&x=3', '%ff=%fe'];
  for (const name of names) {
    out.push(`${name}=%00`, `${name}[]=1&${name}[]=2`, `${name}=1&${name}=2`, `${name}=-1`, `${name}=99999999999999999999`, `${name}=${'a'.repeat(5000)}`);
    out.push(`${name}[]=${encodeURIComponent("' or 1=1 --")}`, `${name}=NO_LIMIT`, `${name}=1.5`, `${name}=`);
  }
  const strings = fc.sample(hostileString, { seed, numRuns: runs });
  strings.forEach((s, i) => {
    const name = names[i % Math.max(names.length, 1)] ?? 'q';
    out.push(`${encodeURIComponent(name)}=${encodeURIComponent(s.isWellFormed() ? s : s.toWellFormed())}`);
  });
  return out;
};

/** Content types a JSON route must refuse or ignore without falling over. */
export const HOSTILE_CONTENT_TYPES: readonly { type: string | null; body: string }[] = [
  { type: 'text/plain', body: 'to ni json' },
  { type: 'application/xml', body: '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>' },
  { type: 'application/x-www-form-urlencoded', body: 'a=1&b=2' },
  { type: 'multipart/form-data; boundary=xyz', body: '--xyz\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--xyz--' },
  { type: 'application/json; charset=utf-16', body: '{}' },
  { type: 'application/json', body: '' },
  { type: 'image/png', body: 'ni slika' },
  { type: null, body: '{"a":1}' },
  { type: 'application/json;;;;', body: '{}' },
  { type: 'a'.repeat(300), body: '{}' },
];

export type SafetyProblem = { readonly request: string; readonly status: number; readonly problem: string; readonly body: string };

const LEAKS: readonly [RegExp, string][] = [
  [/\bat\s+[\w.<>]+\s+\(|\n\s+at\s/, 'stack trace'],
  [/node_modules|\.tsx?:\d+|\.js:\d+/, 'source path'],
  [/\b(select|insert into|update|delete from)\b[\s\S]{0,80}\b(from|where|values|set)\b/i, 'SQL'],
  [/syntax error|violates|duplicate key|relation "|column "|invalid input syntax|out of range for type|unterminated|pg_|xid8/i, 'database message'],
  [/FST_|ZodError|DomainError|TypeError|RangeError|ReferenceError|SyntaxError|slonik|postgres|\brm\.\w+|Cannot read prop|undefined is not/i, 'internal name'],
];

const ERROR_SHAPE = (value: unknown): boolean => {
  if (!value || typeof value !== 'object') return false;
  const keys = Object.keys(value);
  if (keys.length !== 1 || keys[0] !== 'errors') return false;
  const errors = (value as { errors: unknown }).errors;
  return (
    Array.isArray(errors) &&
    errors.length > 0 &&
    errors.every(
      (e) =>
        e &&
        typeof e === 'object' &&
        Object.keys(e).sort().join(',') === 'code,field,message' &&
        typeof e.code === 'string' &&
        typeof e.message === 'string' &&
        e.message.length > 0 &&
        (e.field === null || typeof e.field === 'string'),
    )
  );
};

/** What is wrong with an answer, or null: no 5xx, the one error shape for every 4xx, nothing internal in any body. */
export const checkAnswer = (request: string, status: number, body: string, contentType: string | undefined, method: string): SafetyProblem | null => {
  const problem = (text: string) => ({ request, status, problem: text, body: body.slice(0, 300) });
  if (status >= 500) return problem('server error');
  for (const [pattern, name] of LEAKS) if (status >= 400 && pattern.test(body)) return problem(`leaks a ${name}`);
  if (status >= 400 && method !== 'HEAD') {
    if (!contentType?.includes('application/json')) return problem(`error answered as ${contentType ?? 'no content type'}`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return problem('error body is not JSON');
    }
    if (!ERROR_SHAPE(parsed)) return problem('error body is not {errors:[{code,message,field}]}');
  }
  return null;
};
