import { expect, type Page } from '@playwright/test';
import { test } from './helpers';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { acceptEntry, activate, member, otherMember, grantStaff } from './helpers';

const dataDir = () => process.env.E2E_DATA_DIR!;

async function upload(page: Page, file: { name: string; mimeType: string; buffer: Buffer }, isPrivate = false) {
  const form = page.getByTestId('upload-form');
  await form.locator('input[type="file"]').setInputFiles(file);
  if (isPrivate) await form.getByLabel('Privéfoto').check();
  await form.getByRole('button', { name: 'Foto uploaden' }).click();
}

test.beforeEach(async ({ context, baseURL }) => {
  await acceptEntry(context, baseURL!);
});

test('a member edits the profile, uploads photos, staff approve them and another member views them', async ({ page, browser, baseURL }, testInfo) => {
  const run = testInfo.project.name;
  const fenna = `fenna-${run}@example.nl`;
  // One name per project: both projects share the server, and its review queue.
  const name = run === 'mobile' ? 'Femke' : 'Fenna';
  await member(page, fenna, { name, gender: 'Vrouw' });
  await activate(page, fenna);
  await page.goto('/profile');

  // Edit the profile details.
  await page.getByTestId('edit-details').locator('summary').click();
  const details = page.getByTestId('details-form');
  await details.getByLabel('Haarkleur').selectOption('red');
  await details.getByLabel('Reizen').check();
  await details.getByLabel('Over mij').fill('Ik hou van treinreizen en goede koffie.');
  await details.getByRole('button', { name: 'Opslaan' }).click();
  await expect(page.getByTestId('saved')).toBeVisible();

  // A file that is no picture is refused with its text; nothing is stored.
  await upload(page, { name: 'notities.txt', mimeType: 'text/plain', buffer: Buffer.from('geen foto') });
  await expect(page.getByTestId('photo-error')).toHaveText('Dit bestand is geen foto. Kies een JPEG-, PNG- of WebP-bestand.');
  await expect(page.getByTestId('own-photo')).toHaveCount(0);

  // A real photo (one of the generated demo portraits) waits for review and is the main photo.
  const portrait = readFileSync(join(dataDir(), 'media/public/demo/female-1.jpg'));
  await upload(page, { name: 'ik.jpg', mimeType: 'image/jpeg', buffer: portrait });
  await expect(page.getByTestId('photo-saved')).toBeVisible();
  const tile = page.getByTestId('own-photo');
  await expect(tile).toHaveCount(1);
  await expect(tile).toContainText('Wordt gecontroleerd');
  await expect(tile).toContainText('Profielfoto');
  await expect(tile.locator('img')).toHaveJSProperty('naturalWidth', 480);
  await expect(page.getByTestId('photo-count')).toHaveText("1 van 3 foto's");
  await upload(page, { name: 'prive.jpg', mimeType: 'image/jpeg', buffer: portrait }, true);
  await expect(page.getByTestId('own-photo')).toHaveCount(2);
  await expect(page.getByTestId('own-photo').nth(1)).toContainText('Privé');
  await page.screenshot({ path: testInfo.outputPath('profile-photos.png'), fullPage: true });

  // A staff member approves both from the review page.
  const staffEmail = `staf-${run}@example.nl`;
  const staff = await otherMember(browser, baseURL!, staffEmail, { name: 'Sander', gender: 'Man' });
  await grantStaff(staff, staffEmail);
  // On PostgreSQL the server hears of the new role from the database a moment later.
  await expect.poll(async () => (await staff.request.get('/staff/members')).status()).toBe(200);
  await staff.goto('/staff/photos');
  const items = staff.getByTestId('review-item').filter({ hasText: name });
  await expect(items).toHaveCount(2);
  const profileHref = (await items.first().getByRole('link', { name, exact: true }).getAttribute('href'))!;
  for (let i = 0; i < 2; i++) {
    await items.first().getByTestId('approve').click();
    await expect(staff.getByTestId('saved')).toHaveText('Foto goedgekeurd.');
  }
  await expect(items).toHaveCount(0);
  // Her profile text waits beside the photos: ticked and approved.
  await staff.goto('/staff/texts');
  const text = staff.getByTestId('text-item').filter({ hasText: 'Ik hou van treinreizen en goede koffie.' }).filter({ hasText: name });
  await text.getByRole('checkbox').check();
  await staff.getByRole('button', { name: 'Goedkeuren' }).click();
  await expect(staff.getByTestId('saved')).toHaveText('1 tekst behandeld.');

  // Another (free) member sees the photo, opens it in the viewer, and finds the private one locked.
  const bart = await otherMember(browser, baseURL!, `bart-${run}@example.nl`, { name: 'Bart', gender: 'Man' });
  await bart.goto(profileHref);
  const profile = bart.getByTestId('member-profile');
  await expect(profile).toContainText('Ik hou van treinreizen en goede koffie.');
  await expect(profile).toContainText('Rood');
  await expect(profile).toContainText('Reizen');
  await expect(bart.getByTestId('locked-photo')).toHaveCount(1);
  await expect(bart.getByTestId('locked-photo')).toHaveAttribute('href', '/premium');
  await bart.locator('.member-profile__photo-link').click();
  const viewer = bart.locator('.lightbox:target');
  await expect(viewer).toBeVisible();
  await expect(viewer.locator('img')).toHaveJSProperty('complete', true);
  expect(await viewer.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await bart.screenshot({ path: testInfo.outputPath('lightbox.png') });
  await viewer.getByRole('link', { name: 'Sluiten' }).last().click();
  await expect(bart.locator('.lightbox:target')).toHaveCount(0);
  await bart.context().close();
  await staff.context().close();
});
