import { expect } from '@playwright/test';
import { test, acceptEntry, activate, member, signupFormReady } from './helpers';

test.beforeEach(async ({ context, baseURL }) => {
  await acceptEntry(context, baseURL!);
});

test('a wasm that fails to load reloads the page once, and not in a loop', async ({ page }) => {
  let loads = 0;
  page.on('load', () => {
    loads += 1;
  });
  let wasmRequests = 0;
  await page.route(/\.wasm(\?|$)/, async (route) => {
    wasmRequests += 1;
    // The first load fails (a deploy replaced the file, the network dropped); the reload works.
    if (wasmRequests === 1) await route.abort('failed');
    else await route.continue();
  });
  await page.goto('/pages/terms');
  // The page reloads itself once; the second time the app loads.
  await expect.poll(() => loads, { timeout: 15_000 }).toBe(2);
  await page.waitForLoadState('load');
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { vonkLoaded?: boolean }).vonkLoaded === true).catch(() => false), { timeout: 15_000 })
    .toBe(true);
  expect(loads).toBe(2);

  // Broken for good: one more reload, then the page stays as it is.
  await page.route(/\.wasm(\?|$)/, (route) => route.abort('failed'));
  await page.evaluate(() => sessionStorage.clear());
  await page.goto('/pages/faq');
  await expect.poll(() => loads, { timeout: 15_000 }).toBe(4);
  // The page decides to stay (no reload within 60 s of the last), and says so.
  await expect(page.locator('html[data-reload-held]')).toHaveCount(1, { timeout: 15_000 });
  expect(loads).toBe(4);
  await expect(page.locator('main')).toBeVisible();
});

test('a page-specific module that fails to load after the page did reloads the page once', async ({ page }) => {
  // The signup form is a module of its own, fetched when the visitor steps into the form. A deploy
  // in between (the old versioned file is gone) or a dropped connection makes that fetch fail,
  // which stops the wasm; the page reloads once and the form then works.
  let loads = 0;
  page.on('load', () => {
    loads += 1;
  });
  let moduleRequests = 0;
  await page.route(/\/(split|chunk)_[^/]*\.wasm(\?|$)/, async (route) => {
    moduleRequests += 1;
    if (moduleRequests === 1) await route.abort('failed');
    else await route.continue();
  });
  await page.goto('/signup');
  // The form's module is fetched when the visitor steps into the form.
  await page.waitForFunction(() => (window as unknown as { vonkLoaded?: boolean }).vonkLoaded === true);
  await page.getByLabel('E-mailadres').focus();
  await expect.poll(() => loads, { timeout: 15_000 }).toBe(2);
  await signupFormReady(page);
  expect(moduleRequests).toBeGreaterThan(1);
  expect(loads).toBe(2);
});

test('a slow next page shows the loading bar until it arrives', async ({ page }) => {
  await page.goto('/pages/terms');
  await page.route('**/pages/privacy', async (route) => {
    await new Promise((r) => setTimeout(r, 1_500));
    await route.continue();
  });
  // Clicked from the page itself (Playwright's click would wait for the next page): the bar is
  // there from 200 ms on while the next page is on its way.
  const bars = await page.evaluate(async () => {
    (document.querySelector('footer a[href="/pages/privacy"]') as HTMLAnchorElement).click();
    const seen: number[] = [];
    for (let i = 0; i < 6; i++) {
      await new Promise((r) => setTimeout(r, 100));
      seen.push(document.querySelectorAll('.loading-bar').length);
    }
    return seen;
  });
  expect(bars[0]).toBe(0);
  expect(bars.slice(2)).toEqual([1, 1, 1, 1]);
  await expect(page).toHaveURL(/\/pages\/privacy$/);
  await expect(page.locator('.loading-bar')).toHaveCount(0);
});

test('the installed app has a back button on a member screen', async ({ page }, testInfo) => {
  const email = `back-${testInfo.project.name}@example.nl`;
  await member(page, email);
  await activate(page, email);
  await page.goto('/members');
  const first = page.getByTestId('results').locator('a[href^="/members/"]').first();
  const href = await first.getAttribute('href');
  // In a browser tab there is the browser's own back button.
  await page.goto(href!);
  await expect(page.locator('a[data-app-back]')).toBeHidden();
  // Installed (display-mode: standalone, which this Chromium cannot emulate, so the page is told
  // so the way an installed app's page would find it): ours shows, and goes back.
  await page.addInitScript(() => {
    const real = window.matchMedia.bind(window);
    window.matchMedia = (q: string) => (q.includes('display-mode: standalone') ? ({ ...real(q), matches: true, media: q } as MediaQueryList) : real(q));
  });
  await page.goto('/members?gender=female');
  await page.getByTestId('results').locator('a[href^="/members/"]').first().click();
  await expect(page).toHaveURL(/\/members\/\d+$/);
  const back = page.locator('a[data-app-back]');
  await expect(back).toBeVisible();
  await expect(back).toHaveAccessibleName('Terug');
  // Back in history: to the search as it was, not merely to the list its link names.
  await back.click();
  await expect(page).toHaveURL(/\/members\?gender=female$/);
  // Opened straight (no page of ours before it): the link itself leads to the list.
  await page.goto(href!);
  await page.locator('a[data-app-back]').click();
  await expect(page).toHaveURL(/\/members$/);
});
