import { defineConfig } from 'vitest/config';

// Unit and integration suites. End-to-end specs (tests/e2e) run under Playwright, not here.
export default defineConfig({
  define: { __APP_VERSION__: JSON.stringify('3.5.3') },
  test: {
    include: ['{domain,application,projections,infrastructure,tests}/**/*.{unit,int}.spec.ts', 'ui/src/**/*.unit.spec.{ts,tsx}'],
    exclude: ['node_modules', 'tests/e2e/**'],
    globalSetup: ['tests/support/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
