import { expect, test as base, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** Playwright's `test`, with every page of every browser context the test opens watched (its
 *  own, and those it opens for a second member): anything the Content-Security-Policy blocked —
 *  a script, a style, an `eval` or `new Function` — fails the test. Chromium reports a block on
 *  the console; a `securitypolicyviolation` listener added before any page script runs (the
 *  policy does not apply to it) names the directive, the file and line, and the sample. */
export const test = base.extend<{ cspWatch: void }>({
  cspWatch: [
    async ({ context, browser }, use) => {
      const blocked: string[] = [];
      const watchPage = (page: Page) =>
        page.on('console', (message) => {
          if (message.text().includes('Content Security Policy')) blocked.push(`${page.url()}: ${message.text()}`);
        });
      const watch = async (watched: BrowserContext) => {
        await watched.addInitScript(() => {
          document.addEventListener('securitypolicyviolation', (e) => {
            console.error(
              `Content Security Policy violation: ${e.violatedDirective} by ${e.sourceFile || e.blockedURI}:${e.lineNumber}:${e.columnNumber} ${e.sample}`,
            );
          });
        });
        watched.pages().forEach(watchPage);
        watched.on('page', watchPage);
      };
      await watch(context);
      const newContext = browser.newContext.bind(browser);
      browser.newContext = async (...args: Parameters<Browser['newContext']>) => {
        const opened = await newContext(...args);
        await watch(opened);
        return opened;
      };
      try {
        await use();
      } finally {
        browser.newContext = newContext;
      }
      expect(blocked, 'nothing blocked by the Content-Security-Policy').toEqual([]);
    },
    { auto: true },
  ],
});

/** Marks the adult-content warning as accepted, as a returning visitor would have it. */
export async function acceptEntry(context: BrowserContext, baseURL: string) {
  await context.addCookies([{ name: 'entry_accepted', value: '1', url: baseURL }]);
}

/** A link (path + token) from a mail to `email` in the server's outbox. */
export function mailLink(email: string, path: string): string {
  const dir = join(process.env.E2E_DATA_DIR!, 'mail');
  const pattern = new RegExp(`${path.replace(/[?]/g, '\\?')}=[0-9a-f]{64}`);
  const links = readdirSync(dir)
    .map((f) =>
      readFileSync(join(dir, f), 'utf8')
        .replace(/=\r?\n/g, '')
        .replace(/=3D/g, '='),
    )
    .filter((m) => m.includes(`To: ${email}`))
    .map((m) => m.match(pattern)?.[0])
    .filter((l): l is string => Boolean(l));
  if (links.length === 0) throw new Error(`no mail to ${email} with ${path}`);
  return links[links.length - 1];
}

/** Opens the activation link mailed to `email` and presses its one button (opening a link
 *  changes nothing: mail scanners open links too). */
export async function activate(page: Page, email: string) {
  await page.goto(mailLink(email, '/activate?token'));
  await page.getByRole('button', { name: 'Activeer mijn account' }).click();
  await expect(page).toHaveURL(/\/activate\/done$/);
}

/** Steps into the signup page's form, which then takes in the form with live checks (it is
 *  fetched when the visitor steps in; the server's form works until then). */
export async function signupFormReady(page: Page) {
  await page.waitForFunction(() => (window as unknown as { vonkLoaded?: boolean }).vonkLoaded === true, undefined, { timeout: 15_000 });
  await page.getByLabel('E-mailadres').focus();
  await expect(page.locator('form[data-ready="true"]')).toBeVisible({ timeout: 15_000 });
}

/** Fills in and sends `/complete-signup` (signup's second step): gender, heterosexual, Utrecht. */
export async function fillBasics(page: Page, gender: 'Vrouw' | 'Man') {
  await page.getByLabel(gender, { exact: true }).check();
  await page.getByLabel('Hetero').check();
  await page.locator('select[name="country"]').selectOption('NL');
  await page.locator('select[name="region"]').selectOption('NL-UT');
  await page.getByLabel('Woonplaats').fill('Utrecht');
  await page.getByRole('button', { name: 'Opslaan en verder' }).click();
}

/** Signs up and completes the basics (a woman by default), so the member can search and block. */
export async function member(page: Page, email: string, who: { name?: string; gender?: 'Vrouw' | 'Man' } = {}) {
  await page.goto('/signup');
  await signupFormReady(page);
  await page.getByLabel('E-mailadres').fill(email);
  await page.getByLabel('Profielnaam').fill(who.name ?? 'Iris');
  await page.getByLabel('Wachtwoord').fill('zoeken naar de vonk');
  await page.getByLabel('Geboortedatum').fill('1987-06-21');
  await page.getByRole('button', { name: 'Gratis aanmelden' }).click();
  await expect(page).toHaveURL(/\/complete-signup$/);
  await fillBasics(page, who.gender ?? 'Vrouw');
  // Signup's last step offers members who fit; skipping leads on to the profile.
  await expect(page).toHaveURL(/\/signup-matches$/);
  await page.getByTestId('finder-skip').click();
  await expect(page).toHaveURL(/\/profile\?saved=welcome$/);
}

/** A second member in a browser of their own (1280 px wide). */
export async function otherMember(browser: Browser, baseURL: string, email: string, who: { name: string; gender: 'Vrouw' | 'Man' }): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await acceptEntry(context, baseURL);
  const page = await context.newPage();
  await member(page, email, who);
  return page;
}

const axeSource = readFileSync(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url), 'utf8');

/** No serious or critical axe finding on the page as it is now. */
export async function axeClean(page: Page) {
  // Evaluated by the test driver, not as a page script: the page's policy admits no script
  // without its nonce.
  await page.evaluate(axeSource);
  const found = await page.evaluate(async () => {
    type Violation = { id: string; impact: string | null; nodes: { target: string[] }[] };
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: Violation[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
  expect(found).toEqual([]);
}

/** The newest text message the server sent to `phone` (the SMS outbox under DATA_DIR). */
export function lastSms(phone: string): string {
  const dir = join(process.env.E2E_DATA_DIR!, 'sms');
  const texts = readdirSync(dir)
    .sort()
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .filter((t) => t.startsWith(`To: ${phone}\n`));
  if (texts.length === 0) throw new Error(`no text message to ${phone}`);
  return texts[texts.length - 1];
}

/** The chat panel is live: the widget mounted and the socket is open. */
export async function chatLive(page: Page) {
  await expect(page.getByTestId('chat-panel')).toBeVisible({ timeout: 15_000 });
  await expect(page.locator('.chat--live')).toHaveCount(1);
  await expect(page.getByTestId('chat-connection')).not.toHaveClass(/--(connecting|reconnecting|offline)/, { timeout: 10_000 });
}

/**
 * The layout shift of the page so far, as the browser reports it (`layout-shift` entries without
 * recent input, all of them summed: stricter than CLS, which takes the worst window).
 */
/** Runs `sql` on the database of the server under test (SQLite in E2E_DATA_DIR, or the
 *  PostgreSQL of DATABASE_URL): how a test moves the server's stored time on, instead of waiting. */
export function onServerDatabase(sql: string) {
  const url = process.env.DATABASE_URL;
  if (url?.startsWith('postgres')) {
    execFileSync('psql', [url, '-v', 'ON_ERROR_STOP=1', '-qc', sql]);
  } else {
    const db = join(process.env.E2E_DATA_DIR!, 'vonk.db');
    execFileSync('python3', ['-c', 'import sqlite3, sys\nc = sqlite3.connect(sys.argv[1], timeout=30)\nc.execute(sys.argv[2])\nc.commit()', db, sql]);
  }
}

/** Once the page, its images and its clips are there: every image the browser fetches now
 *  decoded (a lazy one below the fold waits for a scroll that does not come), every clip that
 *  plays with a frame, and two frames drawn since (layout shifts are reported per frame). */
export async function settled(page: Page) {
  await page.waitForLoadState('networkidle');
  await page.waitForFunction(
    () =>
      [...document.images].every((i) => i.complete || i.loading === 'lazy') &&
      [...document.querySelectorAll('video')].every((v) => !v.getAttribute('src') || v.paused || v.readyState >= 2),
    undefined,
    { timeout: 15_000 },
  );
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

export function layoutShiftSoFar(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let total = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
            if (!entry.hadRecentInput) total += entry.value;
          }
        }).observe({ type: 'layout-shift', buffered: true });
        setTimeout(() => resolve(total), 100);
      }),
  );
}

/** The code an authenticator app shows for a base32 secret now (RFC 6238: 30 s steps, six
 *  digits, HMAC-SHA-1). */
export function totpCode(secret: string, at = Date.now()): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const bits = [...secret.replace(/[\s=]/g, '').toUpperCase()].map((c) => alphabet.indexOf(c).toString(2).padStart(5, '0')).join('');
  const key = Buffer.from(bits.match(/.{8}/g)!.map((b) => parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 30_000)));
  const mac = createHmac('sha1', key).update(counter).digest();
  const offset = mac[mac.length - 1] & 0xf;
  return ((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).toString().padStart(6, '0');
}

/** Switches two-step login on for the page's member, as a person with an authenticator app does:
 *  the set-up page's secret, a code from it and the password. */
export async function turnOnTwoStep(page: Page, password = 'zoeken naar de vonk') {
  await page.goto('/settings#two-step');
  await page.getByRole('button', { name: 'Inloggen in twee stappen instellen' }).click();
  await expect(page).toHaveURL(/\/settings\/two-step/);
  const secret = (await page.getByTestId('two-step-secret').textContent())!.replace(/\s/g, '');
  await page.getByRole('textbox', { name: 'Code uit je app' }).fill(totpCode(secret));
  await page.getByLabel('Wachtwoord').fill(password);
  await page.getByRole('button', { name: 'Inloggen in twee stappen aanzetten' }).click();
  await expect(page).toHaveURL(/saved=two_step/);
}

/** Gives the page's member a staff role (`vonk staff grant`, as the site's owner does for the first
 *  admin) and switches two-step login on, which staff need before any staff page opens; waits
 *  until the server knows (on PostgreSQL it hears of the role from the database a moment later). */
export async function grantStaff(page: Page, email: string, role = 'admin') {
  grantRole(email, role);
  await turnOnTwoStep(page);
  await expect.poll(async () => (await page.request.get('/staff')).status()).toBe(200);
}

/** `vonk staff grant` on the server's database: the role for the account with `email` (on a
 *  second site too, which this machine's Node cannot resolve by name). */
export function grantRole(email: string, role = 'admin') {
  const vonk = join(process.env.CARGO_TARGET_DIR ?? join(homedir(), '.cache/vonk/target'), 'release/vonk');
  execFileSync(vonk, ['staff', 'grant', email, role], { env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR!, RUST_LOG: 'warn' } });
}

/** Staff of the first site start new sites of the company, each `[domain, name]`. */
export async function startSites(browser: Browser, baseURL: string, bossEmail: string, sites: [string, string][]) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await acceptEntry(context, baseURL);
  const boss = await context.newPage();
  await member(boss, bossEmail, { name: 'Bram', gender: 'Man' });
  await grantStaff(boss, bossEmail);
  for (const [domain, name] of sites) {
    await boss.goto('/staff/site#new-site');
    await boss.getByTestId('form-new-site').getByLabel('Domein').fill(domain);
    await boss.getByTestId('form-new-site').getByLabel('Naam van de site').fill(name);
    await boss.getByTestId('form-new-site').getByRole('button', { name: 'Site aanmaken' }).click();
    await expect(boss.getByTestId('site-created')).toBeVisible();
  }
  await context.close();
}

/** An admin of the second site at `origin` (1280 px), with two-step login on. */
export async function staffOn(browser: Browser, origin: string, email: string): Promise<Page> {
  const staff = await pageOn(browser, origin, false);
  await member(staff, email, { name: 'Sara', gender: 'Vrouw' });
  grantRole(email);
  await turnOnTwoStep(staff);
  // Asked from the page: the domain is known to this browser only.
  await expect.poll(() => staff.evaluate(() => fetch('/staff/members').then((r) => r.status))).toBe(200);
  return staff;
}

/** A page on `origin` (a second site, resolved to this machine by `browser`'s own rules) at the
 *  project's width. */
export async function pageOn(browser: Browser, origin: string, mobile: boolean): Promise<Page> {
  const context = await browser.newContext({
    baseURL: origin,
    viewport: mobile ? { width: 375, height: 740 } : { width: 1280, height: 800 },
    isMobile: mobile,
    hasTouch: mobile,
  });
  await acceptEntry(context, origin);
  return context.newPage();
}
