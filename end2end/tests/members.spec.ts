import { expect } from '@playwright/test';
import { test } from './helpers';
import { member } from './helpers';

test.beforeEach(async ({ context, baseURL }) => {
  await context.addCookies([{ name: 'entry_accepted', value: '1', url: baseURL! }]);
});

test('search with filters keeps them in the URL and pages through results', async ({ page }) => {
  await page.goto('/members');
  const filters = page.getByTestId('search-filters');
  await filters.getByRole('combobox', { name: 'Ik zoek', exact: true }).selectOption('female');
  await filters.getByRole('combobox', { name: 'Land', exact: true }).selectOption('NL');
  await filters.getByRole('spinbutton', { name: 'Van', exact: true }).fill('25');
  await filters.getByRole('spinbutton', { name: 'Tot en met', exact: true }).fill('45');
  await filters.getByRole('button', { name: 'Zoeken' }).click();
  await expect(page).toHaveURL(/gender=female/);
  await expect(page).toHaveURL(/country=NL/);
  await expect(page).toHaveURL(/min_age=25&max_age=45/);
  const cards = page.getByTestId('results').locator('.member-card__link');
  await expect(cards).toHaveCount(24);
  // Every card's age lies inside the range.
  for (const text of await cards.locator('.member-card__age').allTextContents()) {
    const age = Number(text.replace(/\D/g, ''));
    expect(age).toBeGreaterThanOrEqual(25);
    expect(age).toBeLessThanOrEqual(45);
  }
  const first = await cards.first().getAttribute('href');
  await page.getByTestId('next-page').click();
  await expect(page).toHaveURL(/page=2/);
  await expect(page.getByTestId('search-filters').getByRole('combobox', { name: 'Ik zoek', exact: true })).toHaveValue('female');
  expect(await page.getByTestId('results').locator('.member-card__link').first().getAttribute('href')).not.toBe(first);
  // The grid does not scroll sideways at this width.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});

test('a narrow search offers similar profiles', async ({ page }) => {
  await page.goto('/members?gender=male&country=NL&region=NL-FL&min_age=60&max_age=62');
  await expect(page.getByTestId('similar').locator('.member-card__link').first()).toBeVisible();
});

test('a member opens a profile, blocks it and no longer finds it', async ({ page }, testInfo) => {
  await member(page, `blokkeer-${testInfo.project.name}@example.nl`);
  await page.goto('/members?gender=male');
  // A demo (operator-run) profile: other flows add real members who may come first.
  const card = page
    .getByTestId('results')
    .locator('.member-card__link')
    .filter({ has: page.locator('.member-card__fictional') })
    .first();
  const href = (await card.getAttribute('href'))!;
  const name = (await card.locator('.member-card__name').textContent())!.split(',')[0];
  await card.click();
  await expect(page).toHaveURL(new RegExp(`${href}$`));
  await expect(page.getByTestId('member-profile').getByRole('heading', { level: 1 })).toContainText(name);
  await expect(page.getByTestId('fictional-warning')).toBeVisible();
  await page.getByTestId('block-toggle').click();
  await expect(page.getByTestId('saved')).toContainText(`Je hebt ${name} geblokkeerd`);
  await expect(page.getByTestId('block-toggle')).toHaveText('Deblokkeren');

  await page.goto('/members?gender=male');
  await expect(page.getByTestId('results').locator(`a[href="${href}"]`)).toHaveCount(0);
  // Unblocked, the profile comes back.
  await page.goto(href);
  await page.getByTestId('block-toggle').click();
  await expect(page.getByTestId('saved')).toContainText('gedeblokkeerd');
  await page.goto('/members?gender=male');
  await expect(page.getByTestId('results').locator(`a[href="${href}"]`)).toHaveCount(1);
});

test("the site's files come versioned, precompressed and cached for a year", async ({ page }) => {
  await page.goto('/');
  const css = await page.locator('link[rel="stylesheet"]').first().getAttribute('href');
  const wasm = await page.locator('link[rel="preload"][as="fetch"]').getAttribute('href');
  expect(css).toMatch(/^\/assets\/[0-9a-f]{16}\/pkg\/vonk\.css$/);
  expect(wasm).toMatch(/^\/assets\/[0-9a-f]{16}\/pkg\/vonk\.wasm$/);
  for (const [href, type] of [
    [css!, 'text/css'],
    [wasm!, 'application/wasm'],
  ]) {
    const res = await page.request.get(href, { headers: { 'accept-encoding': 'br' } });
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toContain(type);
    expect(res.headers()['content-encoding']).toBe('br');
    expect(res.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  }
  // Another version of the same file is not served under a year-long lifetime.
  const stale = await page.request.get(css!.replace(/\/assets\/[0-9a-f]{16}\//, '/assets/0000000000000000/'));
  expect(stale.status()).toBe(404);
  // The stylesheet reached the page: the grid of the home page is styled.
  expect(await page.evaluate(() => getComputedStyle(document.body).margin)).toBe('0px');
});
