// Measures `make dev`'s loop as a developer lives it: with `make dev` serving, a page open in
// Chromium, one edit saved, how long until the page has reloaded itself and shows the change.
// The edit is undone afterwards (and timed the same way).
// Usage: node scripts/dev-loop-time.mjs FILE FROM TO PATH EXPECT
//   FILE: the source to edit; FROM → TO: the text replaced (once); PATH: the page to watch
//   (`/`); EXPECT: text the page shows only with the edit.  (VONK_ADDR as for `make dev`.)
import { readFileSync, writeFileSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { chromiumArgs, chromiumPath } from './chromium.mjs';

const [file, from, to, path, expect] = process.argv.slice(2);
if (!expect) {
  console.error('usage: node scripts/dev-loop-time.mjs FILE FROM TO PATH EXPECT');
  process.exit(2);
}
const base = `http://${process.env.VONK_ADDR ?? '127.0.0.1:3000'}`;
const original = readFileSync(file, 'utf8');
if (!original.includes(from)) {
  console.error(`${file} does not contain ${JSON.stringify(from)}`);
  process.exit(2);
}

const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
const page = await browser.newPage();
await page.goto(base + path);

/** Saves `text` into the file, then waits for the page to reload and show (or not) EXPECT. */
async function edit(text, shows) {
  const loads = page.waitForEvent('load', { timeout: 600_000 });
  const started = Date.now();
  writeFileSync(file, text);
  await loads;
  await page.waitForFunction(([e, s]) => document.body.innerText.includes(e) === s, [expect, shows], { timeout: 600_000 });
  return (Date.now() - started) / 1000;
}

try {
  const there = await edit(original.replace(from, to), true);
  const back = await edit(original, false);
  console.log(`${file}: the edit in the browser after ${there.toFixed(1)} s, undone after ${back.toFixed(1)} s`);
} finally {
  writeFileSync(file, original);
  await browser.close();
}
