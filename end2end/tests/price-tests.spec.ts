import { chromium, expect } from '@playwright/test';
import { test, axeClean, member, pageOn, staffOn, startSites } from './helpers';
import { chromiumArgs, chromiumPath } from '../../scripts/chromium.mjs';

// A new site of the company (the first site's prices stay as they are): staff test the
// 60-credit bundle at two prices; a member on a phone is shown one of them on /credits and
// /pricing, keeps it, and pays it; the test's card counts the member and the buyer under it.
test("finance test a bundle's price and a member pays the price they were shown", async ({ browser, baseURL }, testInfo) => {
  test.skip(testInfo.project.name !== 'desktop', 'one run, staff at 1280 px and the member at 375 px');
  const run = `${Date.now()}`;
  const port = new URL(baseURL!).port;
  const domain = `prijs-${run}.vonk-test.nl`;
  const origin = `http://${domain}:${port}`;
  await startSites(browser, baseURL!, `prijs-boss-${run}@example.nl`, [[domain, `Prijs ${run}`]]);

  const other = await chromium.launch({ executablePath: chromiumPath, args: [...chromiumArgs, `--host-resolver-rules=MAP ${domain} 127.0.0.1`] });
  try {
    const staff = await staffOn(other, origin, `prijs-staff-${run}@example.nl`);
    await staff.goto('/staff/figures/tests');
    await expect(staff.getByRole('heading', { level: 1 })).toHaveText('Splittests van landers en prijzen');
    const form = staff.getByTestId('form-price-test');
    await form.getByLabel('Naam van de test').fill('duurder');
    const bundle = await form.locator('option', { hasText: '60 credits · € 19,95 · alle landen' }).getAttribute('value');
    await form.getByRole('combobox', { name: 'Bundel' }).selectOption(bundle!);
    await form.getByRole('group', { name: 'Prijs 1' }).getByLabel('Prijs').fill('20,00');
    await form.getByRole('group', { name: 'Prijs 2' }).getByLabel('Prijs').fill('30,00');
    await form.getByRole('button', { name: 'Prijstest starten' }).click();
    await expect(staff).toHaveURL(/started=1/);
    const card = staff.getByTestId('split-test').filter({ hasText: 'duurder' });
    await expect(card.getByTestId('variant')).toHaveCount(2);
    await expect(card).toContainText('Bundel: 60 credits · € 19,95 · alle landen');
    await expect(card.getByRole('columnheader', { name: 'Omzet per lid' })).toBeVisible();
    await expect(card.getByTestId('no-winner')).toBeVisible();
    await axeClean(staff);

    // A member on a phone sees one of the two prices (the new member's 25 % time bonus off it),
    // the same after a reload and on /pricing.
    const anna = await pageOn(other, origin, true);
    await member(anna, `prijs-anna-${run}@example.nl`, { name: 'Anna', gender: 'Vrouw' });
    await anna.goto('/credits');
    const sixty = anna.getByTestId('pack').filter({ hasText: '60 credits' });
    await expect(sixty).toContainText(/Normaal € (20|30),00/);
    const normal = (await sixty.textContent())!.includes('Normaal € 20,00') ? '€ 20,00' : '€ 30,00';
    const paying = normal === '€ 20,00' ? '€ 15,00' : '€ 22,50';
    await expect(sixty.getByTestId('pack-price')).toHaveText(paying);
    await anna.reload();
    await expect(sixty).toContainText(`Normaal ${normal}`);
    await expect.poll(() => anna.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await axeClean(anna);
    await anna.goto('/pricing');
    await expect(anna.getByTestId('packs')).toContainText(normal);
    await expect(anna.getByTestId('packs')).not.toContainText(normal === '€ 20,00' ? '€ 30,00' : '€ 20,00');

    // She pays her price.
    await anna.goto('/credits');
    await sixty.click();
    await expect(anna).toHaveURL(/\/credits\/\d+$/);
    const methods = anna.getByRole('radiogroup', { name: 'Kies je betaalmethode' });
    await expect(methods).toBeVisible({ timeout: 15_000 });
    await methods.getByRole('radio', { name: 'iDEAL', exact: true }).click();
    await expect(anna).toHaveURL(/\/checkout\/test\/tst_/, { timeout: 15_000 });
    await expect(anna.getByTestId('testpay-amount')).toHaveText(paying);
    // The provider's page sends her back to the site's own https address, which this machine
    // serves over http on its port (and the page's form-action allows only itself): the same
    // choice sent from her session, then its answer's address opened over http.
    const id = new URL(anna.url()).pathname.split('/').pop()!;
    const back: string = await anna.evaluate(async (id) => {
      const answer = await fetch('/api/fn/test_checkout_outcome', {
        method: 'POST',
        body: new URLSearchParams({ id, outcome: 'paid' }),
        headers: { Accept: 'application/json' },
        redirect: 'manual',
      });
      return answer.type === 'opaqueredirect' ? 'a redirect' : JSON.parse(await answer.text());
    }, id);
    expect(back).toMatch(new RegExp(`^https://${domain.replace(/\./g, '\\.')}/transactions/\\d+$`));
    await anna.goto(back.replace(`https://${domain}`, origin));
    await expect(anna.getByTestId('result')).toHaveAttribute('data-status', 'paid', { timeout: 15_000 });

    // The card counts her under her price: one member shown it, one buyer.
    const row = card.getByTestId('variant').filter({ hasText: normal });
    await expect
      .poll(async () => {
        await staff.reload();
        return [await row.getByTestId('variant-visits').textContent(), await row.getByTestId('variant-buyers').textContent()];
      })
      .toEqual(['1', '1']);
    await staff.setViewportSize({ width: 375, height: 800 });
    await expect.poll(() => staff.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await staff.screenshot({ path: testInfo.outputPath('price-test-375.png'), fullPage: true });
    await axeClean(staff);
    await card.getByRole('button', { name: 'Test stoppen' }).click();
    await expect(staff).toHaveURL(/stopped=1/);
    await anna.goto('/credits');
    await expect(sixty.getByTestId('pack-price')).toHaveText('€ 19,95');
  } finally {
    await other.close();
  }
});
