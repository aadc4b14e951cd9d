import { expect, type Page } from '@playwright/test';
import { test } from './helpers';
import { acceptEntry, activate, axeClean, layoutShiftSoFar, member } from './helpers';

test.beforeEach(async ({ context, baseURL }) => {
  await acceptEntry(context, baseURL!);
});

/**
 * The swipe widget is mounted once its card shows. The server drew the first card already, in the
 * same place: nothing moves while the page loads and the widget takes over.
 */
async function openGame(page: Page) {
  await page.goto('/swipe-game');
  await expect(page.getByTestId('swipe-card')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId('swipe-first')).toBeHidden();
  await page.waitForLoadState('networkidle');
  expect(await layoutShiftSoFar(page), 'the swipe game moves as it loads').toBeLessThan(0.05);
}

test('two members like each other and both see the match', async ({ page, browser, baseURL }, testInfo) => {
  const run = testInfo.project.name;
  const anna = `anna-like-${run}@example.nl`;
  await member(page, anna, { name: run === 'mobile' ? 'Annemiek' : 'Annabel', gender: 'Vrouw' });
  await activate(page, anna);

  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await acceptEntry(context, baseURL!);
  const bart = await context.newPage();
  const bartEmail = `bart-like-${run}@example.nl`;
  await member(bart, bartEmail, { name: 'Bart', gender: 'Man' });
  await activate(bart, bartEmail);
  // Bart finds Anna (newest first among the women) and likes her.
  await bart.goto('/members?gender=female');
  const annaName = run === 'mobile' ? 'Annemiek' : 'Annabel';
  await bart.getByTestId('results').locator('.member-card__link').filter({ hasText: annaName }).first().click();
  const annaHref = new URL(bart.url()).pathname;
  await bart.getByTestId('like-toggle').click();
  await expect(bart.getByTestId('saved')).toContainText(`Je vindt ${annaName} leuk`);

  // Anna sees the new like, opens it and likes back: the match dialog.
  await page.goto('/members');
  await expect(page.getByTestId('likes-pill')).toHaveText('1');
  await page.goto('/likes');
  const card = page.locator('.member-card__link').filter({ hasText: 'Bart' });
  await expect(card.getByTestId('card-badge')).toHaveText('Nieuw');
  await card.click();
  await expect(page.getByTestId('like-status')).toContainText('Bart vindt jou leuk!');
  await page.getByTestId('like-toggle').click();
  const dialog = page.getByTestId('match-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Nieuwe like!');
  await page.screenshot({ path: testInfo.outputPath('match.png') });
  await dialog.getByTestId('match-close').click();
  await expect(page.getByTestId('match-dialog')).toHaveCount(0);
  await expect(page.getByTestId('like-status')).toContainText('een match met Bart');

  // Bart sees the match too.
  await bart.goto('/likes/matches');
  await expect(bart.locator(`a[href="${annaHref}"]`)).toHaveCount(1);
  await context.close();
});

test('swiping by drag and by keyboard, then the daily limit after 4', async ({ page }, testInfo) => {
  await member(page, `swiper-${testInfo.project.name}@example.nl`, { name: 'Sven', gender: 'Man' });
  await openGame(page);
  await expect(page.getByTestId('swipe-remaining')).toHaveText('Nog 4 likes vandaag');

  // Drag the top card to the right: a like.
  const first = page.getByTestId('swipe-card');
  const firstId = await first.getAttribute('data-id');
  const box = (await first.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  for (let step = 1; step <= 10; step++) {
    await page.mouse.move(box.x + box.width / 2 + step * 25, box.y + box.height / 2 + step * 2);
  }
  await page.mouse.up();
  await expect(page.getByTestId('swipe-remaining')).toHaveText('Nog 3 likes vandaag');
  await expect(page.getByTestId('swipe-card')).not.toHaveAttribute('data-id', firstId!);

  // A short drag is not a decision: the card comes back.
  const second = await page.getByTestId('swipe-card').getAttribute('data-id');
  const box2 = (await page.getByTestId('swipe-card').boundingBox())!;
  await page.mouse.move(box2.x + box2.width / 2, box2.y + box2.height / 2);
  await page.mouse.down();
  await page.mouse.move(box2.x + box2.width / 2 + 40, box2.y + box2.height / 2);
  await page.mouse.up();
  await expect(page.getByTestId('swipe-card')).toHaveAttribute('data-id', second!);

  // The keyboard: left passes (no like used), right likes.
  await page.getByRole('group', { name: 'Profielen om te liken' }).focus();
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByTestId('swipe-card')).not.toHaveAttribute('data-id', second!);
  await expect(page.getByTestId('swipe-remaining')).toHaveText('Nog 3 likes vandaag');
  for (const left of [2, 1]) {
    await page.getByRole('group', { name: 'Profielen om te liken' }).focus();
    await page.keyboard.press('ArrowRight');
    await expect(page.getByTestId('swipe-remaining')).toHaveText(`Nog ${left} ${left === 1 ? 'like' : 'likes'} vandaag`);
  }
  await page.getByRole('button', { name: 'Leuk' }).click();
  // Four likes given: come back later, with the time left.
  await expect(page.getByTestId('swipe-come-back')).toContainText('Je likes voor vandaag zijn op');
  await expect(page.getByTestId('swipe-come-back')).toContainText(/Kom terug over \d+:\d\d uur/);
  await page.screenshot({ path: testInfo.outputPath('come-back.png'), fullPage: true });
  // It holds after a reload.
  await page.goto('/swipe-game');
  await expect(page.getByTestId('swipe-come-back')).toBeVisible({ timeout: 15_000 });
});

test('a long likes list comes in pages of 24', async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  const email = `pager-${testInfo.project.name}@example.nl`;
  await member(page, email, { name: 'Pieter', gender: 'Man' });
  await activate(page, email);
  // 25 hearts on search cards, each coming back to the list: the first page's 24, then one more.
  await page.goto('/members?gender=female');
  for (let i = 0; i < 25; i++) {
    if (i === 24) await page.goto('/members?gender=female&page=2');
    const heart = page.getByTestId('results').locator('[data-testid="card-like"][aria-pressed="false"]').first();
    const id = await heart.getAttribute('value');
    await heart.click();
    await expect(page).toHaveURL(new RegExp(`liked=${id}`));
  }
  await page.goto('/likes/given');
  const cards = page.getByTestId('likes-list').locator('.member-card');
  await expect(cards).toHaveCount(24);
  await expect(page.getByRole('link', { name: 'Vorige' })).toHaveCount(0);
  await page.getByRole('link', { name: 'Volgende' }).click();
  await expect(page).toHaveURL(/\/likes\/given\?page=2$/);
  await expect(cards).toHaveCount(1);
  await expect(page.getByText('Pagina 2')).toBeVisible();
  await axeClean(page);
  await page.screenshot({ path: testInfo.outputPath('likes-page-2.png'), fullPage: true });
  // Taking the like back on page 2 comes back to page 2.
  await cards.first().getByTestId('card-like').click();
  await expect(page).toHaveURL(/\/likes\/given\?page=2&unliked=1/);
  await expect(cards).toHaveCount(0);
  await page.getByRole('link', { name: 'Vorige' }).click();
  await expect(page).toHaveURL(/\/likes\/given$/);
  await expect(cards).toHaveCount(24);
});
