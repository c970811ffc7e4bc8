import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { ReferenceKind } from '../../domain/shared/id.rules.ts';
import { type Def, defOf, referenceMeta } from '../../infrastructure/http/references.ts';

/**
 * The generated cross-tenant suite's machinery (issue 31 item 6): from the route catalogue alone,
 * requests that name another company's ids in every path parameter, query parameter and body field
 * that takes one. A new route or body field is covered without touching the suite.
 */

/** The records of one company the suite names: one id of each kind. */
export type TenantIds = {
  readonly company: number;
  readonly unit: number;
  readonly communityGroup: number;
  readonly user: number;
  readonly course: number;
  readonly clientCourse: number;
  readonly block: number;
  readonly post: number;
  readonly file: number;
  readonly news: number;
  readonly report: number;
  readonly export: number;
  readonly changeRequest: string;
};

export type Slot = keyof TenantIds;

/** What a path parameter names, by the segment before it (`/courses/:id`) or by its own name (`:blockId`). */
export const pathSlot = (segment: string, param: string): Slot | null => {
  const byName: Record<string, Slot> = {
    blockId: 'block',
    userId: 'user',
    fileId: 'file',
    reportId: 'report',
    requestId: 'changeRequest',
    communityId: 'unit',
  };
  if (byName[param]) return byName[param];
  if (param !== 'id') return null;
  const bySegment: Record<string, Slot> = {
    companies: 'company',
    units: 'unit',
    'community-groups': 'communityGroup',
    users: 'user',
    courses: 'course',
    'user-courses': 'course',
    surveys: 'course',
    redirect: 'course',
    post: 'post',
    files: 'file',
    news: 'news',
    exports: 'export',
  };
  return bySegment[segment] ?? null;
};

/** A path parameter that names nothing of a company: a value that is valid, so the request reaches the check behind it. */
export const PLAIN_PARAMS: Readonly<Record<string, string>> = {
  platform: 'google',
  type: '1',
  intervalId: '0',
  // A certificate's number is no id but the printed certificate's own secret (50 random bits, decision 0032): whoever
  // holds the paper may verify it. What the verification shows is checked against the PDF in certificates.int.spec.ts.
  number: 'ML-2026-00000-00000',
};

/** What a query parameter names, by its key. */
export const querySlot = (key: string): Slot | null => {
  const keys: Record<string, Slot> = {
    courseId: 'course',
    course_id: 'course',
    companyId: 'company',
    companyIds: 'company',
    unitId: 'unit',
    communityId: 'unit',
    filterIds: 'unit',
    groupId: 'communityGroup',
    userId: 'user',
  };
  return keys[key] ?? null;
};

/** The catalogue's slot for a reference kind of a body field; null for the catalogues every company shares. */
export const referenceSlot = (kind: ReferenceKind): Slot | null => {
  switch (kind) {
    case 'company':
    case 'unit':
    case 'communityGroup':
    case 'course':
    case 'post':
    case 'file':
    case 'user':
      return kind;
    case 'surveyQuestion':
      return 'block';
    default:
      return null;
  }
};

const checks = (def: Def, name: string) => (def.checks ?? []).map((c) => c._zod.def).filter((c) => c.check === name);
const minLength = (def: Def) => Math.max(0, ...checks(def, 'min_length').map((c) => c.minimum ?? 0));
const maxLength = (def: Def) => Math.min(10_000, ...checks(def, 'max_length').map((c) => c.maximum ?? 10_000));
const check = (def: Def, name: string) => checks(def, name)[0];

/** Text fields whose rule is a pattern the generator cannot read: a value by the field's name. */
const BY_NAME: readonly [RegExp, (marker: string) => string][] = [
  [/^(email|secondaryEmail|newEmail|usernameOrEmail)$/i, (m) => `${m.toLowerCase()}@tenant.test`],
  [/^username$/i, (m) => `u${m.toLowerCase()}x`],
  [/phone/i, () => '041 000 000'],
  [/^(cover|imageUrl|image)$/i, () => '/c.jpg'],
  [/url$/i, () => 'https://tenant.test/'],
  [/^code$/i, () => '123456'],
  [/password/i, () => 'NiGeslo123'],
  [/^(zip)$/i, () => '1000'],
  [/^(dateFrom|from)$/i, () => '2026-01-01'],
  [/^(dateTo|to)$/i, () => '2026-12-31'],
];

/** Whether a schema holds a declared reference somewhere inside. */
const holdsReference = (schema: z.ZodType, depth = 0): boolean => {
  if (depth > 40) return false;
  if (referenceMeta(schema)?.reference) return true;
  const def = defOf(schema);
  const inner = [def.innerType, def.in, def.out, def.element, def.left, ...(def.options ?? []), ...Object.values(def.shape ?? {})];
  if (def.type === 'lazy' && def.getter) inner.push(def.getter());
  return inner.some((child) => child !== undefined && holdsReference(child, depth + 1));
};

/**
 * A body the route's rule accepts as far as plain rules go (lengths, formats, ranges), with every
 * declared reference naming `idOf(kind)`. Optional fields are left out unless they hold a reference.
 * Refinements across fields may still refuse it: a refusal is a refusal, and the suite only asks
 * that nothing of the other company comes back or changes.
 */
export const sampleBody = (schema: unknown, idOf: (kind: ReferenceKind) => number | undefined, marker: string): unknown => {
  const sample = (node: z.ZodType, key: string, depth: number): unknown => {
    if (depth > 40) return undefined;
    const meta = referenceMeta(node);
    if (meta?.reference) return idOf(meta.reference) ?? 1;
    const def = defOf(node);
    switch (def.type) {
      case 'object': {
        const value: Record<string, unknown> = {};
        for (const [name, child] of Object.entries(def.shape ?? {})) {
          const childDef = defOf(child);
          const optional = ['optional', 'default', 'prefault'].includes(childDef.type) || (childDef.type === 'pipe' && child.safeParse(undefined).success);
          if (optional && !holdsReference(child)) {
            // A whole-record PUT wants every field: an optional one that takes null is sent as null.
            if (child.safeParse(null).success) value[name] = null;
            continue;
          }
          const v = sample(child, name, depth + 1);
          if (v !== undefined) value[name] = v;
        }
        return value;
      }
      case 'array': {
        const min = minLength(def);
        const count = Math.max(min, def.element && holdsReference(def.element) ? 1 : 0);
        return Array.from({ length: count }, () => sample(def.element as z.ZodType, key, depth + 1));
      }
      case 'optional':
      case 'nullable':
      case 'nonoptional':
      case 'readonly':
      case 'catch':
      case 'default':
      case 'prefault':
        return def.innerType ? sample(def.innerType, key, depth + 1) : undefined;
      case 'pipe': {
        const inner = def.in && defOf(def.in).type === 'transform' ? def.out : def.in;
        return inner ? sample(inner, key, depth + 1) : undefined;
      }
      case 'lazy':
        return def.getter ? sample(def.getter(), key, depth + 1) : undefined;
      case 'union':
        return def.options?.[0] ? sample(def.options[0], key, depth + 1) : undefined;
      case 'intersection':
        return def.left ? sample(def.left, key, depth + 1) : undefined;
      case 'enum':
        return Object.values(def.entries ?? {})[0];
      case 'literal':
        return def.values?.[0];
      case 'boolean':
        return false;
      case 'number': {
        const low = check(def, 'greater_than');
        const high = check(def, 'less_than');
        const min = low ? (low.value as number) + (low.inclusive ? 0 : 1) : 1;
        return Math.min(Math.max(min, 1), high ? (high.value as number) : 1);
      }
      case 'string': {
        if (def.format === 'email') return `${marker.toLowerCase()}@tenant.test`;
        if (def.format === 'datetime') return new Date(Date.now() + 86_400_000).toISOString();
        if (def.format === 'uuid' || def.format === 'guid') return randomUUID();
        if (def.format === 'url') return 'https://tenant.test/';
        const named = BY_NAME.find(([pattern]) => pattern.test(key));
        if (named) return named[1](marker);
        const min = Math.max(1, minLength(def));
        const max = maxLength(def);
        const text = `Besedilo preskusa ločenosti ${marker} `.repeat(Math.ceil(min / 30) + 1);
        return text
          .slice(0, Math.max(min, Math.min(max, 40)))
          .trimEnd()
          .padEnd(min, 'x');
      }
      case 'record':
        return {};
      case 'any':
      case 'unknown':
        return null;
      default:
        return undefined;
    }
  };
  return schema instanceof z.ZodType ? sample(schema, '', 0) : undefined;
};

/** The keys of a route's query rule. */
export const queryKeys = (schema: unknown): string[] => {
  if (!(schema instanceof z.ZodType)) return [];
  let def = defOf(schema);
  while (def.type !== 'object' && (def.innerType || def.in)) def = defOf((def.innerType ?? def.in) as z.ZodType);
  return Object.keys(def.shape ?? {});
};
