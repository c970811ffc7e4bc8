import { z } from 'zod';
import { DomainError } from '../../domain/shared/domain-error.ts';
import type { ReferenceKind, ReferenceMeta } from '../../domain/shared/id.rules.ts';
import type { ReferenceCaller, ReferenceResolvers } from './http.port.ts';

/**
 * Ids a request body names (issue 31 item 1, decision 0047): every body field declared with
 * `reference(kind)` (domain/shared/id.rules.ts) is resolved for the caller in one place, after the
 * body is validated and before the handler runs. Unknown and out-of-reach ids answer alike, 400 with
 * the field named, so a foreign id tells nothing about the record; nothing is written.
 */

/** One id found in a body: what it names and where (`audience.unitIds.2`). */
export type FoundReference = { readonly kind: ReferenceKind; readonly id: number; readonly field: string };

/** What a refused id is called on the form, in Slovenian. */
const REFUSED: Readonly<Record<ReferenceKind, string>> = {
  company: 'Izbrano podjetje ne obstaja ali ni na voljo',
  unit: 'Izbrana enota ne obstaja ali ni na voljo',
  communityGroup: 'Izbrana skupina ne obstaja ali ni na voljo',
  profession: 'Izbrani poklic ne obstaja',
  professionGroup: 'Izbrana skupina poklicev ne obstaja',
  companyTag: 'Izbrana značka ne obstaja',
  unitTag: 'Izbrana značka ne obstaja',
  courseTag: 'Izbrana značka ne obstaja',
  course: 'Izbrano izobraževanje ne obstaja ali ni na voljo',
  post: 'Izbrani komentar ne obstaja ali ni na voljo',
  file: 'Izbrana datoteka ne obstaja ali ni na voljo',
  user: 'Izbrani uporabnik ne obstaja ali ni na voljo',
  surveyQuestion: 'Vprašanje ni del te ankete',
  contentPackage: 'Izbrani paket ne obstaja ali ni na voljo',
};

/** The parts of a zod schema's definition the walkers here (and the cross-tenant suite's body generator) read. */
export type Def = {
  readonly type: string;
  readonly innerType?: z.ZodType;
  readonly in?: z.ZodType;
  readonly out?: z.ZodType;
  readonly element?: z.ZodType;
  readonly shape?: Readonly<Record<string, z.ZodType>>;
  readonly options?: readonly z.ZodType[];
  readonly discriminator?: string;
  readonly left?: z.ZodType;
  readonly right?: z.ZodType;
  readonly valueType?: z.ZodType;
  readonly items?: readonly z.ZodType[];
  readonly getter?: () => z.ZodType;
  readonly format?: string;
  readonly entries?: Readonly<Record<string, unknown>>;
  readonly values?: readonly unknown[];
  readonly checks?: readonly { _zod: { def: { check: string; minimum?: number; maximum?: number; value?: number; inclusive?: boolean } } }[];
};

export const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The reference marker on this schema itself (not on what it wraps); undefined when it has none. */
export const referenceMeta = (schema: z.ZodType): ReferenceMeta | undefined => {
  const meta = z.globalRegistry.get(schema) as Partial<ReferenceMeta> | undefined;
  return meta && 'reference' in meta ? (meta as ReferenceMeta) : undefined;
};

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The options of a union that can have produced `value` (a discriminated union: the one its discriminator names). */
const unionOptions = (def: Def, value: unknown): readonly z.ZodType[] => {
  const options = def.options ?? [];
  if (!def.discriminator || !isRecord(value)) return options;
  const chosen = options.filter((option) => {
    const values = (option as unknown as { _zod: { propValues?: Record<string, Set<unknown>> } })._zod.propValues?.[def.discriminator as string];
    return !values || values.has(value[def.discriminator as string]);
  });
  return chosen.length > 0 ? chosen : options;
};

/**
 * Every declared reference in a parsed body: walks the schema beside the value, through wrappers
 * (optional, default, pipes, lazy), objects, arrays, records and unions. 0 is never an id ("all
 * units of the company" where a rule allows it).
 */
export const collectReferences = (schema: unknown, value: unknown): FoundReference[] => {
  const found: FoundReference[] = [];
  const walk = (node: z.ZodType, at: unknown, path: readonly (string | number)[], depth: number) => {
    if (depth > 64 || at === undefined || at === null) return;
    const meta = referenceMeta(node);
    if (meta) {
      if (meta.reference && typeof at === 'number' && at > 0) found.push({ kind: meta.reference, id: at, field: path.join('.') });
      return;
    }
    const def = defOf(node);
    switch (def.type) {
      case 'optional':
      case 'nullable':
      case 'default':
      case 'prefault':
      case 'readonly':
      case 'catch':
      case 'nonoptional':
      case 'success':
        if (def.innerType) walk(def.innerType, at, path, depth + 1);
        return;
      case 'pipe': {
        // A preprocess is a transform before the schema; a transform after a schema leaves the schema's shape in.
        const inner = def.in && defOf(def.in).type === 'transform' ? def.out : def.in;
        if (inner) walk(inner, at, path, depth + 1);
        return;
      }
      case 'lazy':
        if (def.getter) walk(def.getter(), at, path, depth + 1);
        return;
      case 'object':
        if (!isRecord(at)) return;
        for (const [key, child] of Object.entries(def.shape ?? {})) walk(child, at[key], [...path, key], depth + 1);
        return;
      case 'array':
        if (!Array.isArray(at) || !def.element) return;
        for (const [index, item] of at.entries()) walk(def.element, item, [...path, index], depth + 1);
        return;
      case 'tuple':
        if (!Array.isArray(at)) return;
        for (const [index, item] of (def.items ?? []).entries()) walk(item, at[index], [...path, index], depth + 1);
        return;
      case 'record':
        if (!isRecord(at) || !def.valueType) return;
        for (const [key, item] of Object.entries(at)) walk(def.valueType, item, [...path, key], depth + 1);
        return;
      case 'union':
        for (const option of unionOptions(def, at)) walk(option, at, path, depth + 1);
        return;
      case 'intersection':
        if (def.left) walk(def.left, at, path, depth + 1);
        if (def.right) walk(def.right, at, path, depth + 1);
        return;
      default:
        return;
    }
  };
  if (schema instanceof z.ZodType) walk(schema, value, [], 0);
  // The same id at the same field twice (a union's options) is one reference.
  const seen = new Set<string>();
  return found.filter((r) => {
    const key = `${r.kind}|${r.field}|${r.id}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
};

/** A body field whose name says it holds an id: `id`, `courseId`, `unitIds`, `course_id`. */
const ID_NAME = /^(id|ids)$|[a-z](Id|Ids)$|_ids?$/;

/**
 * Body fields that hold a number, are named like an id and declare neither `reference(kind)` nor
 * `notAReference`: the cross-tenant suite fails on any (issue 31 item 6), so a new field that takes
 * an id cannot reach a handler unresolved.
 */
export const undeclaredIdFields = (schema: unknown): string[] => {
  const found: string[] = [];
  const walk = (node: z.ZodType, path: readonly string[], depth: number): void => {
    if (depth > 64 || referenceMeta(node)) return;
    const def = defOf(node);
    const inner = (next: z.ZodType | undefined, at = path): void => {
      if (next) walk(next, at, depth + 1);
    };
    switch (def.type) {
      case 'pipe':
        inner(def.in && defOf(def.in).type === 'transform' ? def.out : def.in);
        return;
      case 'lazy':
        inner(def.getter?.());
        return;
      case 'object':
        for (const [key, child] of Object.entries(def.shape ?? {})) inner(child, [...path, key]);
        return;
      case 'array':
        inner(def.element, [...path.slice(0, -1), `${path.at(-1) ?? ''}[]`]);
        return;
      case 'record':
        inner(def.valueType);
        return;
      case 'union':
        for (const option of def.options ?? []) inner(option);
        return;
      case 'intersection':
        inner(def.left);
        inner(def.right);
        return;
      case 'number':
      case 'bigint': {
        const key = (path.at(-1) ?? '').replace(/\[\]$/, '');
        if (ID_NAME.test(key)) found.push(path.join('.'));
        return;
      }
      default:
        inner(def.innerType);
        return;
    }
  };
  if (schema instanceof z.ZodType) walk(schema, [], 0);
  return [...new Set(found)];
};

/** Ids the record a route changes names already, by kind: kept as they are (decision 0047). */
export type NamedBefore = Partial<Record<ReferenceKind, readonly number[]>>;

/** The references the resolvers refuse, first by field order. */
const refused = async (found: readonly FoundReference[], resolvers: ReferenceResolvers, caller: ReferenceCaller) => {
  const byKind = new Map<ReferenceKind, Set<number>>();
  for (const r of found) byKind.set(r.kind, (byKind.get(r.kind) ?? new Set()).add(r.id));
  const allowed = new Map<ReferenceKind, ReadonlySet<number>>();
  for (const [kind, ids] of byKind) allowed.set(kind, await resolvers[kind]([...ids], caller));
  return found.filter((r) => !allowed.get(r.kind)?.has(r.id));
};

/**
 * Resolves a body's references for the caller. A miss may only be a read model a moment behind a
 * write the caller just made (a unit created, then named): `catchUp` waits for the read models once
 * before the refusal stands.
 */
export const checkReferences = async (
  schema: unknown,
  body: unknown,
  caller: ReferenceCaller,
  resolvers: ReferenceResolvers,
  catchUp: () => Promise<void>,
  namedBefore?: () => Promise<NamedBefore>,
) => {
  const found = collectReferences(schema, body);
  if (found.length === 0) return;
  let missing = await refused(found, resolvers, caller);
  if (missing.length === 0) return;
  await catchUp();
  missing = await refused(missing, resolvers, caller);
  if (missing.length > 0 && namedBefore) {
    const kept = await namedBefore();
    missing = missing.filter((r) => !kept[r.kind]?.includes(r.id));
  }
  const first = missing[0];
  if (!first) return;
  // A list of ids is one field of the form (`audience.unitIds`), as its validation errors are.
  const field = first.field.replace(/\.\d+$/, '');
  throw new DomainError('400', `${REFUSED[first.kind]} (št. ${first.id}).`, { status: 400, field });
};
