import { expect } from '@playwright/test';
import { test, acceptEntry, axeClean, grantStaff, member, otherMember } from './helpers';

test.beforeEach(async ({ context, baseURL }) => {
  await acceptEntry(context, baseURL!);
});

// Support at 375 px answer a member who lost credits: the member file from the staff start page,
// a correction with its reason, sent twice by a double tap, booked once; the member sees it.
test('support on a phone correct a member’s credits once, with a reason', async ({ page, browser, baseURL }, testInfo) => {
  test.skip(testInfo.project.name !== 'desktop', 'one run: support at 375 px in a browser of their own');
  const run = Date.now();
  const anna = `hulp-lid-${run}@example.nl`;
  await member(page, anna, { name: 'Annemiek' });
  const before = Number((await page.getByTestId('credits').textContent())!.replace(/\D/g, ''));

  const supportEmail = `hulp-staf-${run}@example.nl`;
  const support = await otherMember(browser, baseURL!, supportEmail, { name: 'Sven', gender: 'Man' });
  await support.setViewportSize({ width: 375, height: 800 });
  // Before the role: the staff start page does not exist.
  expect((await support.goto('/staff'))?.status()).toBe(404);
  await grantStaff(support, supportEmail, 'support');

  await support.goto('/');
  await support.getByTestId('account-menu').locator('summary').click();
  await support.getByTestId('menu-staff').click();
  await expect(support.getByTestId('staff-roles')).toContainText('Klantenservice');
  await expect(support.locator('.staff-links').getByRole('link')).toHaveText(['Klachten en meldingen', 'Leden beheren', 'Uitnodigingen', 'Betalingen']);
  await support.locator('.staff-links').getByRole('link', { name: 'Leden beheren' }).click();
  await support.getByLabel('E-mailadres of lidnummer').fill(anna);
  await support.getByRole('button', { name: 'Zoeken' }).click();
  const file = support.getByTestId('staff-member');
  await expect(file).toContainText('Annemiek');
  await expect(file.getByRole('button', { name: /Rol geven/ })).toHaveCount(0);

  const form = support.getByTestId('form-credits');
  await form.getByLabel('Credits corrigeren (met een min ervoor: eraf)').fill('15');
  await form.getByLabel('Reden van de correctie').fill('Een bericht kwam niet aan');
  // A double tap: the second send of the same form books nothing more.
  await form.getByRole('button', { name: 'Credits corrigeren' }).dblclick();
  await expect(support).toHaveURL(/saved=1/);
  await expect(file).toContainText(`${before + 15}`);
  await expect.poll(() => support.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await axeClean(support);

  await page.reload();
  await expect(page.getByTestId('credits')).toContainText(`${before + 15}`);
  await support.context().close();
});
