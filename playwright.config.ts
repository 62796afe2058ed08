import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { TEST_SCRYPT_COST } from './tests/helpers/scrypt-cost.ts';

// One fresh data folder per run, shared by the server under test and the tests' fixtures.
// Playwright loads this file in its workers too, so the first evaluation wins via the env.
process.env.E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'localrank-e2e-'));
const port = Number(process.env.E2E_PORT ?? 43210);
export const baseURL = `http://127.0.0.1:${port}`;

function chromiumPath(): string {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  return execFileSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], { encoding: 'utf8' }).trim();
}

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  timeout: 30_000,
  // A ceiling for an awaited event, not a speed: Stripe's frame and a hydration took over 7 s on
  // a busy 2-core machine.
  expect: { timeout: 15_000 },
  reporter: process.env.CI ? [['list'], ['json', { outputFile: 'test-results/e2e.json' }]] : [['list']],
  use: {
    baseURL,
    // A trace records every action of every test (snapshots and screencast) to keep the failing
    // ones: about a fifth of the browser tier's CPU (dashboard.spec: 161 s of machine CPU with it,
    // 130 s without). E2E_TRACE=1 records them, as E2E_SCREENSHOTS=1 writes screenshots.
    trace: process.env.E2E_TRACE ? 'retain-on-failure' : 'off',
    launchOptions: {
      executablePath: chromiumPath(),
      args: ['--no-sandbox', '--disable-background-networking', '--disable-gpu', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'] } }],
  webServer: {
    // npm start's script, with billing pointed at a local Stripe API double (tests/e2e/serve.ts).
    command: 'node tests/e2e/serve.ts',
    url: `${baseURL}/api/health`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: process.env.E2E_DATA_DIR,
      PUBLIC_BASE_URL: baseURL,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      // Report and journey tests read the e-mails at /dev/mailbox (off unless asked for).
      DEV_MAILBOX: 'true',
      // White-label mail leaves from a neutral domain, as README asks an operator to set it.
      WHITE_LABEL_MAIL_FROM: 'reports@client-reports.example',
      // Every e2e request comes from 127.0.0.1: generous intake limits so runs are not throttled.
      INTAKE_RATE_LIMIT_PER_IP: '100000',
      INTAKE_RATE_LIMIT_PER_EMAIL: '100000',
      // Proof of work only where a test sets the count past its threshold; a small one, solved in a moment.
      POW_AFTER_PER_NETWORK: '100000',
      POW_AFTER_PER_DOMAIN: '100000',
      POW_MAX_COUNTER: '40',
      // Each report its own analysis, as the specs expect (decision 0351).
      SHARED_ANALYSIS_MINUTES: '0',
      CONTACT_RATE_LIMIT_PER_IP: '100000',
      SIGNUP_RATE_LIMIT_PER_IP: '100000',
      SCRYPT_COST: TEST_SCRYPT_COST,
    },
  },
});
