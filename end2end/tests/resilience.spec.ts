import { expect } from '@playwright/test';
import { test, acceptEntry, activate, member } from './helpers';

test.beforeEach(async ({ context, baseURL }) => {
  await acceptEntry(context, baseURL!);
});

test('a wasm that fails to load reloads the page once, and not in a loop', async ({ page }) => {
  let loads = 0;
  page.on('load', () => { loads += 1; });
  let wasmRequests = 0;
  await page.route(/\.wasm(\?|$)/, async (route) => {
    wasmRequests += 1;
    // The first load fails (a deploy replaced the file, the network dropped); the reload works.
    if (wasmRequests === 1) await route.abort('failed');
    else await route.continue();
  });
  await page.goto('/pages/terms');
  await expect.poll(() => page.evaluate(() => (window as unknown as { vonkLoaded?: boolean }).vonkLoaded === true), { timeout: 15_000 }).toBe(true);
  expect(loads).toBe(2);

  // Broken for good: one more reload, then the page stays as it is.
  await page.route(/\.wasm(\?|$)/, (route) => route.abort('failed'));
  await page.evaluate(() => sessionStorage.clear());
  await page.goto('/pages/faq');
  await page.waitForTimeout(3_000);
  const before = loads;
  await page.waitForTimeout(3_000);
  expect(loads).toBe(before);
  await expect(page.locator('main')).toBeVisible();
});

test('a slow next page shows the loading bar until it arrives', async ({ page }) => {
  await page.goto('/pages/terms');
  await page.route('**/pages/privacy', async (route) => {
    await new Promise((r) => setTimeout(r, 1_500));
    await route.continue();
  });
  await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy' }).first().click();
  await expect(page.locator('.loading-bar')).toBeAttached();
  await expect(page).toHaveURL(/\/pages\/privacy$/);
  await expect(page.locator('.loading-bar')).toHaveCount(0);
});

test('the installed app has a back button on a member screen', async ({ page, context }, testInfo) => {
  const email = `back-${testInfo.project.name}@example.nl`;
  await member(page, email);
  await activate(page, email);
  await page.goto('/members');
  const first = page.getByTestId('results').locator('a[href^="/members/"]').first();
  const href = await first.getAttribute('href');
  // In a browser tab there is the browser's own back button.
  await page.goto(href!);
  await expect(page.locator('a[data-app-back]')).toBeHidden();
  // Installed (display-mode: standalone): ours shows, and goes back.
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setEmulatedMedia', { features: [{ name: 'display-mode', value: 'standalone' }] });
  await page.goto('/members');
  await page.goto(href!);
  const back = page.locator('a[data-app-back]');
  await expect(back).toBeVisible();
  await expect(back).toHaveAccessibleName('Terug');
  await back.click();
  await expect(page).toHaveURL(/\/members$/);
});
