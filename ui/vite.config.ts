import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { ROUTES } from './src/app/route-paths.ts';

const root = fileURLToPath(new URL('.', import.meta.url));
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

/** dist/routes.json: the route patterns, so the server answers a path no route matches with 404. */
const routeManifest = (): Plugin => ({
  name: 'route-manifest',
  generateBundle() {
    this.emitFile({ type: 'asset', fileName: 'routes.json', source: JSON.stringify(ROUTES.map((route) => route.path)) });
  },
});

export default defineConfig({
  root,
  plugins: [react(), routeManifest()],
  define: { __APP_VERSION__: JSON.stringify(version) },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 800,
  },
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:3000' },
  },
});
