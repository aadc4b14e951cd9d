import { expect } from '@playwright/test';
import { test } from './helpers';
import { acceptEntry } from './helpers';

const pages = [
  { path: '/', heading: 'Ontmoet iemand die dezelfde vonk voelt' },
  { path: '/pricing', heading: 'Credits en prijzen' },
  { path: '/lang-config', heading: 'Kies je taal' },
  { path: '/pages/terms', heading: 'Algemene voorwaarden' },
  { path: '/pages/privacy', heading: 'Privacyverklaring' },
  { path: '/pages/cookies', heading: 'Cookiebeleid' },
  { path: '/pages/ban', heading: 'Blokkeringsbeleid' },
  { path: '/pages/return-policy', heading: 'Retourbeleid' },
  { path: '/pages/faq', heading: 'Veelgestelde vragen' },
  { path: '/pages/service', heading: 'Klantenservice' },
  { path: '/complaints', heading: 'Klachten' },
];

test.describe('site shell', () => {
  test('every shell page renders in the default layout', async ({ page, context, baseURL }) => {
    await acceptEntry(context, baseURL!);
    for (const { path, heading } of pages) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(200);
      await expect(page.locator('.layout--default'), path).toBeVisible();
      await expect(page.locator('header.topbar .logo'), path).toBeVisible();
      await expect(page.getByRole('heading', { level: 1 }), path).toHaveText(heading);
      await expect(page.locator('footer.footer a[href="/pages/terms"]'), path).toBeVisible();
      await expect(page, path).toHaveTitle(/\| Vonk$/);
      // Nothing may stick out sideways, at 375 px nor at 1280 px.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, `${path} scrolls sideways`).toBeLessThanOrEqual(0);
    }
  });

  test('the entry warning shows until accepted and stays accepted', async ({ page, context }) => {
    await page.goto('/pages/faq');
    const dialog = page.getByRole('dialog', { name: 'Alleen voor volwassenen' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Ik ben 18 of ouder, ga verder' }).click();
    await expect(page).toHaveURL(/\/pages\/faq$/);
    await expect(page.getByRole('dialog')).toHaveCount(0);
    const cookies = await context.cookies();
    const entry = cookies.find((c) => c.name === 'entry_accepted');
    expect(entry?.value).toBe('1');
    expect(entry?.httpOnly).toBe(true);
    await page.goto('/');
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });

  test('unknown pages show the 404 page with a way home', async ({ page, context, baseURL }) => {
    await acceptEntry(context, baseURL!);
    const response = await page.goto('/no/such/page');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Deze pagina kon niet worden gevonden');
    await page.getByRole('link', { name: 'Terug naar de startpagina' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Ontmoet iemand die dezelfde vonk voelt');
  });

  test('switching language sets the cookie and translates the page', async ({ page, context, baseURL }) => {
    await acceptEntry(context, baseURL!);
    // A visitor from Belgium is offered Dutch, French and German (SPEC §9).
    await page.setExtraHTTPHeaders({ 'CF-IPCountry': 'BE' });
    await page.goto('/pages/faq');
    await page.locator('.lang-switcher summary').click();
    await page.getByRole('button', { name: 'Français' }).click();
    await expect(page).toHaveURL(/\/pages\/faq$/);
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Questions fréquentes');
    const lang = (await context.cookies()).find((c) => c.name === 'i18n_redirected');
    expect(lang?.value).toBe('fr');
    expect(lang && lang.expires - Date.now() / 1000).toBeGreaterThan(360 * 86400);

    // Any language from /lang-config, and it sticks across pages.
    await page.goto('/lang-config');
    await page.locator('button[data-lang="pl"]').click();
    await expect(page.locator('html')).toHaveAttribute('lang', 'pl');
    await page.goto('/pricing');
    await expect(page.locator('html')).toHaveAttribute('lang', 'pl');
  });
});
