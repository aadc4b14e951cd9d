// Debian's Chromium as every tool here starts it (Playwright, the widget screenshots,
// Lighthouse): no browser is downloaded, and nothing it does reaches out on its own.
export const chromiumPath = process.env.CHROMIUM_PATH ?? process.env.CHROMIUM ?? '/usr/bin/chromium';
export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
