import { expect } from '@playwright/test';
import { test, acceptEntry, axeClean, grantStaff, member, otherMember } from './helpers';

test.beforeEach(async ({ context, baseURL }) => {
  await acceptEntry(context, baseURL!);
});

// Support at 375 px answer a member who lost credits: the member file from the staff start page
// (found by part of the address, picked from the list), a correction with its reason, sent twice by a double tap, booked once; the member sees it.
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
  // Part of an address finds both accounts of this run: a list, each saying what matched.
  await support.getByLabel('Lid zoeken').fill(`${run}@example.nl`);
  await support.getByRole('button', { name: 'Zoeken' }).click();
  const found = support.getByTestId('member-found');
  await expect(found).toHaveCount(2);
  await expect(found.first()).toContainText('gevonden op deel van het e-mailadres');
  await expect.poll(() => support.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await axeClean(support);
  await found
    .filter({ hasText: anna })
    .getByRole('link', { name: /Annemiek/ })
    .click();
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
  // A note for the next colleague; the file's fraud signals: none for her.
  await expect(file.getByTestId('fraud-score')).toHaveText('Score: 0 van 100');
  await file.getByLabel('Nieuwe notitie').fill('Bericht kwam niet aan: 15 credits terug.');
  await file.getByRole('button', { name: 'Notitie opslaan' }).click();
  await expect(file.getByTestId('member-notes')).toContainText('Bericht kwam niet aan: 15 credits terug.');
  await expect(file.getByTestId('member-notes')).toContainText('Sven');
  await expect.poll(() => support.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await axeClean(support);

  await page.reload();
  await expect(page.getByTestId('credits')).toContainText(`${before + 15}`);
  await support.context().close();
});

// An admin at 1280 px: the job queue from the staff start page, then the switches of the
// messages that bring members back, changed and put back (the settings are shared by the flows).
test('an admin sees the job queue and sets the messages that bring members back', async ({ page }, testInfo) => {
  test.skip(testInfo.project.name !== 'desktop', 'one run at 1280 px');
  const email = `taken-${Date.now()}@example.nl`;
  await member(page, email, { name: 'Tamara' });
  await grantStaff(page, email, 'admin');
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/staff');
  await page.locator('.staff-links').getByRole('link', { name: 'Taken en berichten' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Taken en berichten');
  // Payment recovery runs from the queue: one recurring job, waiting for its next minute.
  await expect(page.getByTestId('job-queue')).toContainText('Betalingen nalopen (elke minuut)');
  await expect(page.getByTestId('failed-none')).toBeVisible();
  await axeClean(page);

  // Every mail members get, read before they do: in Dutch, then in English.
  await page.goto('/staff');
  await page.locator('.staff-links').getByRole('link', { name: 'E-mails aan leden' }).click();
  await expect(page.getByTestId('mail-preview')).toHaveCount(16);
  await expect(page.getByTestId('mail-preview').first()).toContainText('Bevestig je e-mailadres bij');
  await page.getByRole('link', { name: 'EN', exact: true }).click();
  await expect(page.getByTestId('mail-preview').first()).toContainText('Confirm your email address at');
  await axeClean(page);
  await page.goto('/staff/jobs');

  await page.getByRole('link', { name: 'Berichten die leden terugbrengen' }).click();
  await expect(page).toHaveURL(/\/staff\/site#lifecycle$/);
  const form = page.getByTestId('form-lifecycle');
  const hours = form.getByLabel('Inloglink in e-mails geldig (uren)');
  await expect(hours).toHaveValue('48');
  await expect(form.getByLabel(/Herinneringen om het e-mailadres te bevestigen/)).toBeChecked();
  await expect(form.getByLabel('Tweede herinnering (uren na aanmelden)')).toHaveValue('24');
  await hours.fill('24');
  await form.getByLabel('Tweede keer (dagen weg)').fill('21');
  await form.getByRole('button', { name: 'Opslaan' }).click();
  await expect(page).toHaveURL(/saved=lifecycle/);
  await expect(page.getByTestId('form-lifecycle').getByLabel('Inloglink in e-mails geldig (uren)')).toHaveValue('24');
  await expect(page.getByTestId('form-lifecycle').getByLabel('Tweede keer (dagen weg)')).toHaveValue('21');
  await expect(page.locator('#lifecycle').getByTestId('saved')).toBeVisible();
  await axeClean(page);
  await page.getByTestId('form-lifecycle').getByLabel('Inloglink in e-mails geldig (uren)').fill('48');
  await page.getByTestId('form-lifecycle').getByRole('button', { name: 'Opslaan' }).click();
  await expect(page.getByTestId('form-lifecycle').getByLabel('Inloglink in e-mails geldig (uren)')).toHaveValue('48');
});

// Finance on a phone: a network's postback URL set from the staff start page, shown with its
// macros, then deleted again; nothing wider than the screen.
test("finance set and remove a network's postback URL on a phone", async ({ page }, testInfo) => {
  test.skip(testInfo.project.name !== 'desktop', 'one run at 375 px');
  const email = `geld-${Date.now()}@example.nl`;
  await member(page, email, { name: 'Femke' });
  await grantStaff(page, email, 'finance');
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto('/staff');
  await page.locator('.staff-links').getByRole('link', { name: 'Postbacks naar netwerken' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Postbacks naar netwerken');
  const form = page.getByTestId('form-postback');
  const network = `net-${Date.now()}`;
  await form.getByLabel('Netwerk (zoals in network=…)').fill(network);
  await form.getByLabel('Gebeurtenis').selectOption('first_purchase');
  await form.getByLabel('Adres (URL)').fill('https://track.example/pb?cid={click_id}&amount={payout}&cur={currency}');
  await form.getByRole('button', { name: 'Opslaan' }).click();
  await expect(page).toHaveURL(/saved=1/);
  const row = page.getByTestId('postback-url').filter({ hasText: network });
  await expect(row).toContainText('Eerste aankoop');
  await expect(row).toContainText('https://track.example/pb?cid={click_id}&amount={payout}&cur={currency}');
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await axeClean(page);
  await row.getByRole('button', { name: 'Verwijderen' }).click();
  await expect(page).toHaveURL(/saved=1/);
  await expect(page.getByTestId('postback-url').filter({ hasText: network })).toHaveCount(0);
});

// Finance read the owner's figures at both widths: a visitor from a network signs up; from the
// staff start page to the funnel, that network's row leads to its members (Femke among them);
// grouped by country and sorted by signups, the table's CSV keeps the query; on a phone only the
// table scrolls sideways.
test("finance walk from the funnel to a source's members", async ({ page, baseURL }, testInfo) => {
  // The lander would ask a first-time visitor's age first.
  await acceptEntry(page.context(), baseURL!);
  const email = `cijfers-${Date.now()}@example.nl`;
  const network = `figs${Date.now()}`;
  await page.goto(`/landers/gallery?network=${network}&sub1=e2e`);
  await member(page, email, { name: 'Femke' });
  await grantStaff(page, email, 'finance');
  await page.goto('/staff');
  await page.locator('.staff-links').getByRole('link', { name: 'Cijfers' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Cijfers');
  await expect(page.getByTestId('figures-chart')).toBeVisible();
  const row = page.getByTestId('figures-row').filter({ hasText: network });
  await expect(row.getByRole('cell').nth(1)).toHaveText('1');
  await axeClean(page);
  await row.getByRole('link', { name: network }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Leden van deze bron');
  await expect(page.getByTestId('source-member')).toHaveCount(1);
  await expect(page.getByTestId('source-member')).toContainText('Femke');
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await axeClean(page);
  await page.getByRole('link', { name: 'Terug naar de cijfers' }).click();
  const filters = page.getByTestId('figures-filters');
  await filters.getByRole('combobox', { name: 'Per', exact: true }).selectOption('country');
  await filters.getByRole('combobox', { name: 'Grafiek van' }).selectOption('signups');
  await filters.getByRole('button', { name: 'Tonen' }).click();
  await expect(page).toHaveURL(/by=country/);
  await expect(page).toHaveURL(/chart=signups/);
  const table = page.getByTestId('figures-table');
  await expect(table.getByRole('columnheader').first()).toHaveText('Land');
  await table.getByRole('link', { name: 'Aanmeldingen', exact: true }).click();
  await expect(page).toHaveURL(/sort=signups/);
  await expect(page.getByTestId('figures-table').getByRole('columnheader', { name: 'Aanmeldingen', exact: true })).toHaveAttribute('aria-sort', 'descending');
  await expect(page.getByTestId('figures-csv')).toHaveAttribute('href', /^\/staff\/figures\.csv\?.*by=country.*sort=signups/);
  await axeClean(page);
  if (testInfo.project.name === 'desktop') {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.reload();
    await expect(page.getByTestId('figures-table')).toBeVisible();
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await axeClean(page);
  }
});

// The page behind a mail's sign-in link that no longer works, on a phone: it says so and offers
// the login page; a path of one token leads there.
test('a sign-in link that no longer works says so on a phone', async ({ page }, testInfo) => {
  test.skip(testInfo.project.name !== 'desktop', 'one run at 375 px');
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto(`/${'a'.repeat(64)}`);
  await expect(page).toHaveURL(new RegExp(`/sign-in\\?token=${'a'.repeat(64)}$`));
  await expect(page.getByRole('alert')).toHaveText('Link verlopen of invalide, vraag een nieuwe e-mail aan');
  await page.getByRole('link', { name: 'Inloggen' }).last().click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goBack();
  await axeClean(page);
});

// Finance split a lander between two designs at 1280 px: a visitor is shown one of them and
// keeps it on the next visit; the test's card counts the visit under that design; on a phone the
// page fits and the test is stopped (in any case: the flows after this one see the lander as is).
test('finance split a lander between two designs and a visitor keeps theirs', async ({ page, browser, baseURL }, testInfo) => {
  test.skip(testInfo.project.name !== 'desktop', 'one run, at both widths');
  const email = `proef-${Date.now()}@example.nl`;
  const name = `proef-${Date.now()}`;
  await member(page, email, { name: 'Femke' });
  await grantStaff(page, email, 'finance');
  await page.goto('/staff');
  await page.locator('.staff-links').getByRole('link', { name: 'Splittests van landers en prijzen' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Splittests van landers en prijzen');
  const form = page.getByTestId('form-split');
  await form.getByLabel('Naam van de test').fill(name);
  await form.getByRole('combobox', { name: 'Lander onder test' }).selectOption('socialnetwork');
  const first = form.getByRole('group', { name: 'Ontwerp 1' });
  await first.getByRole('combobox', { name: 'Ontwerp' }).selectOption('socialnetwork');
  const second = form.getByRole('group', { name: 'Ontwerp 2' });
  await second.getByRole('combobox', { name: 'Ontwerp' }).selectOption('iconslanding');
  await second.getByLabel('Gewicht (1–100)').fill('30');
  await form.getByRole('button', { name: 'Test starten' }).click();
  await expect(page).toHaveURL(/started=1/);
  const card = page.getByTestId('split-test').filter({ hasText: name });
  try {
    await expect(card.getByTestId('variant')).toHaveCount(2);
    await expect(card.getByTestId('no-winner')).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath('split-tests-1280.png'), fullPage: true });
    await axeClean(page);

    // A visitor lands and is shown one of the two designs, the same one again later.
    const visitor = await browser.newContext({ baseURL });
    await acceptEntry(visitor, baseURL!);
    const tab = await visitor.newPage();
    await tab.goto('/landers/socialnetwork?network=e2e-split');
    const shown = await tab.locator('[data-design]').first().getAttribute('data-design');
    expect(['socialnetwork', 'iconslanding']).toContain(shown);
    await tab.reload();
    await expect(tab.locator('[data-design]').first()).toHaveAttribute('data-design', shown!);
    await visitor.close();

    await page.setViewportSize({ width: 375, height: 800 });
    await expect
      .poll(async () => {
        await page.reload();
        const row = card.getByTestId('variant').filter({ hasText: `(${shown})` });
        return row.getByTestId('variant-visits').textContent();
      })
      .toBe('1');
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.screenshot({ path: testInfo.outputPath('split-tests-375.png'), fullPage: true });
    await axeClean(page);
  } finally {
    await page.goto('/staff/figures/tests');
    await card.getByRole('button', { name: 'Test stoppen' }).click();
    await expect(page).toHaveURL(/stopped=1/);
  }
  await expect(card.getByRole('button', { name: 'Test stoppen' })).toHaveCount(0);
});
