import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkArchitecture, checkImportCircles, importsOf, type SourceFile } from '../support/architecture-rules.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const LAYERS = ['domain', 'application', 'projections', 'infrastructure', 'ui', 'tests', 'scripts'];
const SKIP = new Set(['node_modules', 'dist', '.data', 'test-results']);

const walk = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    if (SKIP.has(name)) return [];
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : /\.tsx?$/.test(name) ? [path] : [];
  });

const projectFiles = (): SourceFile[] =>
  LAYERS.flatMap((layer) => walk(join(ROOT, layer))).map((path) => ({ path: relative(ROOT, path).split('\\').join('/'), source: readFileSync(path, 'utf8') }));

describe('architecture (DESIGN.md §2)', () => {
  it('holds for the whole project', () => {
    expect(checkArchitecture(projectFiles())).toEqual([]);
  });

  it('has the top-level layout of DESIGN.md §2', () => {
    for (const entry of ['domain', 'application', 'projections', 'infrastructure', 'ui', 'tests', 'docker-compose.yml', 'package.json', 'tsconfig.json']) {
      expect(() => statSync(join(ROOT, entry)), entry).not.toThrow();
    }
  });

  it('reads every form of import', () => {
    expect(
      importsOf(
        `import a from './a.ts';\nimport type { B } from "../b.ts";\nexport { c } from './c.ts';\nimport './side.css';\nconst d = await import('./d.ts');\nimport {\n  e,\n  f,\n} from 'zod';`,
      ),
    ).toEqual(['./a.ts', '../b.ts', './c.ts', './side.css', './d.ts', 'zod']);
  });

  const check = (path: string, source: string) => checkArchitecture([{ path, source }]).map((v) => v.rule);

  it('catches domain code that imports outside the domain or does I/O', () => {
    expect(check('domain/users/user.ts', "import { x } from '../../infrastructure/event-store/event-store.port.ts';")).toEqual(['domain imports only domain']);
    expect(check('domain/users/user.ts', "import { readFile } from 'node:fs';")).toEqual(['domain uses no I/O or framework']);
    expect(check('domain/users/user.ts', "import { z } from 'zod';\nimport { match } from 'ts-pattern';")).toEqual([]);
  });

  it('catches application code that reaches into another feature, a projection or a concrete adapter', () => {
    expect(check('application/users/log-in.ts', "import { x } from '../courses/take-course.ts';")).toHaveLength(1);
    expect(check('application/users/log-in.ts', "import { x } from '../../projections/users/users.projection.ts';")).toHaveLength(1);
    expect(check('application/users/log-in.ts', "import { x } from '../../infrastructure/event-store/postgres/postgres-event-store.ts';")).toHaveLength(1);
    expect(check('application/users/log-in.ts', "import pg from 'pg';")).toEqual(['application uses ports, not drivers']);
    expect(
      check(
        'application/users/log-in.ts',
        "import { a } from '../shared/handle-command.ts';\nimport { b } from '../../infrastructure/http/http.port.ts';\nimport { c } from '../../projections/users/users.queries.ts';\nimport { d } from './auth.deps.ts';",
      ),
    ).toEqual([]);
  });

  it('catches projections that import application code or another projection', () => {
    expect(check('projections/users/users.projection.ts', "import { x } from '../../application/users/log-in.ts';")).toHaveLength(1);
    expect(check('projections/users/users.projection.ts', "import { x } from '../organisation/organisation.projection.ts';")).toHaveLength(1);
  });

  it('catches infrastructure outside the composition root that wires features', () => {
    expect(check('infrastructure/http/app.ts', "import { x } from '../../application/users/auth.routes.ts';")).toHaveLength(1);
    expect(check('infrastructure/main/demo-data.ts', "import { x } from '../../application/users/register-user.ts';")).toEqual([]);
  });

  it('lets a feature module list its own read models and routes, and the composition root import only modules and adapters', () => {
    expect(check('application/users/users.module.ts', "import { x } from '../../projections/users/users.projection.ts';")).toEqual([]);
    expect(check('application/users/users.module.ts', "import { x } from '../../projections/courses/courses.projection.ts';")).toHaveLength(1);
    expect(check('application/users/log-in.ts', "import { x } from '../../projections/users/users.routes.ts';")).toHaveLength(1);
    expect(
      check('infrastructure/main/platform.ts', "import { x } from '../../application/users/users.module.ts';\nimport { y } from '../http/app.ts';"),
    ).toEqual([]);
    expect(check('infrastructure/main/platform.ts', "import { x } from '../../application/users/register-user.ts';")).toEqual([
      'the composition root imports feature modules and adapters only',
    ]);
    expect(check('infrastructure/main/platform.ts', "import { x } from '../../projections/users/users.queries.ts';")).toEqual([
      'the composition root imports feature modules and adapters only',
    ]);
  });

  it('catches UI code that imports the backend or another UI feature', () => {
    expect(check('ui/src/features/auth/components/login-form.tsx', "import { x } from '../../../../../domain/users/user.ts';")).toHaveLength(1);
    expect(check('ui/src/features/auth/components/login-form.tsx', "import { x } from '../../../../../domain/users/user.rules.ts';")).toEqual([]);
    expect(check('ui/src/features/auth/components/login-form.tsx', "import { x } from '../../users/api/me.ts';")).toEqual([
      'UI features do not import each other',
    ]);
    expect(check('ui/src/lib/api.ts', "import pg from 'pg';")).toEqual(['the UI imports no backend package']);
  });

  it('catches barrel files and export *', () => {
    expect(check('application/users/index.ts', "export * from './log-in.ts';")).toEqual(['no barrel files', 'no export *']);
  });

  describe('import circles', () => {
    const circles = (files: Record<string, string>) =>
      checkImportCircles(Object.entries(files).map(([path, source]) => ({ path, source }))).map((v) => `${v.rule}: ${v.detail}`);

    it('catches two files that import each other, type-only imports too', () => {
      expect(
        circles({
          'domain/x/b.ts': "import type { A } from './a.ts';",
          'domain/x/a.ts': "import { b } from './b.ts';",
        }),
      ).toEqual(['no import circles: domain/x/a.ts -> domain/x/b.ts -> domain/x/a.ts']);
    });

    it('catches a circle of three files across folders, extensionless and .js specifiers included', () => {
      expect(
        circles({
          'ui/src/features/x/components/list.tsx': "import { Select } from './select';",
          'ui/src/features/x/components/select.tsx': "import { fetchItems } from '../api/items.js';",
          'ui/src/features/x/api/items.ts': "export { type Row } from '../components/list.tsx';\nimport { z } from 'zod';",
        }),
      ).toEqual([
        'no import circles: ui/src/features/x/api/items.ts -> ui/src/features/x/components/list.tsx -> ui/src/features/x/components/select.tsx -> ui/src/features/x/api/items.ts',
      ]);
    });

    it('passes a chain, a diamond and imports of packages or missing files', () => {
      expect(
        circles({
          'domain/x/a.ts': "import { b } from './b.ts';\nimport { c } from './c.ts';",
          'domain/x/b.ts': "import { d } from './d.ts';\nimport { z } from 'zod';",
          'domain/x/c.ts': "import { d } from './d.ts';\nimport { gone } from './gone.ts';",
          'domain/x/d.ts': 'export const d = 1;',
        }),
      ).toEqual([]);
    });

    it('is reported by checkArchitecture with the rest', () => {
      const files = [
        { path: 'domain/x/a.ts', source: "import { b } from './b.ts';" },
        { path: 'domain/x/b.ts', source: "import { a } from './a.ts';" },
      ];
      expect(checkArchitecture(files).map((v) => [v.file, v.rule])).toEqual([['domain/x/a.ts', 'no import circles']]);
    });
  });
});
