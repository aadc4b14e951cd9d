import { chromium, expect } from '@playwright/test';
import { test, axeClean, chatLive, member, pageOn, staffOn, startSites } from './helpers';
import { chromiumArgs, chromiumPath } from '../../scripts/chromium.mjs';

// A new site of the company (the first site asks nothing): its admin asks members in Germany
// and the Netherlands for an age check; a member on a phone cannot buy credits or chat until she
// passes one with the test provider (the chat's alert leads her to it), then can, and staff see
// the outcome in her file.
test('a member passes an age check before she can buy where the site asks for one', async ({ browser, baseURL }, testInfo) => {
  test.skip(testInfo.project.name !== 'desktop', 'one run, staff at 1280 px and the member at 375 px');
  const run = `${Date.now()}`;
  const port = new URL(baseURL!).port;
  const domain = `leeftijd-${run}.vonk-test.nl`;
  const origin = `http://${domain}:${port}`;
  const email = `leeftijd-anna-${run}@example.nl`;
  await startSites(browser, baseURL!, `leeftijd-boss-${run}@example.nl`, [[domain, `Leeftijd ${run}`]]);

  const other = await chromium.launch({ executablePath: chromiumPath, args: [...chromiumArgs, `--host-resolver-rules=MAP ${domain} 127.0.0.1`] });
  try {
    const staff = await staffOn(other, origin, `leeftijd-staff-${run}@example.nl`);
    await staff.goto('/staff/site#age');
    const form = staff.getByTestId('form-age');
    const countries = form.getByLabel('Leeftijdscontrole verplicht in (landcodes, * of leeg)');
    await countries.fill('de; <b>');
    await form.getByRole('button', { name: 'Opslaan' }).click();
    await expect(staff.getByRole('alert').filter({ hasText: 'Leeftijdscontrole verplicht in' }).first()).toBeVisible();
    await countries.fill('de, nl');
    await form.getByRole('button', { name: 'Opslaan' }).click();
    await expect(staff).toHaveURL(/saved=age/);
    await expect(countries).toHaveValue('DE,NL');
    await axeClean(staff);

    // Every page tells her; buying waits for the check.
    const anna = await pageOn(other, origin, true);
    await member(anna, email, { name: 'Anna', gender: 'Vrouw' });
    await anna.goto('/members');
    const alert = anna.getByTestId('age-alert');
    await expect(alert).toContainText('Op deze site moet je leeftijd bevestigd zijn');
    await axeClean(anna);
    await anna.goto('/credits');
    await anna.getByTestId('pack').filter({ hasText: '60 credits' }).click();
    const methods = anna.getByRole('radiogroup', { name: 'Kies je betaalmethode' });
    await expect(methods).toBeVisible({ timeout: 15_000 });
    await methods.getByRole('radio', { name: 'iDEAL', exact: true }).click();
    await expect(anna.getByTestId('checkout-status')).toContainText('Op deze site moet je eerst je leeftijd laten bevestigen', { timeout: 15_000 });
    await expect(anna).toHaveURL(/\/credits\/\d+/);

    // Chatting waits too: the chat's alert says why and leads to the check.
    const bobEmail = `leeftijd-bob-${run}@example.nl`;
    const bob = await pageOn(other, origin, false);
    await member(bob, bobEmail, { name: 'Bob', gender: 'Man' });
    await staff.goto(`/staff/members?q=${encodeURIComponent(bobEmail)}`);
    const bobId = /\(#(\d+)\)/.exec((await staff.getByRole('heading', { name: /^Bob \(#\d+\)$/ }).textContent())!)![1];
    await anna.goto(`/members/${bobId}/chat`);
    await chatLive(anna);
    await anna.getByRole('textbox', { name: 'Bericht' }).fill('Hoi Bob!');
    await anna.getByRole('button', { name: 'Versturen' }).click();
    const chatAlert = anna.getByTestId('chat-alert');
    await expect(chatAlert).toContainText('Op deze site moet je eerst je leeftijd laten bevestigen', { timeout: 15_000 });
    // Nothing went out; her text is back in the box, not a failed message to retry.
    await expect(anna.getByRole('textbox', { name: 'Bericht' })).toHaveValue('Hoi Bob!');
    await expect(anna.getByTestId('chat-panel').getByText('Niet verstuurd')).toHaveCount(0);
    await axeClean(anna);
    await chatAlert.getByRole('link', { name: 'Leeftijd bevestigen' }).click();
    await expect(anna).toHaveURL(/\/age-check$/);
    await anna.goto('/credits');

    // The check: her page, the provider's page, and back.
    await alert.getByRole('link', { name: 'Leeftijd bevestigen' }).click();
    await expect(anna).toHaveURL(/\/age-check$/);
    const status = anna.getByTestId('age-status');
    await expect(status).toContainText('nooit je identiteitsbewijs');
    await expect(anna.getByTestId('age-alert')).toHaveCount(0);
    await expect.poll(() => anna.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await axeClean(anna);
    await status.getByRole('button', { name: 'Leeftijd bevestigen' }).click();
    await expect(anna).toHaveURL(/\/age-check\/test\/tage_/);
    await expect(anna.getByRole('button', { name: '18 jaar of ouder' })).toBeVisible();
    await axeClean(anna);
    // The provider sends her back to the site's own https address, which this machine serves
    // over http on its port: the same answer sent from her session, then its address over http.
    const id = new URL(anna.url()).pathname.split('/').pop()!;
    const back: string = await anna.evaluate(async (id) => {
      const answer = await fetch('/api/fn/test_age_check_outcome', {
        method: 'POST',
        body: new URLSearchParams({ id, adult: 'true' }),
        headers: { Accept: 'application/json' },
        redirect: 'manual',
      });
      return answer.type === 'opaqueredirect' ? 'a redirect' : JSON.parse(await answer.text());
    }, id);
    expect(back).toMatch(new RegExp(`^https://${domain.replace(/\./g, '\\.')}/age-check\\?check=\\d+$`));
    await anna.goto(back.replace(`https://${domain}`, origin));
    await expect(status).toContainText('Je leeftijd is bevestigd');
    await expect(status.getByText('Leeftijd bevestigd', { exact: true })).toBeVisible();
    await anna.screenshot({ path: testInfo.outputPath('age-check-375.png'), fullPage: true });
    await axeClean(anna);

    // Now she buys, and the banner is gone.
    await anna.goto('/credits');
    await expect(anna.getByTestId('age-alert')).toHaveCount(0);
    await anna.getByTestId('pack').filter({ hasText: '60 credits' }).click();
    await expect(methods).toBeVisible({ timeout: 15_000 });
    await methods.getByRole('radio', { name: 'iDEAL', exact: true }).click();
    await expect(anna).toHaveURL(/\/checkout\/test\/tst_/, { timeout: 15_000 });

    // Staff read the outcome and the provider's reference in her file.
    await staff.goto(`/staff/members?q=${encodeURIComponent(email)}`);
    await expect(staff.getByTestId('member-age')).toContainText('18+ bevestigd');
    await expect(staff.getByTestId('member-age')).toContainText(id);
    await axeClean(staff);
  } finally {
    await other.close();
  }
});
