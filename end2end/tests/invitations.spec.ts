import { chromium, expect } from '@playwright/test';
import { test, axeClean, signupFormReady, fillBasics, pageOn, staffOn, startSites } from './helpers';
import { chromiumArgs, chromiumPath } from '../../scripts/chromium.mjs';

// An invite-only site is a second site on this server (its own domain), so that the flows of the
// first site keep their open signup: staff there make a link, a visitor joins with it, and the
// link is used up.
test('on an invite-only site a visitor joins with an invitation link, once', async ({ browser, baseURL }, testInfo) => {
  const mobile = testInfo.project.name === 'mobile';
  const run = `${Date.now()}${mobile ? 'm' : 'd'}`;
  const port = new URL(baseURL!).port;
  const domain = `inv-${run}.vonk-test.nl`;

  // Staff of the first site start the second.
  await startSites(browser, baseURL!, `inv-boss-${run}@example.nl`, [[domain, 'Vonk Besloten']]);

  // A browser that finds the new domain on this machine.
  const other = await chromium.launch({ executablePath: chromiumPath, args: [...chromiumArgs, `--host-resolver-rules=MAP ${domain} 127.0.0.1`] });
  const origin = `http://${domain}:${port}`;
  try {
    // Its staff make it invite-only.
    const staff = await staffOn(other, origin, `inv-staff-${run}@example.nl`);
    await staff.goto('/staff/site#rules');
    await staff.getByTestId('form-rules').locator('select[name="signups"]').selectOption('invite_only');
    await staff.getByTestId('form-rules').getByRole('button', { name: 'Opslaan' }).click();
    await expect(staff).toHaveURL(/saved=rules/);

    // A visitor: no signup button, the top bar says why and the signup page explains.
    const visitor = await pageOn(other, origin, mobile);
    await visitor.goto('/');
    await expect(visitor.getByRole('link', { name: 'Gratis aanmelden' })).toHaveCount(0);
    await visitor.getByRole('banner').getByRole('link', { name: 'Op uitnodiging' }).click();
    await expect(visitor).toHaveURL(/\/signup$/);
    await expect(visitor.getByTestId('invite-only')).toContainText('kan alleen met een uitnodigingslink');
    await expect(visitor.getByLabel('Wachtwoord')).toHaveCount(0);
    await expect.poll(() => visitor.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await axeClean(visitor);
    await visitor.screenshot({ path: testInfo.outputPath('invite-only.png') });

    // Staff make a link on /invitations (from the account menu).
    await staff.goto('/invitations');
    await staff.getByLabel('Voor wie (alleen voor jezelf)').fill('Nina <b>sportschool</b>');
    await staff.getByRole('button', { name: 'Maak uitnodigingslink' }).click();
    const field = staff.getByTestId('new-invitation').getByRole('textbox');
    // Links name the site's own address (never the request's Host); here its path is opened.
    await expect(field).toHaveValue(new RegExp(`^https://${domain.replace(/\./g, '\\.')}/signup\\?invite=[0-9a-f]{64}$`));
    const url = new URL(await field.inputValue());
    const link = `${url.pathname}${url.search}`;
    await expect(staff.getByTestId('invitations')).toContainText('Nina <b>sportschool</b>');
    await axeClean(staff);

    // The visitor opens it: invited, the form; signs up.
    await visitor.goto(link);
    await expect(visitor.getByTestId('invited')).toBeVisible();
    await signupFormReady(visitor);
    await visitor.getByLabel('E-mailadres').fill(`inv-nina-${run}@example.nl`);
    await visitor.getByLabel('Profielnaam').fill('Nina');
    await visitor.getByLabel('Wachtwoord').fill('zoeken naar de vonk');
    await visitor.getByLabel('Geboortedatum').fill('1990-03-14');
    await axeClean(visitor);
    await visitor.getByRole('button', { name: 'Gratis aanmelden' }).click();
    await expect(visitor).toHaveURL(/\/complete-signup$/);
    await fillBasics(visitor, 'Vrouw');
    await expect(visitor).toHaveURL(/\/signup-matches$/);

    // The link is used: the next visitor with it is told so, and staff see who used it.
    const late = await pageOn(other, origin, mobile);
    await late.goto(link);
    await expect(late.getByRole('alert')).toHaveText('Deze uitnodiging is verlopen, ingetrokken of al gebruikt.');
    await expect(late.getByLabel('Wachtwoord')).toHaveCount(0);
    await staff.reload();
    await expect(staff.getByTestId('invitations')).toContainText('Gebruikt door Nina');
  } finally {
    await other.close();
  }
});
