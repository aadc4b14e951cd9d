// Screenshots of built Storybook stories, to look at the widgets as a visitor would.
//
//   npm run build:storybook
//   node react-widgets/scripts/screenshots.mjs [story-ids,comma-separated] [widths] [out-dir]
//   e.g. node react-widgets/scripts/screenshots.mjs widgets-paymentmethodblocks--netherlands 375,1280 /tmp/shots
//
// Serves storybook-static on 127.0.0.1 (random port) from this process and uses @playwright/test's
// Chromium API with the system Chromium (/usr/bin/chromium, Debian's `chromium` package); no
// browser is downloaded. The server and the browser stop when the script ends.
import { mkdir, readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { chromiumArgs, chromiumPath } from '../../scripts/chromium.mjs';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';

const root = fileURLToPath(new URL('../../storybook-static/', import.meta.url));
const ids = (process.argv[2] ?? 'widgets-paymentmethodblocks--netherlands').split(',');
const widths = (process.argv[3] ?? '375,1280').split(',').map(Number);
const out = process.argv[4] ?? '/tmp/vonk-widget-shots';
const executablePath = chromiumPath;

const types = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
};

const server = createServer(async (req, res) => {
  const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(/^(\.\.[/\\])+|^\/+/, '');
  try {
    const body = await readFile(join(root, path || 'index.html'));
    res.writeHead(200, { 'content-type': types[extname(path)] ?? 'application/octet-stream' });
    res.end(body);
  } catch {
    res.writeHead(404);
    res.end();
  }
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
const address = server.address();
const port = typeof address === 'object' && address ? address.port : 0;

await mkdir(out, { recursive: true });
const browser = await chromium.launch({
  executablePath,
  args: chromiumArgs,
});
try {
  for (const width of widths) {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    for (const id of ids) {
      await page.goto(`http://127.0.0.1:${port}/iframe.html?id=${id}&viewMode=story`);
      await page.waitForSelector('#storybook-root > *', { timeout: 15_000 });
      // Let play functions and transitions finish.
      await page.waitForTimeout(1_000);
      const file = join(out, `${id}-${width}.png`);
      await page.screenshot({ path: file, fullPage: true });
      console.log(file);
    }
    await page.close();
  }
} finally {
  await browser.close();
  server.close();
}
