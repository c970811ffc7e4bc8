import { join } from 'node:path';
import { defineConfig, devices } from '@playwright/test';

/**
 * End-to-end tests in the system Chromium (Debian's /usr/bin/chromium; `npx playwright install`
 * cannot download here). The platform starts as `npm start` would, on a fresh data directory and
 * embedded PostgreSQL, with demo data.
 */
const root = join(import.meta.dirname, '..', '..');
const port = Number(process.env.E2E_PORT ?? 3210);
const dataDir = join(root, '.data', `e2e-${process.pid}`);
export const baseURL = `http://localhost:${port}`;
// The suite's own mail server (SMTP) and its reader (HTTP): mail is really delivered (issue 13).
const smtpPort = port + 1;
export const mailReaderURL = `http://127.0.0.1:${port + 2}`;

export const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
// The push service of push.e2e.ts (tests/support/push-service.ts), standing in for the browser's.
export const pushServiceURL = `http://127.0.0.1:${port + 3}`;
// The content origin package code runs on (issue 35): another port, so another origin than baseURL.
// Another host than baseURL's too (127.0.0.1 beside localhost): cookies are a host's, whatever the port.
export const contentOrigin = `http://127.0.0.1:${port + 4}`;

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.e2e.ts',
  outputDir: join(root, 'test-results', 'e2e'),
  timeout: 60_000,
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  globalSetup: join(import.meta.dirname, 'global-setup.ts'),
  globalTeardown: join(import.meta.dirname, 'global-teardown.ts'),
  use: {
    baseURL,
    locale: 'sl-SI',
    timezoneId: 'Europe/Ljubljana',
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: chromium,
      // Without notifications the header's push prompt (issue 16) stays away; push.e2e.ts runs with them.
      args: [...chromiumArgs, '--disable-notifications'],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: [
    {
      command: `node --disable-warning=ExperimentalWarning ${join(root, 'tests', 'e2e', 'mail-sink-server.ts')}`,
      cwd: root,
      url: `${mailReaderURL}/health`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: { E2E_SMTP_PORT: String(smtpPort), E2E_MAIL_PORT: String(port + 2) },
    },
    {
      command: `node --disable-warning=ExperimentalWarning ${join(root, 'infrastructure', 'main', 'main.ts')}`,
      cwd: root,
      url: `${baseURL}/api/health`,
      reuseExistingServer: false,
      timeout: 180_000,
      stdout: 'ignore',
      stderr: 'pipe',
      gracefulShutdown: { signal: 'SIGTERM', timeout: 20_000 },
      env: {
        PORT: String(port),
        DATA_DIR: dataDir,
        E2E_DATA_DIR: dataDir,
        EMBEDDED_PG_PORT: String(port + 50_000 > 65_000 ? 54_900 : port + 50_000),
        AUTH_RATE_LIMIT_PER_MINUTE: '1000',
        AUTH_ADDRESS_RATE_LIMIT_PER_MINUTE: '100000',
        RENDERS_PER_HOUR: '100000',
        EXPORTS_PER_HOUR: '100000',
        COMMENTS_PER_HOUR: '100000',
        MAILS_PER_HOUR: '100000',
        SURVEY_BALLOTS_PER_HOUR: '100000',
        LOG_LEVEL: 'warn',
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        // Google and Facebook are stood in for by the platform's local OpenID provider at /oidc.
        OIDC_LOCAL_PROVIDER: 'true',
        PUBLIC_URL: baseURL,
        CONTENT_PORT: String(port + 4),
        CONTENT_ORIGIN: contentOrigin,
        PUSH_ENDPOINT_ORIGINS: `https://fcm.googleapis.com,${pushServiceURL}`,
        // Several people building at once can each serve their own build (vite build --outDir).
        UI_DIST_DIR: process.env.E2E_UI_DIST_DIR ?? join(root, 'ui', 'dist'),
      },
    },
  ],
});
