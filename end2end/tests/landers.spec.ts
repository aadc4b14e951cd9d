import { expect, type Page } from '@playwright/test';
import { acceptEntry, axeClean, layoutShiftSoFar, settled, test } from './helpers';

const designs: [string, string][] = [
  ['alonetonight', 'Alleen vannacht?'],
  ['collagelanding', 'Zoveel leuke mensen, één klik verwijderd'],
  ['gallery', 'Ontdek wie er bij jou in de buurt is'],
  ['iconslanding', 'Daten zoals jij het wilt'],
  ['maplanding', 'Singles bij jou om de hoek'],
  ['socialnetwork', 'Wat er vandaag gebeurt'],
  ['transitionsvideolanding', 'Jouw volgende date is al online'],
  ['video', 'Zie wie er nu live is'],
  ['tinderswipe', 'Swipe, like, date'],
];

/** Script errors of the page, collected from now on. */
function errorsOf(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

test.beforeEach(async ({ context, baseURL }) => {
  await acceptEntry(context, baseURL!);
});

/** The designs whose widget mounts over the server's page (the swipe stack). */
const interactive = new Set(['tinderswipe']);

test('every lander is whole as the server sends it, the interactive ones mount their widget over it, without sideways scrolling or script errors', async ({
  page,
}) => {
  const errors = errorsOf(page);
  for (const [route, headline] of designs) {
    const response = await page.goto(`/landers/${route}`);
    expect(response?.status(), route).toBe(200);
    if (interactive.has(route)) {
      await expect(page.locator('.widget[data-mounted]'), route).toBeVisible();
      await expect(page.getByTestId('lander-fallback'), `${route}: the server page gives way`).toBeHidden();
    } else {
      await expect(page.getByTestId('signup-modal'), route).toHaveAttribute('data-ready', 'true');
      await expect(page.getByTestId('lander-fallback'), `${route}: the server's page is the page`).toBeVisible();
      await expect(page.locator('.widget'), `${route} loads no widget`).toHaveCount(0);
    }
    await expect(page.getByRole('heading', { level: 1 }), route).toHaveText(headline);
    await expect(page.locator(`[data-design="${route}"] [data-testid="lander-signup"]:visible`).first(), route).toBeVisible();
    await expect(page.locator('.lander-header .logo'), route).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, `${route} scrolls sideways`).toBeLessThanOrEqual(0);
    await axeClean(page);
  }
  expect(errors).toEqual([]);
});

/** The layout shift of a page load, once the page, its images and its widget (if any) are there. */
async function layoutShift(page: Page, path: string, mounted: boolean): Promise<number> {
  await page.goto(path);
  if (mounted) await expect(page.locator('.widget[data-mounted]'), path).toBeVisible();
  else await expect(page.getByTestId('signup-modal'), path).toHaveAttribute('data-ready', 'true');
  // Late images and the clip's start come after the load event.
  await settled(page);
  return layoutShiftSoFar(page);
}

test('landers hold still: the server draws what the widget draws, so nothing moves while the page loads or the widget mounts', async ({ page }) => {
  test.setTimeout(120_000);
  const shifts: Record<string, number> = {};
  const members = await page.goto('/members?gender=female');
  expect(members?.status()).toBe(200);
  const id = (await page.locator('.member-card a[href^="/members/"]').first().getAttribute('href'))!.split('/')[2];
  const pages: [string, boolean][] = [
    ...designs.map(([route]): [string, boolean] => [`/landers/${route}`, interactive.has(route)]),
    // ?t mounts the widget on every design (for its like popup, here far off): the same boxes.
    ...designs.map(([route]): [string, boolean] => [`/landers/${route}?t=600`, true]),
    [`/members/${id}/landing2`, false],
    [`/members/${id}/landing3?t=600`, true],
  ];
  for (const [path, mounted] of pages) shifts[path] = await layoutShift(page, path, mounted);
  for (const [path, shift] of Object.entries(shifts)) expect(shift, `${path} moves: ${JSON.stringify(shifts)}`).toBeLessThan(0.05);
  // The measure sees a shift when there is one: the server's page pushed down by a banner.
  await page.evaluate(() => {
    const banner = document.createElement('div');
    banner.style.height = '300px';
    document.querySelector('main')!.prepend(banner);
  });
  await settled(page);
  const pushed = await layoutShiftSoFar(page);
  expect(pushed, 'a page pushed down counts as a shift').toBeGreaterThan(0.05);
});

test('a lander leads to signup: the modal on desktop, the page on a phone', async ({ page, isMobile }) => {
  await page.goto('/landers/gallery?network=lander-net&sub1=s1');
  await expect(page.getByTestId('signup-modal')).toHaveAttribute('data-ready', 'true');
  await page.locator('[data-design="gallery"] [data-testid="lander-signup"]:visible').first().click();
  if (isMobile) {
    await expect(page).toHaveURL(/\/signup/);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  } else {
    await expect(page.getByTestId('signup-modal')).toBeVisible();
    await expect(page.getByTestId('signup-modal')).toHaveAttribute('data-ready', 'true');
  }
});

test('a member tile on a lander leads to signup about that member, in the modal too', async ({ page, isMobile }, testInfo) => {
  await page.goto('/landers/gallery?network=tile-net');
  await expect(page.getByTestId('signup-modal')).toHaveAttribute('data-ready', 'true');
  const tile = page.locator('[data-testid="lander-profile"]:visible').first();
  const id = (await tile.getAttribute('href'))!.split('/')[2];
  await tile.click();
  if (isMobile) {
    await expect(page).toHaveURL(new RegExp(`/members/${id}/signup`));
    return;
  }
  const modal = page.getByTestId('signup-modal');
  await expect(modal.locator('form[data-ready="true"]')).toBeVisible();
  await expect(modal.locator('input[name="profile"]')).toHaveValue(id);
  await expect(modal.locator('input[name="network"]')).toHaveValue('tile-net');
  await modal.getByLabel('E-mailadres').fill(`tegel-${Date.now()}-${testInfo.project.name}@example.nl`);
  await modal.getByLabel('Profielnaam').fill('Tessa');
  await modal.getByLabel('Wachtwoord').fill('zoeken naar de vonk');
  await modal.getByLabel('Geboortedatum').fill('1988-03-14');
  await modal.getByRole('button', { name: 'Gratis aanmelden' }).click();
  await expect(page).toHaveURL(new RegExp(`/complete-signup\\?profile=${id}$`));
});

test('?t=N shows the like popup on a lander and leaves the address', async ({ page }) => {
  await page.goto('/landers/alonetonight?t=1&network=n');
  const popup = page.getByTestId('like-popup');
  await expect(popup).toBeVisible({ timeout: 5000 });
  await expect(popup).toContainText('vindt jou leuk!');
  await expect(page).toHaveURL(/\/landers\/alonetonight\?network=n$/);
  await expect(page.getByTestId('like-popup-view')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(popup).toHaveCount(0);
});

test('the video lander shows its poster, then plays its muted looping clip; the swipe stack asks for signup after a few cards', async ({ page }) => {
  await page.goto('/landers/video');
  await expect(page.locator('.widget'), 'the video lander loads no widget').toHaveCount(0);
  const clip = page.getByTestId('lander-clip');
  await expect(clip, 'the server sends the poster').toHaveAttribute('poster', /\/media\//);
  await expect(clip, 'the clip comes after the page').toHaveAttribute('src', /lander-clip\.webm$/);
  await expect.poll(() => clip.evaluate((v: HTMLVideoElement) => v.muted && v.loop && !v.paused && v.readyState >= 2), { timeout: 10_000 }).toBe(true);
  await expect(page.getByTestId('lander-live')).toHaveCount(4);

  // Save-Data keeps the poster.
  const saver = await page.context().newPage();
  await saver.addInitScript(() => Object.defineProperty(navigator, 'connection', { configurable: true, value: { saveData: true, effectiveType: '4g' } }));
  await saver.goto(page.url());
  await expect(saver.getByTestId('lander-clip')).toHaveAttribute('poster', /\/media\//);
  await saver.waitForLoadState('networkidle');
  await saver.waitForTimeout(500);
  await expect(saver.getByTestId('lander-clip')).not.toHaveAttribute('src', /./);
  await saver.close();
  // With the widget mounted (the like popup's ?t), its clip takes over the same way.
  await page.goto('/landers/video?t=600');
  await expect(page.locator('.widget [data-testid="lander-clip"]')).toHaveAttribute('src', /lander-clip\.webm$/);

  await page.goto('/landers/tinderswipe');
  const card = page.locator('.widget [data-testid="lander-swipe-card"]');
  const first = await card.getAttribute('data-id');
  // The card is big: the main photo (a demo portrait or a member's upload), not the thumbnail.
  await expect(card.locator('img')).toHaveAttribute('src', /^\/media\/(public\/demo\/(fe)?male-\d+\.jpg|photos\/\d+)$/);
  await page.getByRole('button', { name: 'Volgende' }).click();
  await expect(card).not.toHaveAttribute('data-id', first!);
  await page.getByRole('button', { name: 'Leuk' }).click();
  await expect(page.locator('.widget [data-testid="lander-swipe-done"]')).toBeVisible();
  await expect(page.locator('.widget [data-testid="lander-swipe-done"] [data-testid="lander-signup"]')).toHaveAttribute('href', '/signup');
});

test('a profile lander puts the member up front; a wrong niche prefix is sent on', async ({ page }) => {
  await page.goto('/members?gender=female');
  const href = (await page.locator('.member-card a[href^="/members/"]').first().getAttribute('href'))!;
  const id = href.split('/')[2];
  await page.goto(`/members/${id}/landing3/she-utrecht`);
  await expect(page).toHaveURL(new RegExp(`/members/${id}/landing3/utrecht$`));
  await expect(page.getByTestId('signup-modal')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('lander-featured')).toHaveAttribute('href', `/members/${id}/signup`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('wil je leren kennen');
  await axeClean(page);
});

test('with lb in the address, a lander that is left untouched sends one bounce beacon; without lb, none', async ({ page, context, baseURL }) => {
  await acceptEntry(context, baseURL!);
  const beacons: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/api/fn/page_bounce')) beacons.push(r.method());
  });
  const hide = () =>
    page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
      document.dispatchEvent(new Event('visibilitychange'));
    });
  await page.goto('/landers/gallery?network=adnet');
  await hide();
  await page.waitForTimeout(300);
  expect(beacons, 'no lb: no beacon').toHaveLength(0);
  await page.goto('/landers/gallery?lb=1&network=adnet');
  await hide();
  await hide();
  await expect.poll(() => beacons.length).toBe(1);
  expect(beacons[0]).toBe('POST');
});
