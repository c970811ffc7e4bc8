// Builds the UI before `npm start` when ui/dist is missing or older than any of its sources,
// so `npm install && npm start` serves the current UI without a separate build step.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const built = join(root, 'ui', 'dist', 'index.html');

const newest = (path: string): number => {
  if (!existsSync(path)) return 0;
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
};

const sources = [
  join(root, 'ui', 'src'),
  join(root, 'ui', 'public'),
  join(root, 'ui', 'index.html'),
  join(root, 'ui', 'vite.config.ts'),
  join(root, 'domain'),
  join(root, 'package-lock.json'),
];
const builtAt = existsSync(built) ? statSync(built).mtimeMs : 0;
if (builtAt === 0 || Math.max(...sources.map(newest)) > builtAt) {
  process.stdout.write('Building the UI (ui/dist) ...\n');
  const result = spawnSync('npx', ['vite', 'build', '--config', 'ui/vite.config.ts', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
