import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { PermissionScope } from '../../domain/permissions/permissions.ts';
import type { RouteEntry } from '../../infrastructure/http/http.port.ts';

export type Use = { readonly scope: PermissionScope; readonly id: number; readonly where: string };

/** The permissions a route's access declaration checks, each with its scope. */
export const routeUses = (routes: readonly RouteEntry[]): Use[] =>
  routes.flatMap((route) => {
    if (route.access.kind !== 'permission') return [];
    const where = `${route.method} ${route.url}`;
    return route.access.anyOf.map((check): Use => {
      if ('system' in check) return { scope: 'system', id: check.system, where };
      if ('profile' in check) return { scope: 'profile', id: check.profile, where };
      if ('membershipAnywhere' in check) return { scope: 'membership', id: check.membershipAnywhere, where };
      if ('communityAnywhere' in check) return { scope: 'community', id: check.communityAnywhere, where };
      return { scope: 'community', id: check.community, where };
    });
  });

const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !/\.spec\.tsx?$/.test(name) ? [path] : [];
  });

/**
 * Permissions checked inside handlers and slices (a scope narrowed after the route let the caller
 * in): `can(subject, N, { kind })`, `canSomewhere(subject, N)`, `communityReach(subject, N)`, and
 * the statistics' `scopeOf(request, system, community)`.
 */
export const handlerUses = (root: string): Use[] => {
  const uses: Use[] = [];
  for (const file of [...sources(join(root, 'application')), ...sources(join(root, 'projections')), ...sources(join(root, 'domain', 'courses'))]) {
    const text = readFileSync(file, 'utf8');
    const where = relative(root, file);
    for (const m of text.matchAll(/\bcan\([^,]+,\s*(\d{4}),\s*\{\s*kind:\s*'(\w+)'/g)) uses.push({ scope: m[2] as PermissionScope, id: Number(m[1]), where });
    for (const m of text.matchAll(/\b(?:canSomewhere|communityReach)\([^,]+,\s*(\d{4})\)/g)) uses.push({ scope: 'community', id: Number(m[1]), where });
    for (const m of text.matchAll(/\bscopeOf\(request,\s*(\d{4}),\s*(\d{4})\)/g)) {
      uses.push({ scope: 'system', id: Number(m[1]), where }, { scope: 'community', id: Number(m[2]), where });
    }
  }
  return uses;
};

/** The rows of the "unused" table of a decision record: `| scope | id | reason |`. */
export const recordedUnused = (markdown: string): { scope: PermissionScope; id: number; reason: string }[] =>
  [...markdown.matchAll(/^\|\s*(profile|system|community|membership)\s*\|\s*(\d{4})\s*\|\s*(.+?)\s*\|\s*$/gm)].map((m) => ({
    scope: m[1] as PermissionScope,
    id: Number(m[2]),
    reason: m[3] as string,
  }));
