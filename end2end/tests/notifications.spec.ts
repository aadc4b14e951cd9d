import { expect } from '@playwright/test';
import { test } from './helpers';
import { acceptEntry, activate, member } from './helpers';

test.beforeEach(async ({ context, baseURL }) => {
  await acceptEntry(context, baseURL!);
});

test('a like from a search card reaches the other member live, in notifications, and the match finder makes it a match', async ({
  page,
  browser,
  baseURL,
}, testInfo) => {
  const run = testInfo.project.name;
  const name = run === 'mobile' ? 'Noortje' : 'Noor';
  const noor = `noor-${run}@example.nl`;
  // Records what the page asks of the app badge (Chromium headless has no visible badge).
  await page.addInitScript(() => {
    const calls: number[] = [];
    (window as unknown as { badgeCalls: number[] }).badgeCalls = calls;
    Object.assign(navigator, {
      setAppBadge: (n: number) => {
        calls.push(n);
        return Promise.resolve();
      },
      clearAppBadge: () => {
        calls.push(0);
        return Promise.resolve();
      },
    });
  });
  await member(page, noor, { name, gender: 'Vrouw' });
  await activate(page, noor);
  await page.goto('/members');
  await expect(page.getByTestId('notifications-pill')).toHaveText('1'); // the welcome notice

  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await acceptEntry(context, baseURL!);
  const tim = await context.newPage();
  const timEmail = `tim-${run}@example.nl`;
  await member(tim, timEmail, { name: 'Tim', gender: 'Man' });
  await activate(tim, timEmail);
  await tim.goto('/members?gender=female');
  // Noor opens a page; its counters first refresh 5 s after it loads.
  await page.goto('/members');
  await expect(page.getByTestId('likes-pill')).toHaveCount(0);
  // Tim likes Noor with the heart on her search card and stays on the list.
  const card = tim.getByTestId('results').locator('li', { hasText: name }).first();
  await card.getByTestId('card-like').click();
  await expect(tim).toHaveURL(/liked=\d+/);
  await expect(tim.getByTestId('saved')).toContainText(`Je vindt ${name} leuk`);
  await expect(tim.getByTestId('results').locator('li', { hasText: name }).first().getByTestId('card-like')).toHaveAttribute('aria-pressed', 'true');

  // Noor's open page learns of it without a reload.
  await expect(page.getByTestId('likes-pill')).toHaveText('1', { timeout: 15_000 });
  await expect(page.getByTestId('notifications-pill')).toHaveText('2');
  await expect(page).toHaveTitle(/^\(1\) /);
  // The app badge follows: cleared while nothing was new, then 1.
  const badge = () => page.evaluate(() => (window as unknown as { badgeCalls: number[] }).badgeCalls);
  expect(await badge()).toContain(0);
  expect((await badge()).at(-1)).toBe(1);
  await page.getByTestId('notifications-link').click();
  await expect(page).toHaveURL(/\/notifications$/);
  const like = page.getByTestId('notification').filter({ hasText: 'Tim vindt je leuk' });
  await expect(like).toHaveClass(/notification--new/);
  await expect(page.getByTestId('notifications-pill')).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath('notifications.png'), fullPage: true });

  // Noor's match finder has Tim among the men who fit; she likes the selection in one go.
  await page.goto('/match-finder');
  await expect(page.getByTestId('finder-form')).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('match-finder.png'), fullPage: true });
  await page.getByTestId('finder-like-all').click();
  await expect(page.getByTestId('match-dialog')).toBeVisible();
  await expect(page.getByTestId('saved')).toContainText('leden geliket');
  await page.getByTestId('match-close').click();
  await expect(page.getByTestId('match-dialog')).toHaveCount(0);

  // Tim hears of the match in his notifications.
  await tim.goto('/notifications');
  await expect(tim.getByTestId('notification').filter({ hasText: `een match: jij en ${name}` })).toBeVisible();
  await context.close();
});

test('the like popup of ?t=N: an auto-like after N seconds, then the parameter leaves the address', async ({ page }, testInfo) => {
  const email = `popup-${testInfo.project.name}@example.nl`;
  await member(page, email, { name: 'Pien', gender: 'Vrouw' });
  await page.goto('/members?t=2');
  await expect(page.getByTestId('likes-pill')).toHaveCount(0);
  const popup = page.getByTestId('like-popup');
  await expect(popup).toBeVisible({ timeout: 15_000 });
  await expect(popup).toContainText('vindt jou leuk!');
  await expect(page).not.toHaveURL(/t=2/);
  // The like state reloads half a second after the call.
  await expect(page.getByTestId('likes-pill')).toHaveText('1');
  await page.screenshot({ path: testInfo.outputPath('like-popup.png') });
  // The modal holds the focus on its main action; Escape closes it.
  await expect(popup.getByTestId('like-popup-view')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(popup).toHaveCount(0);
  // The profile it showed is the new like on /likes.
  await page.goto('/likes');
  await page.getByTestId('likes-list').locator('.member-card__link').first().click();
  await expect(page).toHaveURL(/\/members\/\d+$/);
  await expect(page.getByTestId('like-status')).toContainText('vindt jou leuk!');
  await expect(page.getByTestId('fictional-warning')).toBeVisible();
});
