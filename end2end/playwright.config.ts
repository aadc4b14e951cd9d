// Playwright flows against the release build, in Debian's Chromium (no browser downloads).
import { defineConfig, devices } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir, homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromiumArgs, chromiumPath } from '../scripts/chromium.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const port = Number(process.env.E2E_PORT ?? 3107);
const targetDir = process.env.CARGO_TARGET_DIR ?? join(homedir(), '.cache/vonk/target');
// A fresh data directory per run: the server creates, migrates and seeds the database.
// Workers inherit the environment, so tests find the same folder (and its mail outbox).
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'vonk-e2e-'));
process.env.E2E_DATA_DIR = dataDir;
// The built-in test provider, for the server and for the `vonk staff` commands tests run.
process.env.VONK_PAYMENTS = 'test';

const chromium = { executablePath: chromiumPath, args: chromiumArgs };

// On PostgreSQL (the second run of `make test`) only the flows whose behaviour that database
// changes: what a member writes and then reads across requests and browsers (the member cache
// and the chat's bus learn of writes through LISTEN/NOTIFY there), staff settings (the site
// cache's listener). These flows read as a visitor or test the browser itself; the queries they
// make are the same SQL on both databases, which the service tests run on both (docs/testing.md).
// And once, at 1280 px: the width of the window and JavaScript being off change what the browser
// draws and sends, never what the database does with it (the 375 px and no-JavaScript runs ask
// the server for the same things).
// The invitation, CDN, other-sites (resell) and price-test flows change site settings as the credits and chat flows do (those run
// on both); what they add is the browser's side (a second site, a second origin). Push, the
// visitor's path and the members' search ask what the service tests ask on both databases; what
// they add is the browser's (a service worker, a signup modal, cards and filters).
const sqliteOnly = [
  /landers\.spec/,
  /pricing\.spec/,
  /shell\.spec/,
  /resilience\.spec/,
  /invitations\.spec/,
  /resell\.spec/,
  /price-tests\.spec/,
  /age-check\.spec/,
  /moderation\.spec/,
  /cdn\.spec/,
  /push\.spec/,
  /visitor-path\.spec/,
  /members\.spec/,
];
const onPostgres = process.env.DATABASE_URL?.startsWith('postgres') ?? false;

export default defineConfig({
  testDir: './tests',
  // Apart per database: `make test` runs both side by side (scripts/e2e-both.sh).
  outputDir: onPostgres ? './test-results-postgres' : './test-results',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  // A guard against a flow that hangs, not a speed budget: with both databases' runs side by side
  // on two cores, flows with several members took 20–26 s in a CI run and the operators' flow
  // (three members, two of them operators) passed 30 s on both databases.
  timeout: 45_000,
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: chromium,
    trace: 'off',
  },
  projects: [
    {
      name: 'desktop',
      testIgnore: [/nojs\.spec/, ...(onPostgres ? sqliteOnly : [])],
      use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 }, launchOptions: chromium },
    },
    {
      name: 'mobile',
      testIgnore: onPostgres ? /./ : /nojs\.spec/,
      use: { ...devices['Pixel 5'], viewport: { width: 375, height: 740 }, launchOptions: chromium },
    },
    // A member whose browser runs no JavaScript at all.
    {
      name: 'nojs',
      testMatch: /nojs\.spec/,
      testIgnore: onPostgres ? /./ : [],
      use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 }, javaScriptEnabled: false, launchOptions: chromium },
    },
  ],
  webServer: {
    command: `${join(targetDir, 'release/vonk')}`,
    cwd: root,
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      VONK_ADDR: `127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      LEPTOS_SITE_ROOT: join(root, 'target/site'),
      RUST_LOG: 'warn',
      VONK_PAYMENTS: 'test',
      // The buyer is always back before the provider's webhook (normal with a real provider):
      // result pages settle payments themselves.
      VONK_TEST_WEBHOOK_DELAY_SECS: '3600',
      // Every flow signs up from 127.0.0.1; the per-IP limits themselves are tested over HTTP.
      VONK_RATE_LIMIT_FACTOR: '20',
      // Web push with a key made for these tests only (`vonk vapid-keys`), and the stand-in push
      // service of push.spec.ts as the one listed.
      VONK_VAPID_PRIVATE_KEY: 'LNSbFxErq2T0ypquJNAlU11o96oZYJLg__LsjcXwITk',
      VONK_VAPID_SUBJECT: 'mailto:support@vonk.example',
      VONK_PUSH_SERVICES: 'https://push.e2e.example',
      // The browser stands behind a proxy that names its country (as Cloudflare's CF-IPCountry);
      // without the header, a visitor gets the site's own country (NL for the Dutch site).
      VONK_TRUSTED_PROXIES: '127.0.0.1',
      VONK_GEOIP_HEADER: 'CF-IPCountry',
      // `make test-e2e` runs the suite a second time on PostgreSQL (scripts/with-postgres.sh).
      ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
    },
  },
});
