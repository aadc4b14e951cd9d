import { chromium, expect } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import { test, activate, axeClean, chatLive, member, pageOn, staffOn, startSites, turnOnTwoStep, grantRole } from './helpers';
import { chromiumArgs, chromiumPath } from '../../scripts/chromium.mjs';

// A click or a fill that finds nothing fails within 15 s, naming it, instead of waiting out the
// whole flow's time.
test.use({ actionTimeout: 15_000 });

/** Saves the "about me" text on the member's profile page. */
async function writeAbout(page: import('@playwright/test').Page, text: string) {
  await page.goto('/profile');
  await page.getByTestId('edit-details').locator('summary').click();
  const details = page.getByTestId('details-form');
  await details.getByLabel('Over mij').fill(text);
  await details.getByRole('button', { name: 'Opslaan' }).click();
  await expect(page.getByTestId('saved')).toBeVisible();
}

// A moderator's morning at 1280 px on a site of their own (its queues are theirs alone): two
// members changed their texts; the moderator approves one by keyboard, turns the other down with
// a reason, and each member sees what it did. The site's admin has every chat photo wait, hidden:
// Anna's photo to Bram says to him that it is checked first, until the moderator approves it.
test("a moderator's morning: profile texts and a chat photo decided by keyboard, a text turned down with a reason", async ({ browser, baseURL }, testInfo) => {
  test.skip(testInfo.project.name !== 'desktop', 'one run at 1280 px');
  // Five people in one morning (two members, a moderator, an admin, the site's owner).
  test.setTimeout(90_000);
  const run = `${Date.now()}`;
  const port = new URL(baseURL!).port;
  const domain = `ochtend-${run}.vonk-test.nl`;
  const origin = `http://${domain}:${port}`;
  await startSites(browser, baseURL!, `ochtend-boss-${run}@example.nl`, [[domain, `Ochtend ${run}`]]);

  const other = await chromium.launch({ executablePath: chromiumPath, args: [...chromiumArgs, `--host-resolver-rules=MAP ${domain} 127.0.0.1`] });
  try {
    const anna = await pageOn(other, origin, false);
    await member(anna, `ochtend-anna-${run}@example.nl`, { name: 'Anna', gender: 'Vrouw' });
    await activate(anna, `ochtend-anna-${run}@example.nl`);
    await writeAbout(anna, 'Ik hou van <b>wandelen</b> en koken.');
    await expect(anna.getByTestId('text-waiting')).toBeVisible();
    const bram = await pageOn(other, origin, false);
    await member(bram, `ochtend-bram-${run}@example.nl`, { name: 'Bram', gender: 'Man' });
    await activate(bram, `ochtend-bram-${run}@example.nl`);
    await writeAbout(bram, 'Bel me gerust: 06 12 34 56 78');

    const email = `ochtend-mod-${run}@example.nl`;
    const moderator = await pageOn(other, origin, false);
    await member(moderator, email, { name: 'Mo', gender: 'Man' });
    grantRole(email, 'moderator');
    await turnOnTwoStep(moderator);
    await expect.poll(() => moderator.evaluate(() => fetch('/staff/texts').then((r) => r.status))).toBe(200);
    await moderator.goto('/staff');
    await moderator.getByRole('link', { name: 'Profielteksten' }).click();
    await expect(moderator).toHaveURL(/\/staff\/texts$/);
    const items = moderator.getByTestId('text-item');
    await expect(items).toHaveCount(2);
    await expect(items.filter({ hasText: 'Anna' })).toContainText('Ik hou van <b>wandelen</b> en koken.');
    await axeClean(moderator);
    await moderator.screenshot({ path: testInfo.outputPath('texts-1280.png'), fullPage: true });

    const annaId = /#(\d+)/.exec((await items.filter({ hasText: 'Anna' }).locator('label').textContent())!)![1];
    const bramProfile = /#(\d+)/.exec((await items.filter({ hasText: 'Bram' }).locator('label').textContent())!)![1];
    // By keyboard: to Anna's box, Space to tick it, A to approve.
    await expect(moderator.locator('[data-keys="on"]')).toBeVisible({ timeout: 15_000 });
    await items.filter({ hasText: 'Anna' }).getByRole('checkbox').focus();
    await moderator.keyboard.press('Space');
    await expect(items.filter({ hasText: 'Anna' }).getByRole('checkbox')).toBeChecked();
    await moderator.keyboard.press('a');
    await expect(moderator.getByTestId('saved')).toHaveText('1 tekst behandeld.');
    await expect(items).toHaveCount(1);

    // Bram's: a rejection needs its reason.
    await items.getByRole('checkbox').check();
    await moderator.getByRole('button', { name: 'Afkeuren', exact: true }).click();
    await expect(moderator.getByRole('alert').first()).toBeVisible();
    await items.getByRole('checkbox').check();
    await moderator.getByLabel('Reden bij afkeuren').selectOption({ label: 'bevat contactgegevens' });
    await moderator.getByRole('button', { name: 'Afkeuren', exact: true }).click();
    await expect(moderator.getByTestId('queue-empty')).toBeVisible();
    await axeClean(moderator);

    // What each member sees.
    await bram.goto('/profile');
    await expect(bram.getByTestId('text-rejected')).toContainText('hij bevat contactgegevens');
    await bram.goto(`/members/${annaId}`);
    await expect(bram.getByTestId('member-profile')).toContainText('Ik hou van <b>wandelen</b> en koken.');

    // Every chat photo waits, hidden from its recipient until approved.
    const admin = await staffOn(other, origin, `ochtend-admin-${run}@example.nl`);
    await admin.goto('/staff/site#chat-photos');
    const settings = admin.getByTestId('form-chat-photos');
    await settings.getByLabel("Deel van de chatfoto's dat wacht op controle (%)").fill('100');
    await settings.getByLabel('Ontvanger ziet een wachtende foto pas na goedkeuring').check();
    await settings.getByRole('button', { name: 'Opslaan' }).click();
    await expect(admin).toHaveURL(/saved=chat-photos/);

    // Anna sends Bram a photo from his profile's chat.
    await anna.goto(`/members/${bramProfile}/chat`);
    await chatLive(anna);
    await anna.getByTestId('chat-photo-input').setInputFiles(fileURLToPath(new URL('../../public/icon-192.png', import.meta.url)));
    const sent = anna.getByTestId('chat-row').filter({ has: anna.locator('img[src^="/media/chat/"]') });
    await expect(sent).toContainText('Wordt gecontroleerd', { timeout: 15_000 });
    await bram.goto(`/members/${annaId}/chat`);
    await chatLive(bram);
    const bramsChat = bram.getByTestId('chat-panel');
    await expect(bramsChat.getByTestId('photo-review')).toHaveText('Foto wordt eerst gecontroleerd');
    await expect(bramsChat.locator('img[src^="/media/chat/"]')).toHaveCount(0);
    await axeClean(bram);

    // The moderator approves it by keyboard; Bram sees it on his next visit.
    await moderator.goto('/staff');
    await expect(moderator.getByRole('link', { name: "Chatfoto's" })).toHaveAttribute('href', '/staff/chat-photos');
    await moderator.goto('/staff/chat-photos');
    const photos = moderator.getByTestId('chat-photo-item');
    await expect(photos).toHaveCount(1);
    await expect(photos).toContainText('Anna aan Bram');
    await expect(photos).toContainText('Verborgen voor de ontvanger');
    await expect(photos.locator('img')).toHaveJSProperty('complete', true);
    expect(await photos.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    await axeClean(moderator);
    await moderator.screenshot({ path: testInfo.outputPath('chat-photos-1280.png'), fullPage: true });
    await expect(moderator.locator('[data-keys="on"]')).toBeVisible({ timeout: 15_000 });
    await photos.getByRole('checkbox').focus();
    await moderator.keyboard.press('Space');
    await moderator.keyboard.press('a');
    await expect(moderator.getByTestId('saved')).toHaveText('1 foto behandeld.');
    await expect(moderator.getByTestId('queue-empty')).toBeVisible();
    await bram.reload();
    await chatLive(bram);
    await expect(bramsChat.locator('img[src^="/media/chat/"]')).toBeVisible();
    await expect(bramsChat.getByTestId('photo-review')).toHaveCount(0);
  } finally {
    await other.close();
  }
});
