import { expect } from '@playwright/test';
import { test } from './helpers';
import { acceptEntry } from './helpers';

test.describe('pricing', () => {
  test.beforeEach(async ({ context, baseURL }) => {
    await acceptEntry(context, baseURL!);
  });

  test('credit packs come from the database', async ({ page }) => {
    await page.goto('/pricing');
    const packs = page.getByTestId('packs').locator('li');
    await expect(packs).toHaveCount(4);
    await expect(packs.first()).toContainText('25 credits');
    await expect(packs.first()).toContainText('€ 9,95');
    await expect(page.locator('.pack--highlighted')).toContainText('Meest gekozen');
  });

  test('the hydrated widget answers a click', async ({ page }) => {
    await page.goto('/pricing');
    const group = page.getByRole('radiogroup', { name: 'Kies je betaalmethode' });
    await expect(group).toBeVisible({ timeout: 15_000 });
    const chosen = page.getByTestId('chosen-method');
    await expect(chosen).toHaveText('Kies een betaalmethode om die hier te zien.');
    await group.getByRole('radio', { name: 'iDEAL' }).click();
    await expect(group.getByRole('radio', { name: 'iDEAL' })).toHaveAttribute('aria-checked', 'true');
    await expect(chosen).toHaveText('Gekozen betaalmethode: iDEAL');
  });

  test('the hydrated widget answers the keyboard', async ({ page }) => {
    await page.goto('/pricing');
    const group = page.getByRole('radiogroup', { name: 'Kies je betaalmethode' });
    await expect(group).toBeVisible({ timeout: 15_000 });
    const radios = group.getByRole('radio');
    await radios.first().focus();
    await page.keyboard.press('Space');
    const firstName = (await radios.first().locator('.vw-pmb__label').textContent())?.trim();
    await expect(page.getByTestId('chosen-method')).toHaveText(`Gekozen betaalmethode: ${firstName}`);
    // An arrow only moves the focus: the choice stays until Enter.
    await page.keyboard.press('ArrowRight');
    const second = radios.nth(1);
    await expect(second).toBeFocused();
    await expect(second).toHaveAttribute('aria-checked', 'false');
    await expect(page.getByTestId('chosen-method')).toHaveText(`Gekozen betaalmethode: ${firstName}`);
    await page.keyboard.press('Enter');
    await expect(second).toHaveAttribute('aria-checked', 'true');
    const secondName = (await second.locator('.vw-pmb__label').textContent())?.trim();
    await expect(page.getByTestId('chosen-method')).toHaveText(`Gekozen betaalmethode: ${secondName}`);
  });

  test('payment methods are filtered by the visitor country', async ({ page }) => {
    await page.goto('/pricing');
    const group = page.getByRole('radiogroup', { name: 'Kies je betaalmethode' });
    await expect(group).toBeVisible({ timeout: 15_000 });
    // No country known: the Dutch site's own, the Netherlands: iDEAL, no Bancontact, no BLIK.
    await expect(group.getByRole('radio', { name: 'iDEAL' })).toBeVisible();
    await expect(group.getByRole('radio', { name: 'Bancontact' })).toHaveCount(0);
    await expect(group.getByRole('radio', { name: 'BLIK' })).toHaveCount(0);
  });

  test('a visitor from Belgium gets Belgian methods and languages', async ({ page }) => {
    await page.setExtraHTTPHeaders({ 'CF-IPCountry': 'BE' });
    await page.goto('/pricing');
    const group = page.getByRole('radiogroup', { name: 'Kies je betaalmethode' });
    await expect(group).toBeVisible({ timeout: 15_000 });
    await expect(group.getByRole('radio', { name: 'Bancontact' })).toBeVisible();
    await expect(group.getByRole('radio', { name: 'iDEAL' })).toHaveCount(0);
    // SPEC §9: Belgium's languages are Dutch, French and German; the Netherlands' only Dutch.
    await page.goto('/lang-config');
    await expect(page.locator('.lang-grid').first().locator('[data-lang]')).toHaveText([/Nederlands/, /Français/, /Deutsch/]);
    await page.setExtraHTTPHeaders({});
    await page.goto('/lang-config');
    await expect(page.locator('.lang-grid').first().locator('[data-lang]')).toHaveText([/Nederlands/]);
  });
});
