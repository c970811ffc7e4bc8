import { defineConfig } from 'vitest/config';

// `npm run test:scale` (decision 0068): the deployment test with real processes, a streaming replica
// and HAProxy. Not in `npm test`'s glob (its files end in .scale.spec.ts); it needs no shared test server.
export default defineConfig({
  test: {
    include: ['tests/scale/**/*.scale.spec.ts'],
    testTimeout: 240_000,
    hookTimeout: 180_000,
    pool: 'forks',
    maxWorkers: 1,
  },
});
