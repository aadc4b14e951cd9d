// Lighthouse's mobile audit (its default throttling: a mid-range phone on slow 4G) of the pages a
// visitor lands on, against a running server (`make run BUILD=release`, or the release binary):
//
//   node scripts/lighthouse.mjs [--url http://127.0.0.1:3000] [--cookie 'session=…'] [--runs 3] [path …]
//
// Prints performance, accessibility, CLS, LCP and total blocking time per page (the median run by
// performance when --runs is more than 1: on a 2-core machine one run's blocking time varies by
// a factor of two), with the machine's BenchmarkIndex of that run (Lighthouse's measure of the
// CPU: the same page scores lower on a slower run), and exits non-zero
// when a page is under 95 / 95, over CLS 0.05 or over the total blocking time of
// `main_thread_ms` in scripts/bundle-pages.json. `scripts/lighthouse-table.sh` (in `make bench`)
// runs it on the member and visitor pages of a fresh release server. Chromium comes from Debian (/usr/bin/chromium);
// nothing is downloaded. With --cookie (a member's session) the member pages can be measured too:
// the cookies go into the browser's own cookie store (a `Cookie` header through Lighthouse's
// `extraHeaders` never reached the server from Chromium, so a member page was measured as the
// login page it redirects to). Lighthouse's storage reset would clear them, so it is off and
// the browser's cache is cleared before each run instead. A page that ends anywhere but the
// address asked for is reported and fails the run.
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import puppeteer from 'puppeteer-core';
import { readFileSync } from 'node:fs';
import { chromiumArgs, chromiumPath } from './chromium.mjs';

// The main-thread budget (total blocking time) every page is held to, beside the bundle budgets.
const mainThreadMs = JSON.parse(readFileSync(new URL('./bundle-pages.json', import.meta.url), 'utf8')).main_thread_ms;

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  if (at < 0) return fallback;
  const [, value] = args.splice(at, 2);
  return value;
};
const base = option('--url', process.env.VONK_URL ?? 'http://127.0.0.1:3000');
const cookie = ['entry_accepted=1', option('--cookie', '')].filter(Boolean).join('; ');
const runs = Math.max(1, Number(option('--runs', '1')));
const paths = args.length
  ? args
  : [
      '/',
      '/members',
      '/signup',
      ...['alonetonight', 'collagelanding', 'gallery', 'iconslanding', 'maplanding', 'socialnetwork', 'transitionsvideolanding', 'video', 'tinderswipe'].map(
        (d) => `/landers/${d}`,
      ),
    ];

const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH ?? chromiumPath,
  chromeFlags: ['--headless=new', ...chromiumArgs.filter((a) => a !== '--headless')],
});
let failed = false;
const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
const tab = (await browser.pages())[0] ?? (await browser.newPage());
const cdp = await tab.createCDPSession();
for (const pair of cookie.split('; ')) {
  const at = pair.indexOf('=');
  await cdp.send('Network.setCookie', { name: pair.slice(0, at), value: pair.slice(at + 1), url: base });
}
try {
  console.log(`${'page'.padEnd(40)} perf  a11y  CLS     LCP      TBT       BI`);
  for (const path of paths) {
    const measured = [];
    // A run Lighthouse itself could not finish (NO_NAVSTART, a lost trace: Chromium under load)
    // is tried again, twice at most per page; a page that ends elsewhere is not.
    let retries = 2;
    for (let run = 0; run < runs; run++) {
      await cdp.send('Network.clearBrowserCache');
      const result = await lighthouse(`${base}${path}`, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility'],
        disableStorageReset: true,
      });
      const { categories, audits } = result.lhr;
      const ended = new URL(result.lhr.finalDisplayedUrl);
      const error = result.lhr.runtimeError?.code;
      if (error && retries > 0) {
        retries--;
        run--;
        console.log(`${path.padEnd(40)} run again: ${error}`);
        continue;
      }
      if (`${ended.pathname}${ended.search}` !== path || error || audits['largest-contentful-paint'].numericValue === undefined) {
        const why =
          error ?? (`${ended.pathname}${ended.search}` !== path ? `ended at ${ended.pathname}${ended.search} (a member page needs --cookie)` : 'no figures');
        console.log(`${path.padEnd(40)} not measured: ${why}`);
        failed = true;
        break;
      }
      measured.push({
        perf: Math.round(categories.performance.score * 100),
        a11y: Math.round(categories.accessibility.score * 100),
        cls: audits['cumulative-layout-shift'].numericValue,
        lcp: audits['largest-contentful-paint'].numericValue,
        tbt: audits['total-blocking-time'].numericValue,
        bi: result.lhr.environment.benchmarkIndex,
      });
    }
    if (!measured.length) continue;
    measured.sort((a, b) => a.perf - b.perf);
    const { perf, a11y, cls, lcp, tbt, bi } = measured[Math.floor(measured.length / 2)];
    const ok = perf >= 95 && a11y >= 95 && cls <= 0.05 && tbt <= mainThreadMs;
    failed ||= !ok;
    console.log(
      `${path.padEnd(40)} ${String(perf).padStart(4)}  ${String(a11y).padStart(4)}  ${cls.toFixed(3)}  ${(lcp / 1000).toFixed(1).padStart(4)} s  ${String(Math.round(tbt)).padStart(4)} ms  ${String(Math.round(bi)).padStart(5)}  ${ok ? 'ok' : 'UNDER'}`,
    );
  }
} finally {
  await browser.disconnect();
  await chrome.kill();
}
process.exit(failed ? 1 : 0);
