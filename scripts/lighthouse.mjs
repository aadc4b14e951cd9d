// Lighthouse's mobile audit (its default throttling: a mid-range phone on slow 4G) of the pages a
// visitor lands on, against a running server (`make run BUILD=release`, or the release binary):
//
//   node scripts/lighthouse.mjs [--url http://127.0.0.1:3000] [--cookie 'session=…'] [path …]
//
// Prints performance, accessibility, CLS, LCP and total blocking time per page and exits non-zero
// when a page is under 95 / 95 or over CLS 0.05. Chromium comes from Debian (/usr/bin/chromium);
// nothing is downloaded. With --cookie (a member's session) the member pages can be measured too.
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  if (at < 0) return fallback;
  const [, value] = args.splice(at, 2);
  return value;
};
const base = option('--url', process.env.VONK_URL ?? 'http://127.0.0.1:3000');
const cookie = ['entry_accepted=1', option('--cookie', '')].filter(Boolean).join('; ');
const paths = args.length
  ? args
  : [
      '/',
      '/members',
      '/signup',
      ...['alonetonight', 'collagelanding', 'gallery', 'iconslanding', 'maplanding', 'socialnetwork', 'transitionsvideolanding', 'video', 'tinderswipe'].map((d) => `/landers/${d}`),
    ];

const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
let failed = false;
try {
  console.log(`${'page'.padEnd(40)} perf  a11y  CLS     LCP      TBT`);
  for (const path of paths) {
    const result = await lighthouse(`${base}${path}`, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility'],
      extraHeaders: { Cookie: cookie },
    });
    const { categories, audits } = result.lhr;
    const perf = Math.round(categories.performance.score * 100);
    const a11y = Math.round(categories.accessibility.score * 100);
    const cls = audits['cumulative-layout-shift'].numericValue;
    const lcp = audits['largest-contentful-paint'].numericValue;
    const tbt = audits['total-blocking-time'].numericValue;
    const ok = perf >= 95 && a11y >= 95 && cls <= 0.05;
    failed ||= !ok;
    console.log(`${path.padEnd(40)} ${String(perf).padStart(4)}  ${String(a11y).padStart(4)}  ${cls.toFixed(3)}  ${(lcp / 1000).toFixed(1).padStart(4)} s  ${String(Math.round(tbt)).padStart(4)} ms  ${ok ? 'ok' : 'UNDER'}`);
  }
} finally {
  await chrome.kill();
}
process.exit(failed ? 1 : 0);
