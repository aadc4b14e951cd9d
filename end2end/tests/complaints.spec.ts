import { expect } from '@playwright/test';
import { test } from './helpers';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { acceptEntry, axeClean, otherMember, signupFormReady, grantStaff } from './helpers';

function mailsWith(text: string): string[] {
  const dir = join(process.env.E2E_DATA_DIR!, 'mail');
  return readdirSync(dir)
    .map((f) =>
      readFileSync(join(dir, f), 'utf8')
        .replace(/=\r?\n/g, '')
        .replace(/=3D/g, '='),
    )
    .filter((m) => m.includes(text));
}

test.beforeEach(async ({ context, baseURL }) => {
  await acceptEntry(context, baseURL!);
});

test('a visitor reports a profile, gets a reference, and staff handle it', async ({ page, browser, baseURL }, testInfo) => {
  const run = Date.now();
  // A profile from the search; its report link leads to the form about that member.
  await page.goto('/members');
  const card = page.locator('.member-card a[href^="/members/"]').first();
  const href = (await card.getAttribute('href'))!;
  await page.goto(href);
  await page.getByTestId('report-member').click();
  await expect(page).toHaveURL(/\/complaints\?member=\d+#complaint$/);
  await expect(page.getByTestId('complaint-subject')).toContainText('Je meldt het profiel van');
  await axeClean(page);

  // Too short: the translated refusal, and what was typed is still there.
  const form = page.getByTestId('complaint-form');
  await form.getByLabel('Je naam').fill('Petra');
  await form.getByLabel('Je e-mailadres').fill(`petra-${run}@example.nl`);
  await form.getByLabel('Waar gaat het over?').selectOption('fake_profile');
  await form.getByLabel('Wat is er gebeurd?').evaluate((el: HTMLTextAreaElement) => el.removeAttribute('minlength'));
  await form.getByLabel('Wat is er gebeurd?').fill('nep');
  await form.getByRole('button', { name: 'Versturen' }).click();
  await expect(page.getByTestId('form-error')).toHaveText('Beschrijf je klacht in 10 tot 4000 tekens.');
  await expect(page.getByTestId('complaint-form').getByLabel('Je naam')).toHaveValue('Petra');
  await expect(page.getByTestId('complaint-form').getByLabel('Waar gaat het over?')).toHaveValue('fake_profile');
  await expect(page.getByTestId('complaint-subject')).toContainText('Je meldt het profiel van');

  const text = `These photos belong to someone else (${run}).`;
  await page.getByTestId('complaint-form').getByLabel('Wat is er gebeurd?').fill(text);
  await page.getByTestId('complaint-form').getByRole('button', { name: 'Versturen' }).click();
  await expect(page.getByTestId('complaint-sent')).toContainText('Bedankt, we hebben je bericht ontvangen');
  const reference = (await page.getByTestId('complaint-reference').textContent())!.trim();
  expect(reference).toMatch(/^K-[A-Z0-9]{8}$/);
  await axeClean(page);
  await page.screenshot({ path: testInfo.outputPath('complaint-sent.png'), fullPage: true });
  expect(mailsWith(reference).some((m) => m.includes('To: support@vonk.example') && m.includes(text))).toBe(true);

  // A lander opened with `lb` reports the visitor leaving without a click.
  await page.goto(`${href}/landing?lb=1&network=e2e`);
  await page.goto('/pages/faq');

  // A member who is not staff finds no staff page; staff handle the complaint.
  const staffEmail = `klacht-staf-${run}@example.nl`;
  const staff = await otherMember(browser, baseURL!, staffEmail, { name: 'Sander', gender: 'Man' });
  const notFound = await staff.goto('/staff/complaints');
  expect(notFound?.status()).toBe(404);
  await grantStaff(staff, staffEmail);
  // On PostgreSQL the server hears of the new role from the database a moment later.
  await expect.poll(async () => (await staff.request.get('/staff/members')).status()).toBe(200);
  await staff.goto('/staff/complaints');
  const item = staff.getByTestId('staff-complaint').filter({ hasText: reference });
  await expect(item).toContainText(text);
  await expect(item).toContainText('Nepprofiel');
  await axeClean(staff);
  await item.getByTestId('mark-handled').click();
  await expect(staff.getByTestId('saved')).toBeVisible();
  await expect(staff.getByTestId('staff-complaint').filter({ hasText: reference })).toHaveCount(0);
  await staff.getByRole('link', { name: 'Afgehandeld' }).click();
  await expect(staff.getByTestId('staff-complaint').filter({ hasText: reference })).toContainText('Afgehandeld door Sander');
  await staff.goto('/staff');
  await expect(staff.getByTestId('staff-log')).toContainText(reference);
  await expect(staff.getByTestId('staff-log')).toContainText('Klacht afgehandeld');
  await expect(staff.getByTestId('staff-bounces').locator('tr', { hasText: 'landing' })).toBeVisible();
  await axeClean(staff);
});

test('tracking from the landing page reaches the member through the modal or the signup page', async ({ page, browser, baseURL }, testInfo) => {
  const run = Date.now();
  const network = `e2e-${testInfo.project.name}`;
  await page.goto(`/members?network=${network}&sub1=m1`);
  // The visitor moves on; the landing's parameters are no longer in the address.
  await page.goto('/');
  const modal = page.getByTestId('signup-modal');
  await expect(modal).toHaveAttribute('data-ready', 'true', { timeout: 15_000 });
  await page.getByRole('link', { name: 'Meld je gratis aan' }).first().click();
  const form = testInfo.project.name === 'mobile' ? page.locator('main') : modal;
  // On the signup page the form with live checks comes when the visitor steps in.
  if (testInfo.project.name === 'mobile') await signupFormReady(page);
  await expect(form.locator('form[data-ready="true"]')).toBeAttached({ timeout: 15_000 });
  const email = `bron-${run}@example.nl`;
  await form.getByLabel('E-mailadres').fill(email);
  await form.getByLabel('Profielnaam').fill('Bente');
  await form.getByLabel('Wachtwoord').fill('zoeken naar de vonk');
  await form.getByLabel('Geboortedatum').fill('1990-03-14');
  await form.getByRole('button', { name: 'Gratis aanmelden' }).click();
  await expect(page).toHaveURL(/\/complete-signup$/);

  const staffEmail = `bron-staf-${run}@example.nl`;
  const staff = await otherMember(browser, baseURL!, staffEmail, { name: 'Stijn', gender: 'Man' });
  await grantStaff(staff, staffEmail);
  // On PostgreSQL the server hears of the new role from the database a moment later.
  await expect.poll(async () => (await staff.request.get('/staff/members')).status()).toBe(200);
  await staff.goto('/staff/members');
  await staff.getByLabel('Lid zoeken').fill(email);
  await staff.getByRole('button', { name: 'Zoeken' }).click();
  await expect(staff.getByTestId('staff-member')).toContainText(network);
  await axeClean(staff);
});

test('staff see the site settings and add a discount code, then switch it off', async ({ browser, baseURL }, testInfo) => {
  const run = `${Date.now()}${testInfo.project.name === 'mobile' ? 'm' : 'd'}`;
  const staffEmail = `instellingen-staf-${run}@example.nl`;
  const staff = await otherMember(browser, baseURL!, staffEmail, { name: 'Sofie', gender: 'Vrouw' });
  if (testInfo.project.name === 'mobile') await staff.setViewportSize({ width: 375, height: 800 });
  await grantStaff(staff, staffEmail);
  // On PostgreSQL the server hears of the new role from the database a moment later.
  await expect.poll(async () => (await staff.request.get('/staff/members')).status()).toBe(200);
  await staff.goto('/staff/site');
  await expect(staff.getByRole('heading', { level: 1 })).toHaveText('Site-instellingen');
  await expect(staff.getByLabel('Credits per bericht')).toHaveAttribute('max', '1000');
  await expect(staff.getByTestId('form-gifts').getByRole('checkbox')).toHaveCount(8);
  // Saving what is there changes nothing (other flows run on this site meanwhile) and says so.
  await staff.getByTestId('form-credits').getByRole('button', { name: 'Opslaan' }).click();
  await expect(staff).toHaveURL(/\/staff\/site\?saved=credits#credits$/);
  await expect(staff.locator('#credits').getByTestId('saved')).toBeVisible();
  await expect.poll(() => staff.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await axeClean(staff);

  const code = `E2E${run}`.toUpperCase().slice(0, 32);
  await staff.goto('/staff/pricing');
  await expect(staff.getByTestId('staff-pack').first()).toBeVisible();
  const form = staff.getByTestId('form-code');
  await form.getByLabel('Code').fill(code.toLowerCase());
  await form.getByLabel('Korting (%)').fill('15');
  await form.getByLabel('Minimale bestelling').fill('19,95');
  await form.getByRole('button', { name: 'Code toevoegen' }).click();
  await expect(staff).toHaveURL(/saved=codes#codes$/);
  const row = staff.getByTestId('staff-code').filter({ hasText: code });
  await expect(row).toContainText('15 %');
  await expect(row).toContainText('19.95');
  await expect(row).toHaveAttribute('data-active', 'true');
  await row.getByRole('button', { name: 'Uitzetten' }).click();
  await expect(staff.getByTestId('staff-code').filter({ hasText: code })).toHaveAttribute('data-active', 'false');
  await expect.poll(() => staff.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await axeClean(staff);
  await staff.goto('/staff');
  await expect(staff.getByTestId('staff-log')).toContainText(code);
  await expect(staff.getByTestId('staff-log')).toContainText('Kortingscode uitgezet');
  await staff.context().close();
});

test('staff put up a logo and take it down again, and start a new site on its own domain', async ({ browser, baseURL }, testInfo) => {
  const run = `${Date.now()}${testInfo.project.name === 'mobile' ? 'm' : 'd'}`;
  const staffEmail = `logo-staf-${run}@example.nl`;
  const staff = await otherMember(browser, baseURL!, staffEmail, { name: 'Femke', gender: 'Vrouw' });
  if (testInfo.project.name === 'mobile') await staff.setViewportSize({ width: 375, height: 800 });
  await grantStaff(staff, staffEmail);
  // On PostgreSQL the server hears of the new role from the database a moment later.
  await expect.poll(async () => (await staff.request.get('/staff/members')).status()).toBe(200);
  await staff.goto('/staff/site');
  for (const name of ['Bezoekers en aanmelden', 'Minimale berichtprijs per land', 'Logo', 'Bedrijfsgegevens', 'Nieuwe site']) {
    await expect(staff.getByRole('heading', { level: 2, name })).toBeVisible();
  }
  await expect(staff.getByLabel('Niche')).toBeVisible();
  await expect(staff.getByLabel('Bedrijfsnaam')).not.toHaveValue('');

  // The logo: uploaded without the page's script (a plain form), shown in the header, removed.
  await staff
    .getByTestId('form-logo')
    .locator('input[type=file]')
    .setInputFiles(fileURLToPath(new URL('../../public/icon-192.png', import.meta.url)));
  await staff.getByRole('button', { name: 'Logo plaatsen' }).click();
  await expect(staff).toHaveURL(/saved=logo#logo$/);
  await expect(staff.getByTestId('staff-logo')).toContainText('160 × 160 px');
  const headerLogo = staff.locator('header.topbar .logo__image');
  await expect(headerLogo).toBeVisible();
  expect(await headerLogo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(160);
  await expect.poll(() => staff.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await axeClean(staff);
  await staff.getByRole('button', { name: 'Logo verwijderen' }).click();
  await expect(staff.getByTestId('staff-logo-none')).toBeVisible();
  await expect(staff.locator('header.topbar .logo__mark')).toBeVisible();
  await expect(staff.locator('header.topbar .logo__image')).toHaveCount(0);

  // A new site; a domain already in use is refused in Dutch.
  const form = staff.getByTestId('form-new-site');
  await form.getByLabel('Domein').fill('vonk.de');
  await form.getByLabel('Naam van de site').fill('Vonk Test');
  await form.getByRole('button', { name: 'Site aanmaken' }).click();
  await expect(staff.getByText('Op dit domein draait al een site.')).toBeVisible();
  const domain = `e2e-${run}.vonk-test.nl`;
  await staff.getByTestId('form-new-site').getByLabel('Domein').fill(domain);
  await staff.getByTestId('form-new-site').getByLabel('Naam van de site').fill('Vonk Test');
  await staff.getByTestId('form-new-site').getByRole('button', { name: 'Site aanmaken' }).click();
  await expect(staff.getByTestId('site-created')).toContainText(`Site ${domain} is aangemaakt.`);
  await expect(staff.getByTestId('company-shared')).toContainText(domain);
  await expect.poll(() => staff.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await axeClean(staff);
  await staff.goto('/staff');
  await expect(staff.getByTestId('staff-log')).toContainText('Nieuwe site aangemaakt');
  await expect(staff.getByTestId('staff-log')).toContainText('Logo verwijderd');
  await staff.context().close();
});
