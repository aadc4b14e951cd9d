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
    await group.getByRole('radio', { name: 'Bancontact' }).click();
    await expect(group.getByRole('radio', { name: 'Bancontact' })).toHaveAttribute('aria-checked', 'true');
    await expect(chosen).toHaveText('Gekozen betaalmethode: Bancontact');
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
    await page.keyboard.press('ArrowRight');
    const second = radios.nth(1);
    await expect(second).toBeFocused();
    await expect(second).toHaveAttribute('aria-checked', 'true');
    const secondName = (await second.locator('.vw-pmb__label').textContent())?.trim();
    await expect(page.getByTestId('chosen-method')).toHaveText(`Gekozen betaalmethode: ${secondName}`);
  });

  test('payment methods are filtered by the visitor country', async ({ page }) => {
    await page.goto('/pricing');
    const group = page.getByRole('radiogroup', { name: 'Kies je betaalmethode' });
    await expect(group).toBeVisible({ timeout: 15_000 });
    // The demo site serves Belgium: Bancontact yes, Polish BLIK no.
    await expect(group.getByRole('radio', { name: 'Bancontact' })).toBeVisible();
    await expect(group.getByRole('radio', { name: 'BLIK' })).toHaveCount(0);
  });
});
