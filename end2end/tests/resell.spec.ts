import { chromium, expect } from '@playwright/test';
import { test, acceptEntry, activate, axeClean, member, pageOn, staffOn, startSites } from './helpers';
import { chromiumArgs, chromiumPath } from '../../scripts/chromium.mjs';

// Two new sites of the company (so that the first site's settings stay as they are): staff of
// the one offer its members the others, a member joins the other from /settings with one tap
// and is signed in there with that site's one-tap link.
test("a member joins the company's other site from settings and is signed in there", async ({ browser, baseURL }, testInfo) => {
  const mobile = testInfo.project.name === 'mobile';
  const run = `${Date.now()}${mobile ? 'm' : 'd'}`;
  const port = new URL(baseURL!).port;
  const [here, there] = [`res-a-${run}.vonk-test.nl`, `res-b-${run}.vonk-test.nl`];
  const [hereOrigin, thereOrigin] = [`http://${here}:${port}`, `http://${there}:${port}`];

  await startSites(browser, baseURL!, `res-boss-${run}@example.nl`, [
    [here, `Noord ${run}`],
    [there, `Oost ${run}`],
  ]);

  const other = await chromium.launch({
    executablePath: chromiumPath,
    args: [...chromiumArgs, `--host-resolver-rules=MAP ${here} 127.0.0.1,MAP ${there} 127.0.0.1`],
  });
  try {
    // Staff of the first offer its members the company's other sites.
    const staff = await staffOn(other, hereOrigin, `res-staff-${run}@example.nl`);
    await staff.goto('/invitations#settings');
    await staff.getByLabel('Leden krijgen de andere sites van het bedrijf aangeboden (met één tik lid)').check();
    await staff.getByTestId('form-invite-settings').getByRole('button', { name: 'Opslaan' }).click();
    await expect(staff).toHaveURL(/saved=1/);

    // A member who confirmed the address finds the other site on /settings.
    const annaEmail = `res-anna-${run}@example.nl`;
    const anna = await pageOn(other, hereOrigin, mobile);
    await member(anna, annaEmail, { name: 'Anna', gender: 'Vrouw' });
    await activate(anna, annaEmail);
    await anna.goto('/settings#sites');
    const panel = anna.getByTestId('sister-sites');
    await expect(panel.getByRole('heading', { name: 'Onze andere sites' })).toBeVisible();
    const offer = panel.getByTestId('sister-site').filter({ hasText: `Oost ${run}` });
    await expect(offer).toHaveCount(1);
    await expect(panel).not.toContainText(`Noord ${run}`);
    await expect.poll(() => anna.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await axeClean(anna);
    await panel.screenshot({ path: testInfo.outputPath('sister-sites.png') });

    // One tap: that site's own https address, which this machine serves over http on its port.
    await acceptEntry(anna.context(), thereOrigin);
    await anna
      .context()
      .route(`https://${there}/**`, (route) =>
        route.fulfill({ status: 302, headers: { location: route.request().url().replace(`https://${there}`, thereOrigin) } }),
      );
    await offer.getByRole('button', { name: `Lid worden van Oost ${run}` }).click();
    await expect(anna).toHaveURL(new RegExp(`^${thereOrigin.replace(/\./g, '\\.')}/sign-in\\?token=[0-9a-f]{64}$`));
    await expect(anna.getByText('Welkom terug, Anna!')).toBeVisible();
    await axeClean(anna);
    await anna.getByRole('button', { name: 'Ga verder' }).click();
    await expect(anna).toHaveURL(`${thereOrigin}/members`);
    await expect(anna.getByTestId('credits')).toBeVisible();

    // Back on the first site the panel links to that site instead.
    await anna.goto(`${hereOrigin}/settings#sites`);
    await expect(anna.getByTestId('sister-site').filter({ hasText: `Oost ${run}` })).toContainText(`Je hebt al een account op Oost ${run}.`);
    await expect(anna.getByRole('link', { name: `Naar Oost ${run}` })).toHaveAttribute('href', `https://${there}/login`);
  } finally {
    await other.close();
  }
});
